#include "tools/writers/import/import_test_support.h"

// LEAKY_RELU: etns_ops::lookup_table with TFLM's arithmetic in its table.
namespace etns::tools::import_test {
namespace {

// Every int8 code once, in order.
std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  return codes;
}

struct Case {
  const char* what;
  std::vector<int32_t> shape;  // 256 elements: every code once
  float alpha;
  float s_in;
  int32_t zp_in;
  float s_out;
  int32_t zp_out;
};

const Case kCases[] = {
    {"alpha 0.2, equal grids, NHWC", {1, 8, 8, 4}, 0.2F, 0.05F, 0, 0.05F, 0},
    {"alpha 0.2, unequal scales, 2-D", {2, 128}, 0.2F, 0.04F, -10, 0.025F, -100},
    {"alpha negative", {1, 4, 4, 16}, -0.5F, 0.03F, 5, 0.02F, 0},
    {"alpha -3", {2, 128}, -3.0F, 0.02F, 0, 0.1F, -20},
    {"alpha above 1", {1, 8, 8, 4}, 3.0F, 0.02F, -128, 0.1F, 127},
    {"alpha 0, zero points at the ends", {2, 128}, 0.0F, 0.05F, 127, 0.05F, -128},
    {"alpha 1", {2, 128}, 1.0F, 0.05F, 3, 0.07F, -3},
    {"identity saturates", {1, 4, 4, 16}, 0.1F, 0.1F, 0, 0.01F, 0},
    {"alpha saturates", {2, 128}, 20.0F, 0.05F, 0, 0.05F, 0},
    {"tiny alpha flushed", {2, 128}, 1.0e-12F, 0.05F, 0, 0.05F, 0},
};

TEST(TfliteImport, LeakyReluMatchesTflmOnEveryCode) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.what) + " " + shape_text(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, c.s_in, c.zp_in), out = b.int8(c.shape, c.s_out, c.zp_out);
    tfl::Options o;
    o.alpha = c.alpha;
    b.op(Builtin::LeakyRelu, {in}, {out}, o);
    const std::vector<int8_t> x = all_codes();
    const std::vector<int8_t> want =
        ref::leaky_relu(ref::leaky_relu_params(c.s_in, c.zp_in, c.s_out, c.zp_out, c.alpha), x);
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

// After a pool the activation exists only channels_last; the table is
// applied there (the walk is elementwise), with no copy.
TEST(TfliteImport, LeakyReluAfterAPoolRunsChannelsLast) {
  const std::vector<int32_t> shape{1, 8, 8, 4};
  TfliteBuilder b;
  const int32_t in = b.int8(shape, 0.05F, -7), pooled = b.int8(shape, 0.05F, -7), out = b.int8(shape, 0.03F, 20);
  b.op(Builtin::MaxPool2d, {in}, {pooled}, pool_options(Padding::Valid, 1, 1, 1, 1, Activation::None));
  tfl::Options o;
  o.alpha = 0.3F;
  b.op(Builtin::LeakyRelu, {pooled}, {out}, o);
  const std::vector<int8_t> x = all_codes();
  const std::vector<int8_t> want = ref::leaky_relu(ref::leaky_relu_params(0.05F, -7, 0.03F, 20, 0.3F), x);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
}

TEST(TfliteImport, LeakyReluRefusalsAreOneExactLine) {
  tfl::Options o;
  o.alpha = 0.2F;
  expect_refusals({
      {"int16",
       [o] {
         tfl::Model m = one_op(Builtin::LeakyRelu, {{4}, {4}}, o);
         m.tensors[0].type = m.tensors[1].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (LEAKY_RELU): tensor 0 (\"t0\") is int16, expected int8"},
      {"types differ",
       [o] {
         TfliteBuilder b;
         const int32_t in = b.int8({4}, 0.1F, 0), out = b.float32({4});
         b.op(Builtin::LeakyRelu, {in}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (LEAKY_RELU): tensor 0 (\"t0\") is int8 and tensor 1 (\"t1\") is float32 (TFLite "
       "Micro needs one type)"},
      {"per-channel input",
       [o] {
         tfl::Model m = one_op(Builtin::LeakyRelu, {{1, 2}, {1, 2}}, o);
         m.tensors[0].quantization.scales = {0.1F, 0.2F};
         m.tensors[0].quantization.zero_points = {0, 0};
         m.tensors[0].quantization.quantized_dimension = 1;
         return m;
       },
       "m.tflite: operator 0 (LEAKY_RELU): tensor 0 (\"t0\") has no per-tensor quantisation (one scale and one zero "
       "point)"},
      {"shapes differ",
       [o] { return one_op(Builtin::LeakyRelu, {{1, 4}, {4}}, o); },
       "m.tflite: operator 0 (LEAKY_RELU): tensor 0 (\"t0\") [1,4] and tensor 1 (\"t1\") [4] differ in shape"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
