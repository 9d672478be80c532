#include "tools/writers/import/import_test_support.h"

// RESHAPE and SQUEEZE.
namespace etns::tools::import_test {
namespace {

// RESHAPE and SQUEEZE of a convolution's [1, H, W, C] output with H, W, C > 1:
// its bytes are NHWC, so the stored form is a permute copy of the
// channels_last one, then a view. Identity 1x1 convolutions keep the codes.
TEST(TfliteImport, ReshapeAndSqueezeOfAConvolutionOutputKeepTheNhwcBytes) {
  struct Case {
    std::vector<int32_t> conv, reshaped;
    bool squeeze;
  };
  const Case cases[] = {
      {{1, 3, 2, 4}, {1, 24}, false}, {{1, 3, 2, 4}, {6, 4}, false}, {{1, 2, 5, 3}, {2, 15}, false},
      {{1, 1, 5, 3}, {5, 3}, true},   {{1, 4, 1, 1}, {4}, true},     {{1, 2, 3, 2}, {12}, false},
      {{1, 1, 1, 1}, {}, false},  // a scalar: RESHAPE's new_shape has no elements
  };
  Rng rng(114);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.conv) + " -> " + shape_text(c.reshaped) + (c.squeeze ? " SQUEEZE" : " RESHAPE"));
    const int32_t cin = c.conv[3];
    std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
    for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.conv));
    TfliteBuilder b;
    const int32_t in = b.int8(c.conv, 0.1F, 2), w = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(c.conv, 0.1F, 2);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    // TFLM copies the bytes whatever the output's quantisation says.
    const int32_t out = b.int8(c.reshaped, 0.4F, -3);
    if (c.squeeze) {
      b.op(Builtin::Squeeze, {conv}, {out});
    } else {
      const int32_t shape = b.int32_constant({static_cast<int32_t>(c.reshaped.size())}, c.reshaped);
      b.op(Builtin::Reshape, {conv, shape}, {out});
    }
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(x));
  }
}

TEST(TfliteImport, ReshapeRefusalsAreOneExactLine) {
  expect_refusals({
      {"RESHAPE element count",
       [] {
         return one_op(Builtin::Reshape, {{2, 3}, {7}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1}, {7}));
         });
       },
       "m.tflite: operator 0 (RESHAPE): reshapes 6 elements into 7"},
      {"RESHAPE types",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 3}, 0.1F, 0), out = b.float32({6});
         b.op(Builtin::Reshape, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESHAPE): input and output types differ"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
