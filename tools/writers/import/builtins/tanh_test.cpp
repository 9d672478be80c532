#include "tools/writers/import/import_test_support.h"

// TANH: etns_ops::lookup_table with TFLM's gemmlowp fixed-point tanh in the
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

// TFLM's tanh tests: inputs over [-8, 8) and [-10, 10], output on 1/128 with
// zero point 0. TFLM reads neither output field, so other output grids give
// the same bytes (the last case).
const Case kCases[] = {
    {"[-8, 8)", 1.0F / 16, 0, 1.0F / 128, 0},
    {"[-10, 10], zp 3", 20.0F / 255, 3, 1.0F / 128, 0},
    {"tiny scale", 0.0007F, -128, 1.0F / 128, 0},
    {"scale 0.5, zp 127: radius 30", 0.5F, 127, 1.0F / 128, 0},
    {"scale 4: radius 3", 4.0F, 0, 1.0F / 128, 0},
    {"output grid not read", 0.1F, -5, 0.5F, 17},
};

TEST(TfliteImport, TanhMatchesTflmOnEveryCode) {
  const std::vector<int8_t> x = all_codes();
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    TfliteBuilder b;
    const int32_t in = b.int8({1, 4, 4, 16}, c.s_in, c.zp_in), out = b.int8({1, 4, 4, 16}, c.s_out, c.zp_out);
    b.op(Builtin::Tanh, {in}, {out});
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}),
              as_bytes(ref::tanh(ref::sigmoid_params(c.s_in, c.zp_in), x)));
  }
}

// The shape: odd around the zero point (up to int8's one extra negative
// code), 0 at it, saturated ends.
TEST(TfliteImport, TanhIsOdd) {
  TfliteBuilder b;
  const int32_t in = b.int8({256}, 1.0F / 16, 0), out = b.int8({256}, 1.0F / 128, 0);
  b.op(Builtin::Tanh, {in}, {out});
  const Bytes got = run_one(b.finish({in}, {out}), {as_bytes(all_codes())});
  EXPECT_EQ(static_cast<int8_t>(got[128]), 0);
  EXPECT_EQ(static_cast<int8_t>(got[0]), -128);
  EXPECT_EQ(static_cast<int8_t>(got[255]), 127);
  for (int i = 1; i < 100; ++i) {
    EXPECT_EQ(static_cast<int8_t>(got[static_cast<size_t>(128 + i)]),
              std::min(127, -static_cast<int8_t>(got[static_cast<size_t>(128 - i)])));
  }
}

TEST(TfliteImport, TanhRefusalsAreOneExactLine) {
  expect_refusals({
      {"types differ",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({4}, 0.1F, 0), out = b.float32({4});
         b.op(Builtin::Tanh, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (TANH): tensor 0 (\"t0\") is int8 and tensor 1 (\"t1\") is float32 (TFLite Micro "
       "needs one type)"},
      {"input scale above 2^35",
       [] {
         tfl::Model m = one_op(Builtin::Tanh, {{4}, {4}});
         m.tensors[0].quantization.scales = {1.0e12F};
         return m;
       },
       "m.tflite: operator 0 (TANH): input scale 999999995904.000000 gives TFLM's input shift 67 (it needs 0 to "
       "62)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
