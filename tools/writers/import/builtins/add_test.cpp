#include "tools/writers/import/import_test_support.h"

// ADD.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, AddMatchesTflm) {
  struct Case {
    std::vector<int32_t> shape;
    float s1, s2, s_out;
    int32_t zp1, zp2, zp_out;
    Activation activation;
    bool after_convs;  // both operands channels_last convolution outputs
  };
  const Case cases[] = {
      {{1, 3, 4, 6}, 0.02F, 0.035F, 0.01F, -3, 12, -2, Activation::ReluN1To1, false},
      {{2, 17}, 0.5F, 0.5F, 0.9F, 0, -128, 127, Activation::None, false},
      {{1, 4, 3, 5}, 0.1F, 0.03F, 0.12F, 100, -50, -20, Activation::Relu6, true},
      {{7}, 0.003F, 0.2F, 0.25F, -1, 1, 0, Activation::Relu, false},
  };
  Rng rng(108);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " " + tfl::to_string(c.activation) + (c.after_convs ? " after convs" : ""));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape)), y = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t a = b.int8(c.shape, c.s1, c.zp1), d = b.int8(c.shape, c.s2, c.zp2);
    int32_t lhs = a, rhs = d;
    if (c.after_convs) {
      // Identity 1x1 convolutions (weight 1, factor 1) leave the codes.
      const int32_t cin = c.shape[3];
      std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
      for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
      const int32_t w1 = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
      const int32_t w2 = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
      lhs = b.int8(c.shape, c.s1, c.zp1);
      rhs = b.int8(c.shape, c.s2, c.zp2);
      b.op(Builtin::Conv2d, {a, w1}, {lhs}, conv_options(Padding::Valid, 1, 1, Activation::None));
      b.op(Builtin::Conv2d, {d, w2}, {rhs}, conv_options(Padding::Valid, 1, 1, Activation::None));
    }
    const int32_t out = b.int8(c.shape, c.s_out, c.zp_out);
    b.op(Builtin::Add, {lhs, rhs}, {out}, testing::activation_options(c.activation));
    const ref::Add p = ref::add_params(c.s1, c.zp1, c.s2, c.zp2, c.s_out, c.zp_out,
                                       ref::activation_range(c.activation, c.s_out, c.zp_out));
    EXPECT_EQ(run_imported(b.finish({a, d}, {out}), {as_bytes(x), as_bytes(y)}),
              std::vector<Bytes>{as_bytes(ref::add(p, x, c.shape, y, c.shape, c.shape))});
  }
}

// numpy's broadcast of two shapes, written out for the tests.
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

