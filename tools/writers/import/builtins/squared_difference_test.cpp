#include "tools/writers/import/import_test_support.h"

// SQUARED_DIFFERENCE: etns_ops::squared_difference with TFLM's parameters
// and its broadcast walk.
namespace etns::tools::import_test {
namespace {

std::vector<int32_t> broadcast_of(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int32_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    const int32_t da = k + a.size() < rank ? 1 : a[k + a.size() - rank];
    const int32_t db = k + b.size() < rank ? 1 : b[k + b.size() - rank];
    out[k] = da == 1 ? db : da;
  }
  return out;
}

struct Case {
  const char* what;
  std::vector<int32_t> a, b;
  float s1, s2, s_out;
  int32_t zp1, zp2, zp_out;
  bool b_constant;
};

TfliteBuilder model_of(const Case& c, const std::vector<int8_t>& y, int32_t& ta, int32_t& tb, int32_t& out) {
  TfliteBuilder b;
  ta = b.int8(c.a, c.s1, c.zp1);
  tb = c.b_constant ? b.int8_constant(c.b, c.s2, c.zp2, y) : b.int8(c.b, c.s2, c.zp2);
  out = b.int8(broadcast_of(c.a, c.b), c.s_out, c.zp_out);
  b.op(Builtin::SquaredDifference, {ta, tb}, {out});
  return b;
}

std::vector<int8_t> expected(const Case& c, const std::vector<int8_t>& x, const std::vector<int8_t>& y) {
  const ref::SquaredDifference p = ref::squared_difference_params(c.s1, c.zp1, c.s2, c.zp2, c.s_out, c.zp_out);
  return ref::squared_difference(p, x, c.a, y, c.b, broadcast_of(c.a, c.b));
}

TEST(TfliteImport, SquaredDifferenceMatchesTflm) {
  const Case cases[] = {
      {"same NHWC", {1, 4, 4, 8}, {1, 4, 4, 8}, 0.05F, 0.05F, 0.1F, 0, 0, -128, false},
      {"same, unequal scales and zero points", {2, 17}, {2, 17}, 0.02F, 0.035F, 0.01F, -3, 12, -100, false},
      {"same, constant b", {7}, {7}, 0.003F, 0.2F, 0.25F, -1, 1, -120, true},
      {"scalar b", {2, 3, 4}, {1}, 0.1F, 0.1F, 0.05F, 5, -5, -128, true},
      {"scalar a", {1}, {3, 2, 2}, 0.5F, 0.25F, 1.0F, 0, 0, 0, false},
      {"row (channel vector)", {1, 3, 2, 8}, {8}, 0.04F, 0.02F, 0.08F, 20, -20, -128, true},
      {"row, rank 4 against rank 4", {1, 1, 1, 8}, {1, 3, 2, 8}, 0.04F, 0.03F, 0.02F, 7, -9, -128, false},
      {"column", {2, 3, 5}, {2, 3, 1}, 0.07F, 0.05F, 0.1F, -2, 3, -128, false},
      {"rank difference, both broadcast", {3, 1}, {2, 1, 4}, 0.06F, 0.06F, 0.2F, 1, -1, -128, false},
      {"outer product", {4, 1}, {1, 5}, 0.1F, 0.2F, 0.3F, 0, 10, -50, false},
      {"5-D", {1, 2, 3, 4, 5}, {2, 1, 1, 5}, 0.03F, 0.04F, 0.05F, 4, -4, -128, false},
      {"6-D", {2, 1, 1, 1, 1, 3}, {1, 1, 2, 1, 1, 3}, 0.03F, 0.03F, 0.05F, 0, 0, -128, false},
      // Saturation: differences far outside the output grid.
      {"saturation", {4, 8}, {4, 8}, 1.0F, 1.0F, 0.01F, 0, 0, 0, false},
      {"saturation, fine output", {4, 8}, {8}, 0.5F, 0.3F, 1e-4F, -128, 127, -128, false},
      {"coarse output", {4, 8}, {4, 8}, 0.01F, 0.02F, 50.0F, 0, 0, 0, false},
  };
  Rng rng(99);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what) + " " + shape_text(c.a) + " " + shape_text(c.b));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.a)), y = random_s8(rng, ref::count(c.b));
    int32_t ta = 0, tb = 0, out = 0;
    TfliteBuilder b = model_of(c, y, ta, tb, out);
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.b_constant) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.b_constant ? std::vector<int32_t>{ta} : std::vector<int32_t>{ta, tb}, {out});
    EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(expected(c, x, y))});
  }
}

