#include "tools/writers/import/import_test_support.h"

// PRELU.
namespace etns::tools::import_test {
namespace {

struct PreluCase {
  std::vector<int32_t> shape, alpha_shape;
  int8_t alpha;  // every alpha element's code
  float s_in, s_alpha, s_out;
  int32_t zp_in, zp_alpha, zp_out;
};

tfl::Model prelu_model(const PreluCase& c, const std::vector<int8_t>& alpha) {
  TfliteBuilder b;
  const int32_t in = b.int8(c.shape, c.s_in, c.zp_in);
  const int32_t a = b.int8_constant(c.alpha_shape, c.s_alpha, c.zp_alpha, alpha);
  const int32_t out = b.int8(c.shape, c.s_out, c.zp_out);
  b.op(Builtin::Prelu, {in, a}, {out});
  return b.finish({in}, {out});
}

// Every input code, through alphas of either sign, below and above 1, and
// alpha tensors of several shapes holding one value.
TEST(TfliteImport, PreluMatchesTflmOnEveryCode) {
  const PreluCase cases[] = {
      {{1, 4, 4, 16}, {1, 1, 16}, 51, 0.05F, 0.004F, 0.04F, -3, 1, 7},
      {{2, 8, 16}, {16}, -90, 0.1F, 0.01F, 0.08F, 10, -5, -20},
      {{256}, {1}, 127, 0.02F, 0.02F, 0.03F, 0, 0, 0},
      {{4, 64}, {1, 64}, -128, 0.2F, 0.0078125F, 0.1F, -128, 0, -128},
      {{1, 2, 2, 64}, {1, 1, 1, 1}, 3, 0.01F, 0.5F, 0.005F, 5, 2, 3},
      {{3, 5, 7, 2}, {7, 2}, 20, 0.03F, 0.05F, 0.06F, 127, -10, 0},
  };
  for (const PreluCase& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " alpha " + shape_text(c.alpha_shape) + " code " + std::to_string(c.alpha));
    const std::vector<int8_t> alpha(ref::count(c.alpha_shape), c.alpha);
    std::vector<int8_t> x(ref::count(c.shape));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>(static_cast<uint8_t>(i * 7 + 1));
    EXPECT_EQ(run_one(prelu_model(c, alpha), {as_bytes(x)}),
              as_bytes(ref::prelu(x, c.shape, c.s_in, c.zp_in, alpha, c.alpha_shape, c.s_alpha, c.zp_alpha, c.s_out,
                                  c.zp_out)));
  }
}

TEST(TfliteImport, PreluRefusalsAreOneExactLine) {
  const PreluCase base{{1, 2, 2, 4}, {1, 1, 4}, 10, 0.05F, 0.01F, 0.05F, 0, 0, 0};
  expect_refusals({
      {"per-channel values",
       [&] { return prelu_model(base, {1, 2, 3, 4}); },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) holds different values (one alpha value is imported, "
       "as one table)"},
      {"alpha shape",
       [&] {
         PreluCase c = base;
         c.alpha_shape = {1, 1, 3};
         return prelu_model(c, {5, 5, 5});
       },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) [1,1,3] does not broadcast onto the input "
       "[1,2,2,4] (ranks up to 4)"},
      {"alpha larger",
       [&] {
         PreluCase c = base;
         c.alpha_shape = {2, 2, 2, 4};
         return prelu_model(c, std::vector<int8_t>(32, 5));
       },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) [2,2,2,4] does not broadcast onto the input "
       "[1,2,2,4] (ranks up to 4)"},
      {"alpha not constant",
       [&] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 4}, 0.05F, 0), a = b.int8({4}, 0.01F, 0);
         const int32_t out = b.int8({1, 2, 2, 4}, 0.05F, 0);
         b.op(Builtin::Prelu, {in, a}, {out});
         return b.finish({in, a}, {out});
       },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) is not a constant (a constant alpha is imported, as "
       "a table)"},
      {"alpha per-channel scales",
       [&] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 2}, 0.05F, 0);
         const int32_t a = b.weights({2}, {0.01F, 0.02F}, 0, {3, 3});
         const int32_t out = b.int8({1, 2, 2, 2}, 0.05F, 0);
         b.op(Builtin::Prelu, {in, a}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) has 2 scales (per-tensor alpha is imported)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
