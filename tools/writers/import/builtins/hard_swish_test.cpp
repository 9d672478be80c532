#include "tools/writers/import/import_test_support.h"

// HARD_SWISH: etns_ops::lookup_table with TFLM's 16-bit arithmetic in the
// table, checked on every code.
namespace etns::tools::import_test {
namespace {

std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  return codes;
}

struct Case {
  const char* what;
  float s_in;
  int32_t zp_in;
  float s_out;
  int32_t zp_out;
};

// TFLM's hard_swish tests quantise ranges such as [-1, 1], [-3, 3] and
// [-10, 10] in and out, and MobileNet v3's wide ranges ("of the order of 10
// or 100"); the reluish factor's exponent runs from negative to positive
// over these, and the output factor's from 0 down to well below -16 (the
// narrowed int16 mask of RoundingDivideByPOT).
const Case kCases[] = {
    {"[-1, 1] both", 2.0F / 255, 0, 2.0F / 255, 0},
    {"[-3, 3] both", 6.0F / 255, -1, 6.0F / 255, -1},
    {"[-10, 10] in, [-3, 10] out", 20.0F / 255, 0, 13.0F / 255, -69},
    {"wide input [-100, 100]", 200.0F / 255, 0, 100.0F / 255, -90},
    {"tiny input", 0.0005F, 7, 0.0004F, -3},
    {"zero points at the ends", 0.05F, -128, 0.04F, 127},
    {"output much finer: saturates", 0.1F, 0, 0.001F, 0},
    {"output factor 2^-20", 0.001F, 0, 8.0F, 0},
};

TEST(TfliteImport, HardSwishMatchesTflmOnEveryCode) {
  const std::vector<int8_t> x = all_codes();
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    TfliteBuilder b;
    const int32_t in = b.int8({1, 8, 8, 4}, c.s_in, c.zp_in), out = b.int8({1, 8, 8, 4}, c.s_out, c.zp_out);
    b.op(Builtin::HardSwish, {in}, {out});
    const std::vector<int8_t> want = ref::hard_swish(ref::hard_swish_params(c.s_in, c.zp_in, c.s_out, c.zp_out), x);
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

// On [-3, 3] in and out (scale 6/255, zp -1): 0 gives exactly 0, and the
// lowest code (-2.99) gives about 0.
TEST(TfliteImport, HardSwishShapeOnTheThreeGrid) {
  TfliteBuilder b;
  const float s = 6.0F / 255;
  const int32_t in = b.int8({4}, s, -1), out = b.int8({4}, s, -1);
  b.op(Builtin::HardSwish, {in}, {out});
  const Bytes got = run_one(b.finish({in}, {out}), {as_bytes(std::vector<int8_t>{-128, -1, 126, 127})});
  const std::vector<int8_t> want =
      ref::hard_swish(ref::hard_swish_params(s, -1, s, -1), std::vector<int8_t>{-128, -1, 126, 127});
  EXPECT_EQ(got, as_bytes(want));
  EXPECT_EQ(static_cast<int8_t>(got[1]), -1);  // 0 -> 0
  EXPECT_LE(std::abs(static_cast<int8_t>(got[0]) + 1), 1);  // -2.99 * 0.01 / 6 -> 0 within a step
}

TEST(TfliteImport, HardSwishRefusalsAreOneExactLine) {
  expect_refusals({
      {"int16",
       [] {
         tfl::Model m = one_op(Builtin::HardSwish, {{4}, {4}});
         m.tensors[0].type = m.tensors[1].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (HARD_SWISH): tensor 0 (\"t0\") is int16, expected int8"},
      {"shapes differ",
       [] { return one_op(Builtin::HardSwish, {{2, 2}, {4}}); },
       "m.tflite: operator 0 (HARD_SWISH): tensor 0 (\"t0\") [2,2] and tensor 1 (\"t1\") [4] differ in shape"},
      {"output factor exponent above 0",
       [] {
         tfl::Model m = one_op(Builtin::HardSwish, {{4}, {4}});
         m.tensors[0].quantization.scales = {256.0F};
         m.tensors[1].quantization.scales = {1.0F};
         return m;
       },
       "m.tflite: operator 0 (HARD_SWISH): output factor 2.000000 has a positive exponent (TFLite Micro needs "
       "input scale / 128 below the output scale)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
