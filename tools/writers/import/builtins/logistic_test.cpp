#include "tools/writers/import/import_test_support.h"

// LOGISTIC: etns_ops::lookup_table with TFLM's gemmlowp fixed-point logistic
// in the table, checked on every code.
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
};

// TFLM's logistic tests quantise inputs over [-10, 10] and [-5, 5] with the
// output on 1/256, zero point -128; scales from tiny (no code saturates) to
// 0.5 (radius 30) and 1.5 (radius 2) cover the saturation branches.
const Case kCases[] = {
    {"[-10, 10]", 20.0F / 255, 0},
    {"[-5, 5], zp 1", 10.0F / 255, 1},
    {"tiny scale, zp -128", 0.001F, -128},
    {"scale 0.5, zp 127", 0.5F, 127},
    {"scale 1.5: radius 2", 1.5F, -3},
    {"scale 2^-28: shift 0", 1.0F / 268435456.0F, 0},
    {"scale 16: radius 0", 16.0F, 5},
};

TEST(TfliteImport, LogisticMatchesTflmOnEveryCode) {
  const std::vector<int8_t> x = all_codes();
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    TfliteBuilder b;
    const int32_t in = b.int8({2, 128}, c.s_in, c.zp_in), out = b.int8({2, 128}, 1.0F / 256, -128);
    b.op(Builtin::Logistic, {in}, {out});
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}),
              as_bytes(ref::logistic(ref::sigmoid_params(c.s_in, c.zp_in), x)));
  }
}

// The shape: 0 gives 1/2 (code 0), the ends saturate, the table rises.
TEST(TfliteImport, LogisticIsASigmoid) {
  TfliteBuilder b;
  const int32_t in = b.int8({256}, 20.0F / 255, 0), out = b.int8({256}, 1.0F / 256, -128);
  b.op(Builtin::Logistic, {in}, {out});
  const Bytes got = run_one(b.finish({in}, {out}), {as_bytes(all_codes())});
  EXPECT_EQ(static_cast<int8_t>(got[128]), 0);
  EXPECT_EQ(static_cast<int8_t>(got[0]), -128);
  EXPECT_EQ(static_cast<int8_t>(got[255]), 127);
  for (size_t i = 1; i < 256; ++i) EXPECT_LE(static_cast<int8_t>(got[i - 1]), static_cast<int8_t>(got[i]));
}

TEST(TfliteImport, LogisticRefusalsAreOneExactLine) {
  expect_refusals({
      {"output zero point 0",
       [] { return one_op(Builtin::Logistic, {{4}, {4}}); },
       "m.tflite: operator 0 (LOGISTIC): tensor 1 (\"t1\") has zero point 0 (TFLite Micro's int8 LOGISTIC needs "
       "-128)"},
      {"int16",
       [] {
         tfl::Model m = one_op(Builtin::Logistic, {{4}, {4}});
         m.tensors[0].type = m.tensors[1].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (LOGISTIC): tensor 0 (\"t0\") is int16, expected int8"},
      {"input scale below 2^-28",
       [] {
         tfl::Model m = one_op(Builtin::Logistic, {{4}, {4}});
         m.tensors[0].quantization.scales = {1.0e-9F};
         m.tensors[1].quantization.zero_points = {-128};
         return m;
       },
       "m.tflite: operator 0 (LOGISTIC): input scale 0.000000 gives TFLM's input shift -2 (it needs 0 to 62)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