TEST(TfliteImport, AddMatchesTflmWithBroadcasting) {
  struct Case {
    std::vector<int32_t> a, b;
    float s1, s2, s_out;
    int32_t zp1, zp2, zp_out;
    Activation activation;
    bool b_constant;
  };
  const Case cases[] = {
      // TFLM's add_test broadcast shapes: both inputs repeat.
      {{1, 2, 3, 1}, {1, 1, 1, 3}, 0.02F, 0.035F, 0.01F, -3, 12, -2, Activation::None, false},
      // One value against a tensor, and the other way round.
      {{2, 3}, {1}, 0.1F, 0.03F, 0.12F, 100, -50, -20, Activation::Relu6, true},
      {{1}, {3, 2, 2}, 0.5F, 0.5F, 0.9F, 0, -128, 127, Activation::ReluN1To1, false},
      // Rank mismatch: a bias over the last dim, a column over two.
      {{2, 3, 4}, {4}, 0.003F, 0.2F, 0.25F, -1, 1, 0, Activation::Relu, true},
      {{2, 3, 4}, {3, 1}, 0.05F, 0.05F, 0.05F, 7, -7, 0, Activation::None, false},
      {{3, 1}, {1, 4}, 0.2F, 0.1F, 0.15F, 0, 5, -4, Activation::None, false},
      // cortex_m::maximum refuses this expansion as stored: merged dims.
      {{1, 3, 1, 1}, {1, 3, 4, 2}, 0.04F, 0.02F, 0.03F, 20, -20, 1, Activation::Relu, false},
      // Rank 5 (TFLM broadcasts ADD up to 6 dims): merged dims.
      {{2, 3, 1, 1, 1}, {2, 3, 4, 1, 2}, 0.04F, 0.02F, 0.03F, 20, -20, 1, Activation::None, false},
      {{1, 2, 1, 3, 1, 1}, {2, 1, 1, 1, 2, 1}, 0.04F, 0.02F, 0.03F, 20, -20, 1, Activation::None, false},
      // Saturation: sums far outside the output grid, both ways.
      {{1, 2, 2, 3}, {3}, 1.0F, 1.0F, 0.01F, 0, 0, 0, Activation::None, true},
  };
  Rng rng(112);
  for (const Case& c : cases) {
    const std::vector<int32_t> so = broadcast_of(c.a, c.b);
    SCOPED_TRACE(shape_text(c.a) + " + " + shape_text(c.b) + " " + tfl::to_string(c.activation));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.a)), y = random_s8(rng, ref::count(c.b));
    TfliteBuilder b;
    const int32_t ta = b.int8(c.a, c.s1, c.zp1);
    const int32_t tb = c.b_constant ? b.int8_constant(c.b, c.s2, c.zp2, y) : b.int8(c.b, c.s2, c.zp2);
    const int32_t out = b.int8(so, c.s_out, c.zp_out);
    b.op(Builtin::Add, {ta, tb}, {out}, testing::activation_options(c.activation));
    const ref::Add p = ref::add_params(c.s1, c.zp1, c.s2, c.zp2, c.s_out, c.zp_out,
                                       ref::activation_range(c.activation, c.s_out, c.zp_out));
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.b_constant) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.b_constant ? std::vector<int32_t>{ta} : std::vector<int32_t>{ta, tb}, {out});
    EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(ref::add(p, x, c.a, y, c.b, so))});
  }
}

// A broadcast operand after a convolution (channels_last in the graph): C
// values against [1, H, W, C] is the kernel's own channel broadcast.
TEST(TfliteImport, AddBroadcastsAfterAConvolution) {
  const std::vector<int32_t> shape{1, 3, 2, 4}, bias{4};
  Rng rng(113);
  const std::vector<int8_t> x = random_s8(rng, ref::count(shape)), y = random_s8(rng, 4);
  TfliteBuilder b;
  const int32_t in = b.int8(shape, 0.05F, 2);
  std::vector<int8_t> identity(16, 0);
  for (size_t i = 0; i < 4; ++i) identity[i * 5] = 1;
  const int32_t w = b.weights({4, 1, 1, 4}, {1.0F}, 0, identity);
  const int32_t conv = b.int8(shape, 0.05F, 2);
  b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
  const int32_t tb = b.int8_constant(bias, 0.07F, -9, y);
  const int32_t out = b.int8(shape, 0.06F, 3);
  b.op(Builtin::Add, {tb, conv}, {out});
  const ref::Add p = ref::add_params(0.07F, -9, 0.05F, 2, 0.06F, 3, ref::activation_range(Activation::None, 0.06F, 3));
  ImportedModel imported;
  EXPECT_EQ(run_imported(b.finish({in}, {out}), {as_bytes(x)}, &imported),
            std::vector<Bytes>{as_bytes(ref::add(p, y, bias, x, shape, shape))});
  // The kernel's channel broadcast: one call, no expansion.
  ASSERT_EQ(imported.operators.size(), 2U);
  EXPECT_EQ(imported.operators[1].instructions, 1);
}

TEST(TfliteImport, AddRefusalsAreOneExactLine) {
  expect_refusals({
      {"ADD shapes",
       [] { return one_op(Builtin::Add, {{2, 3}, {2}, {2, 3}}); },
       "m.tflite: operator 0 (ADD): input shapes do not broadcast"},
      {"ADD output",
       [] { return one_op(Builtin::Add, {{2, 3}, {3}, {3, 3}}); },
       "m.tflite: operator 0 (ADD): output shape is not the inputs' broadcast"},
      {"ADD over five alternating dims",
       [] { return one_op(Builtin::Add, {{2, 1, 2, 1, 2}, {2, 3, 2, 3, 2}, {2, 3, 2, 3, 2}}); },
       "m.tflite: operator 0 (ADD): the broadcast of tensor 0 (\"t0\") alternates over 5 dims (4 are imported)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
