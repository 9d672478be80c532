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

// One alpha per channel: a table per channel, on 4-D inputs (channels_last
// where an operator made that form: here after a MAX_POOL_2D) and on others.
TEST(TfliteImport, PreluPerChannelAlphaMatchesTflm) {
  struct Case {
    std::vector<int32_t> shape, alpha_shape;
    bool after_pool;
  };
  const Case cases[] = {
      {{1, 4, 4, 16}, {1, 1, 16}, false}, {{2, 3, 5, 9}, {9}, true},   {{3, 20}, {1, 20}, false},
      {{2, 2, 2, 3}, {2, 2, 3}, false},   {{1, 6, 6, 40}, {40}, true}, {{2, 8, 5}, {5}, false},
  };
  Rng rng(54);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " alpha " + shape_text(c.alpha_shape) + (c.after_pool ? " after a pool" : ""));
    const int32_t channels = c.shape.back();
    const std::vector<int8_t> per_channel = random_s8(rng, static_cast<size_t>(channels));
    std::vector<int8_t> alpha(ref::count(c.alpha_shape));
    for (size_t i = 0; i < alpha.size(); ++i) alpha[i] = per_channel[i % static_cast<size_t>(channels)];
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.05F, -4);
    int32_t pre = in;
    if (c.after_pool) {
      pre = b.int8(c.shape, 0.05F, -4);
      b.op(Builtin::MaxPool2d, {in}, {pre}, pool_options(Padding::Same, 1, 1, 1, 1, Activation::None));
    }
    const int32_t a = b.int8_constant(c.alpha_shape, 0.01F, 3, alpha);
    const int32_t out = b.int8(c.shape, 0.04F, 6);
    b.op(Builtin::Prelu, {pre, a}, {out});
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}),
              as_bytes(ref::prelu(x, c.shape, 0.05F, -4, alpha, c.alpha_shape, 0.01F, 3, 0.04F, 6)));
  }
}

TEST(TfliteImport, PreluRefusalsAreOneExactLine) {
  const PreluCase base{{1, 2, 2, 4}, {1, 1, 4}, 10, 0.05F, 0.01F, 0.05F, 0, 0, 0};
  expect_refusals({
      {"alpha along the width",
       [&] {
         PreluCase c = base;
         c.alpha_shape = {1, 2, 1};
         return prelu_model(c, {1, 2});
       },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) varies along other dims than the input's last (one "
       "value, or one per channel, is imported)"},
      {"alpha along width and channels",
       [&] {
         PreluCase c = base;
         c.alpha_shape = {2, 4};
         return prelu_model(c, {1, 2, 3, 4, 1, 2, 3, 5});
       },
       "m.tflite: operator 0 (PRELU): tensor 1 (\"t1\") (alpha) varies along other dims than the input's last (one "
       "value, or one per channel, is imported)"},
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
