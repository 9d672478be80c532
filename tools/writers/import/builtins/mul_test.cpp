#include "tools/writers/import/import_test_support.h"

// MUL.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, MulMatchesTflmWithItsClamp) {
  struct Case {
    std::vector<int32_t> shape;
    float s1, s2, s_out;
    int32_t zp1, zp2, zp_out;
    Activation activation;
    bool constant_other;
  };
  const Case cases[] = {
      {{2, 5, 3}, 0.05F, 0.03F, 0.02F, 6, -4, -30, Activation::Relu, true},
      {{1, 4, 4, 3}, 0.1F, 0.1F, 0.05F, -128, 0, 3, Activation::None, false},
      {{9}, 0.2F, 0.07F, 0.04F, 10, -10, -5, Activation::Relu6, false},
      {{1, 3, 3, 2}, 0.02F, 0.5F, 0.004F, 1, 2, 0, Activation::ReluN1To1, true},
      // Both products far above the output grid: TFLM's clamp and int8's.
      {{16}, 1.0F, 1.0F, 0.001F, 0, 0, 0, Activation::None, false},
  };
  Rng rng(109);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " " + tfl::to_string(c.activation));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape)), y = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t a = b.int8(c.shape, c.s1, c.zp1);
    const int32_t d = c.constant_other ? b.int8_constant(c.shape, c.s2, c.zp2, y) : b.int8(c.shape, c.s2, c.zp2);
    const int32_t out = b.int8(c.shape, c.s_out, c.zp_out);
    b.op(Builtin::Mul, {a, d}, {out}, testing::activation_options(c.activation));
    const std::vector<int8_t> want = ref::mul(x, c.shape, c.zp1, y, c.shape, c.zp2, c.shape, c.zp_out,
                                              ref::mul_multiplier(c.s1, c.s2, c.s_out),
                                              ref::activation_range(c.activation, c.s_out, c.zp_out));
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.constant_other) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.constant_other ? std::vector<int32_t>{a} : std::vector<int32_t>{a, d}, {out});
    EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(want)});
  }
}

TEST(TfliteImport, MulMatchesTflmWithBroadcasting) {
  struct Case {
    std::vector<int32_t> a, b, out;
    float s1, s2, s_out;
    int32_t zp1, zp2, zp_out;
    Activation activation;
    bool b_constant;
  };
  const Case cases[] = {
      {{1, 2, 3, 1}, {1, 1, 1, 3}, {1, 2, 3, 3}, 0.05F, 0.03F, 0.02F, 6, -4, -30, Activation::Relu, false},
      // Squeeze-and-excitation: per-channel scales over every pixel.
      {{1, 4, 4, 3}, {1, 1, 1, 3}, {1, 4, 4, 3}, 0.1F, 0.004F, 0.05F, -128, -128, 3, Activation::None, false},
      {{1}, {2, 5}, {2, 5}, 0.2F, 0.07F, 0.04F, 10, -10, -5, Activation::Relu6, true},
      {{2, 3, 4}, {4}, {2, 3, 4}, 0.02F, 0.5F, 0.004F, 1, 2, 0, Activation::ReluN1To1, true},
      {{3, 1}, {1, 4}, {3, 4}, 0.3F, 0.2F, 0.5F, 0, 0, 0, Activation::None, false},
      {{1, 3, 1, 1}, {1, 3, 4, 2}, {1, 3, 4, 2}, 0.3F, 0.2F, 0.5F, 9, -3, 2, Activation::None, false},
      // Saturation both ways.
      {{2, 8}, {8}, {2, 8}, 1.0F, 1.0F, 0.001F, 0, 0, 0, Activation::None, true},
  };
  Rng rng(114);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.a) + " * " + shape_text(c.b) + " " + tfl::to_string(c.activation));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.a)), y = random_s8(rng, ref::count(c.b));
    TfliteBuilder b;
    const int32_t ta = b.int8(c.a, c.s1, c.zp1);
    const int32_t tb = c.b_constant ? b.int8_constant(c.b, c.s2, c.zp2, y) : b.int8(c.b, c.s2, c.zp2);
    const int32_t out = b.int8(c.out, c.s_out, c.zp_out);
    b.op(Builtin::Mul, {ta, tb}, {out}, testing::activation_options(c.activation));
    const std::vector<int8_t> want = ref::mul(x, c.a, c.zp1, y, c.b, c.zp2, c.out, c.zp_out,
                                              ref::mul_multiplier(c.s1, c.s2, c.s_out),
                                              ref::activation_range(c.activation, c.s_out, c.zp_out));
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.b_constant) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.b_constant ? std::vector<int32_t>{ta} : std::vector<int32_t>{ta, tb}, {out});
    EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(want)});
  }
}

TEST(TfliteImport, MulRefusalsAreOneExactLine) {
  expect_refusals({
      {"MUL shapes",
       [] { return one_op(Builtin::Mul, {{2, 3}, {1, 2}, {2, 3}}); },
       "m.tflite: operator 0 (MUL): input shapes do not broadcast"},
      {"MUL output",
       [] { return one_op(Builtin::Mul, {{2, 3}, {1, 3}, {1, 3}}); },
       "m.tflite: operator 0 (MUL): output shape is not the inputs' broadcast"},
      {"MUL over 5 dims",
       [] { return one_op(Builtin::Mul, {{2, 1, 1, 1, 3}, {3}, {2, 1, 1, 1, 3}}); },
       "m.tflite: operator 0 (MUL): broadcasting over 5 dims (TFLM's MUL broadcasts 4)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
