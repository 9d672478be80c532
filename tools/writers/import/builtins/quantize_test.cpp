#include "tools/writers/import/import_test_support.h"

// QUANTIZE and DEQUANTIZE at the model's edges.
namespace etns::tools::import_test {
namespace {

// Float inputs whose x / s lies at least 0.1 from a half: there TFLM's
// round(x / s) (float division, halves away from zero) and quantize's
// x * (1 / s) rounded to even agree (docs/numerics.md#quantize; exact ties
// and values within an ulp or so of one would differ).
std::vector<float> float_inputs(Rng& rng, size_t n, float scale, int32_t zero_point) {
  std::vector<float> v;
  while (v.size() < n) {
    const double q = static_cast<double>(rng.uniform(-1400, 1400)) / 10.0 - zero_point;
    const double fraction = q - std::floor(q);
    if (std::fabs(fraction - 0.5) < 0.1) continue;
    v.push_back(static_cast<float>(q * static_cast<double>(scale)));
  }
  return v;
}

TEST(TfliteImport, QuantizeAndDequantizeAtTheModelEdgesMatchTflm) {
  Rng rng(115);
  // float [1, 5, 4, 3] -> QUANTIZE -> CONV_2D -> DEQUANTIZE -> float (the
  // dequantize reads the convolution's channels_last output).
  const std::vector<int32_t> is{1, 5, 4, 3}, fs{2, 3, 3, 3}, os{1, 3, 2, 2};
  const float s_q = 0.04F, s_out = 0.3F;
  const int32_t zp_q = -7, zp_out = 12;
  const std::vector<float> x = float_inputs(rng, ref::count(is), s_q, zp_q);
  const std::vector<int8_t> w = random_s8(rng, ref::count(fs));
  const std::vector<float> ws{0.01F, 0.02F};
  TfliteBuilder b;
  const int32_t in = b.float32(is), q = b.int8(is, s_q, zp_q), wt = b.weights(fs, ws, 0, w);
  const int32_t c = b.int8(os, s_out, zp_out), out = b.float32(os);
  b.op(Builtin::Quantize, {in}, {q});
  b.op(Builtin::Conv2d, {q, wt}, {c}, conv_options(Padding::Valid, 1, 1, Activation::None));
  b.op(Builtin::Dequantize, {c}, {out});
  const std::vector<int8_t> quantized = ref::quantize(x, s_q, zp_q);
  ref::Conv p;
  p.input_shape = is;
  p.filter_shape = fs;
  p.output_shape = os;
  p.input_offset = -zp_q;
  p.output_offset = zp_out;
  p.multipliers = ref::conv_multipliers(s_q, ws, s_out);
  const std::vector<float> want = ref::dequantize(ref::conv(p, quantized, w, {}), s_out, zp_out);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));

  // Clamping at both ends, a 1-D tensor, zero point -128.
  std::vector<float> y = float_inputs(rng, 40, 0.01F, -128);
  y.push_back(100.0F);
  y.push_back(-100.0F);
  TfliteBuilder b2;
  const int32_t in2 = b2.float32({42}), q2 = b2.int8({42}, 0.01F, -128), out2 = b2.float32({42});
  b2.op(Builtin::Quantize, {in2}, {q2});
  b2.op(Builtin::Dequantize, {q2}, {out2});
  EXPECT_EQ(run_one(b2.finish({in2}, {out2}), {as_bytes(y)}),
            as_bytes(ref::dequantize(ref::quantize(y, 0.01F, -128), 0.01F, -128)));
}

// QUANTIZE int8 -> int8 (TFLM's Requantize) on every code: TFLM's quantize
// tests' requantisations (scale ratios above and below 1, zero points moved
// to the ends), equal grids (the identity) and saturation.
TEST(TfliteImport, QuantizeInt8ToInt8MatchesTflmOnEveryCode) {
  struct Case {
    const char* what;
    float s_in;
    int32_t zp_in;
    float s_out;
    int32_t zp_out;
  };
  const Case cases[] = {
      {"equal grids", 0.5F, -1, 0.5F, -1},
      {"scale ratio 2", 1.0F, 0, 0.5F, -1},
      {"scale ratio 1/2, zero points differ", 0.5F, 5, 1.0F, -62},
      {"zero points at the ends", 0.05F, 127, 0.07F, -128},
      {"ratio 1000: saturates", 1.0F, 0, 0.001F, 0},
      {"ratio 1e-10: flushed to zp", 1.0e-5F, 0, 1.0e5F, 9},
  };
  std::vector<int8_t> x(256);
  for (int i = 0; i < 256; ++i) x[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TfliteBuilder b;
    const int32_t in = b.int8({1, 16, 16}, c.s_in, c.zp_in), out = b.int8({1, 16, 16}, c.s_out, c.zp_out);
    b.op(Builtin::Quantize, {in}, {out});
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}),
              as_bytes(ref::requantize(c.s_in, c.zp_in, c.s_out, c.zp_out, x)));
  }
}

TEST(TfliteImport, QuantizeAndDequantizeRefusalsAreOneExactLine) {
  expect_refusals({
      {"QUANTIZE int16 to int8",
       [] {
         tfl::Model m = one_op(Builtin::Quantize, {{4}, {4}});
         m.tensors[0].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (QUANTIZE): requantises int16 (only float32 or int8 -> int8 is imported)"},
      {"QUANTIZE int8 to int16",
       [] {
         tfl::Model m = one_op(Builtin::Quantize, {{4}, {4}});
         m.tensors[1].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (QUANTIZE): tensor 1 (\"t1\") is int16, expected int8"},
      {"QUANTIZE int8 shapes differ",
       [] { return one_op(Builtin::Quantize, {{2, 2}, {4}}); },
       "m.tflite: operator 0 (QUANTIZE): tensor 0 (\"t0\") [2,2] and tensor 1 (\"t1\") [4] differ in shape"},
      {"DEQUANTIZE to int8",
       [] { return one_op(Builtin::Dequantize, {{4}, {4}}); },
       "m.tflite: operator 0 (DEQUANTIZE): output is int8, expected float32"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