// All 65,536 code pairs, [256, 1] against [1, 256], on grids where the two
// input factors differ (one shift 0, one negative) and the output factor
// shifts left or right.
TEST(TfliteImport, SquaredDifferenceMatchesTflmOnEveryCodePair) {
  const Case cases[] = {
      {"unequal scales", {256, 1}, {1, 256}, 0.047F, 0.0071F, 0.9F, -11, -4, -128, false},
      {"equal scales, fine output", {256, 1}, {1, 256}, 0.02F, 0.02F, 0.0005F, 3, -9, -100, false},
      {"tiny output scale (left shift)", {256, 1}, {1, 256}, 0.5F, 0.25F, 1e-6F, 0, 0, -128, false},
  };
  std::vector<int8_t> codes(256);
  for (size_t i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(static_cast<int32_t>(i) - 128);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    int32_t ta = 0, tb = 0, out = 0;
    TfliteBuilder b = model_of(c, codes, ta, tb, out);
    const std::vector<Bytes> got = run_imported(b.finish({ta, tb}, {out}), {as_bytes(codes), as_bytes(codes)});
    const std::vector<int8_t> want = expected(c, codes, codes);
    EXPECT_EQ(got, std::vector<Bytes>{as_bytes(want)});
    // The grid is one where outputs reach both ends or stay inside: not all one code.
    EXPECT_NE(std::count(want.begin(), want.end(), want[0]), static_cast<std::ptrdiff_t>(want.size()));
  }
}

// After a pool the activations exist channels_last; equal shapes run there.
TEST(TfliteImport, SquaredDifferenceAfterAPoolRunsChannelsLast) {
  const std::vector<int32_t> shape{1, 4, 4, 8};
  TfliteBuilder b;
  const int32_t in = b.int8(shape, 0.05F, -7), pooled = b.int8(shape, 0.05F, -7), other = b.int8(shape, 0.04F, 3);
  const int32_t out = b.int8(shape, 0.02F, -128);
  b.op(Builtin::MaxPool2d, {in}, {pooled}, pool_options(Padding::Valid, 1, 1, 1, 1, Activation::None));
  b.op(Builtin::SquaredDifference, {pooled, other}, {out});
  Rng rng(100);
  const std::vector<int8_t> x = random_s8(rng, 128), y = random_s8(rng, 128);
  const ref::SquaredDifference p = ref::squared_difference_params(0.05F, -7, 0.04F, 3, 0.02F, -128);
  EXPECT_EQ(run_imported(b.finish({in, other}, {out}), {as_bytes(x), as_bytes(y)}),
            std::vector<Bytes>{as_bytes(ref::squared_difference(p, x, shape, y, shape, shape))});
}

TEST(TfliteImport, SquaredDifferenceRefusalsAreOneExactLine) {
  expect_refusals({
      {"int16",
       [] {
         tfl::Model m = one_op(Builtin::SquaredDifference, {{4}, {4}, {4}});
         m.tensors[0].type = m.tensors[1].type = m.tensors[2].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): tensor 0 (\"t0\") is int16, expected int8"},
      {"float output",
       [] {
         tfl::Model m = one_op(Builtin::SquaredDifference, {{4}, {4}, {4}});
         m.tensors[2].type = tfl::TensorType::Float32;
         return m;
       },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): tensor 2 (\"t2\") is float32, expected int8"},
      {"shapes",
       [] { return one_op(Builtin::SquaredDifference, {{2, 3}, {2}, {2, 3}}); },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): input shapes do not broadcast"},
      {"output of a broadcast",
       [] { return one_op(Builtin::SquaredDifference, {{2, 3}, {3}, {3, 3}}); },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): output shape is not the inputs' broadcast"},
      {"output of equal shapes",
       [] { return one_op(Builtin::SquaredDifference, {{2, 3}, {2, 3}, {3, 2}}); },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): output shape is not the inputs' broadcast"},
      {"five alternating dims",
       [] { return one_op(Builtin::SquaredDifference, {{2, 1, 2, 1, 2}, {1, 2, 1, 2, 1}, {2, 2, 2, 2, 2}}); },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): the broadcast alternates over 5 dims (4 are imported)"},
      {"rank 7",
       [] {
         return one_op(Builtin::SquaredDifference, {{2, 1, 1, 1, 1, 1, 3}, {3}, {2, 1, 1, 1, 1, 1, 3}});
       },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): output [2,1,1,1,1,1,3] has rank 7 (TFLM broadcasts up to 6 "
       "dims)"},
      {"output factor",
       [] {
         tfl::Model m = one_op(Builtin::SquaredDifference, {{4}, {4}, {4}});
         m.tensors[0].quantization.scales = m.tensors[1].quantization.scales = {1.0F};
         m.tensors[2].quantization.scales = {1e-15F};
         return m;
       },
       "m.tflite: operator 0 (SQUARED_DIFFERENCE): output multiplier: factor 244140624114.381409 needs a left shift above 30"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
