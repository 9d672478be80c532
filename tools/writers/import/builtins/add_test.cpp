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

TEST(TfliteImport, AddRefusalsAreOneExactLine) {
  expect_refusals({
      {"broadcasting ADD",
       [] { return one_op(Builtin::Add, {{2, 3}, {3}, {2, 3}}); },
       "m.tflite: operator 0 (ADD): input shapes differ (broadcasting ADD is not imported)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
