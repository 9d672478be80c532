#include "tools/writers/import/import_test_support.h"

// RELU, RELU_N1_TO_1, RELU6: etns_ops::lookup_table with TFLM's arithmetic
// (TFLite's for RELU_N1_TO_1) in the table, checked on every code.
namespace etns::tools::import_test {
namespace {

std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  return codes;
}

struct Grids {
  const char* what;
  float s_in;
  int32_t zp_in;
  float s_out;
  int32_t zp_out;
};

// TFLM's activations_test grids (input range [-63.5, 64] as scale 0.5, zero
// point -1), equal and unequal scales, zero points at both ends, an output
// grid so fine that the clamp bites, and one so coarse that 1 is 0 steps.
const Grids kGrids[] = {
    {"TFLM test grid", 0.5F, -1, 0.5F, -1},
    {"unequal scales", 0.04F, -10, 0.025F, -100},
    {"zero points at the ends", 0.05F, 127, 0.05F, -128},
    {"output saturates", 0.1F, 0, 0.01F, 5},
    {"output coarser", 0.02F, 3, 0.3F, -7},
    {"output much coarser", 0.01F, -20, 4.0F, 10},
};

tfl::Model unary(Builtin builtin, const std::vector<int32_t>& shape, const Grids& g) {
  TfliteBuilder b;
  const int32_t in = b.int8(shape, g.s_in, g.zp_in), out = b.int8(shape, g.s_out, g.zp_out);
  b.op(builtin, {in}, {out});
  return b.finish({in}, {out});
}

TEST(TfliteImport, ReluMatchesTflmOnEveryCode) {
  const std::vector<int8_t> x = all_codes();
  for (const Grids& g : kGrids) {
    SCOPED_TRACE(g.what);
    const std::vector<int8_t> want = ref::relu_x(ref::relu_params(g.s_in, g.zp_in, g.s_out, g.zp_out), x);
    EXPECT_EQ(run_one(unary(Builtin::Relu, {1, 8, 8, 4}, g), {as_bytes(x)}), as_bytes(want));
  }
}

TEST(TfliteImport, ReluN1To1MatchesTfliteOnEveryCode) {
  const std::vector<int8_t> x = all_codes();
  for (const Grids& g : kGrids) {
    SCOPED_TRACE(g.what);
    const std::vector<int8_t> want =
        ref::relu_x(ref::relu_n1_to_1_params(g.s_in, g.zp_in, g.s_out, g.zp_out), x);
    EXPECT_EQ(run_one(unary(Builtin::ReluN1To1, {2, 128}, g), {as_bytes(x)}), as_bytes(want));
  }
}

// RELU6 clamps the input bytes; the output grid is not read by TFLM, so the
// bytes do not depend on it.
TEST(TfliteImport, Relu6MatchesTflmOnEveryCode) {
  const std::vector<int8_t> x = all_codes();
  for (const Grids& g : kGrids) {
    SCOPED_TRACE(g.what);
    EXPECT_EQ(run_one(unary(Builtin::Relu6, {1, 4, 4, 16}, g), {as_bytes(x)}),
              as_bytes(ref::relu6(g.s_in, g.zp_in, x)));
  }
  // 6 past the top of the grid (six clamps to 127) and 6 as 0 steps of 100.
  for (const Grids& g : {Grids{"six past 127", 0.01F, 0, 0.01F, 0}, Grids{"scale 100", 100.0F, 4, 100.0F, 4}}) {
    SCOPED_TRACE(g.what);
    EXPECT_EQ(run_one(unary(Builtin::Relu6, {256}, g), {as_bytes(x)}), as_bytes(ref::relu6(g.s_in, g.zp_in, x)));
  }
}

// The reference's bounds, spelled out for the TFLM test grid: RELU6 clamps
// to [zp, zp + 12] = [-1, 11], RELU to [-1, 127], RELU_N1_TO_1 to [-3, 1] (-1 is 2 steps).
TEST(TfliteImport, ReluFamilyBoundsOnTheTflmTestGrid) {
  const Grids g = kGrids[0];
  const std::vector<int8_t> x{-128, -2, -1, 0, 1, 2, 11, 12, 127};
  const tfl::Model relu6 = unary(Builtin::Relu6, {9}, g);
  EXPECT_EQ(run_one(relu6, {as_bytes(x)}), as_bytes(std::vector<int8_t>{-1, -1, -1, 0, 1, 2, 11, 11, 11}));
  EXPECT_EQ(run_one(unary(Builtin::Relu, {9}, g), {as_bytes(x)}),
            as_bytes(std::vector<int8_t>{-1, -1, -1, 0, 1, 2, 11, 12, 127}));
  EXPECT_EQ(run_one(unary(Builtin::ReluN1To1, {9}, g), {as_bytes(x)}),
            as_bytes(std::vector<int8_t>{-3, -2, -1, 0, 1, 1, 1, 1, 1}));
}

TEST(TfliteImport, ReluFamilyRefusalsAreOneExactLine) {
  expect_refusals({
      {"RELU int16",
       [] {
         tfl::Model m = one_op(Builtin::Relu, {{4}, {4}});
         m.tensors[0].type = m.tensors[1].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (RELU): tensor 0 (\"t0\") is int16, expected int8"},
      {"RELU6 types differ",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({4}, 0.1F, 0), out = b.float32({4});
         b.op(Builtin::Relu6, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RELU6): tensor 0 (\"t0\") is int8 and tensor 1 (\"t1\") is float32 (TFLite Micro "
       "needs one type)"},
      {"RELU_N1_TO_1 shapes differ",
       [] { return one_op(Builtin::ReluN1To1, {{1, 4}, {4}}); },
       "m.tflite: operator 0 (RELU_N1_TO_1): tensor 0 (\"t0\") [1,4] and tensor 1 (\"t1\") [4] differ in shape"},
      {"RELU factor too large",
       [] {
         tfl::Model m = one_op(Builtin::Relu, {{4}, {4}});
         m.tensors[0].quantization.scales = {1.0e10F};
         return m;
       },
       "m.tflite: operator 0 (RELU): rescaling factor: factor 99999998509.883896 needs a left shift above 30"},
      {"RELU6 per-channel input",
       [] {
         tfl::Model m = one_op(Builtin::Relu6, {{1, 2}, {1, 2}});
         m.tensors[0].quantization.scales = {0.1F, 0.2F};
         m.tensors[0].quantization.zero_points = {0, 0};
         m.tensors[0].quantization.quantized_dimension = 1;
         return m;
       },
       "m.tflite: operator 0 (RELU6): tensor 0 (\"t0\") has no per-tensor quantisation (one scale and one zero "
       "point)"},
      {"RELU6 six outside int32",
       [] {
         tfl::Model m = one_op(Builtin::Relu6, {{4}, {4}});
         m.tensors[0].quantization.scales = {1.0e-20F};
         return m;
       },
       "m.tflite: operator 0 (RELU6): 6 is 600000012024526405632.000000 steps of the input grid, outside int32"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
