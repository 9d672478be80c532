#include "tools/writers/import/import_test_support.h"

// TRANSPOSE_CONV.
namespace etns::tools::import_test {
namespace {

struct TransposeConvCase {
  std::vector<int32_t> input;  // NHWC
  int32_t kh, kw, cout, stride_h, stride_w;
  Padding padding;
  int32_t out_h, out_w;
  Activation activation;
  bool bias;
};

TEST(TfliteImport, TransposeConvMatchesTflm) {
  const TransposeConvCase cases[] = {
      // SAME, odd totals in both dims (TFLM's far side is cropped by one more
      // row and column than the kernel's): the kernel computes 7x9, a crop
      // keeps 6x8.
      {{1, 3, 4, 2}, 3, 3, 3, 2, 2, Padding::Same, 6, 8, Activation::Relu, true},
      // SAME, even total: pad 1 on both sides, no crop.
      {{1, 4, 4, 3}, 4, 4, 2, 2, 2, Padding::Same, 8, 8, Activation::None, true},
      // VALID: (in - 1) * stride + kernel.
      {{1, 3, 3, 2}, 2, 2, 4, 2, 2, Padding::Valid, 6, 6, Activation::Relu6, false},
      // VALID with output_padding 2 and 1: rows past the last tap get the bias.
      {{1, 2, 3, 2}, 1, 2, 3, 3, 2, Padding::Valid, 6, 7, Activation::None, true},
      // Stride 1 SAME: a 3x3 kernel pads 1; a 2x2 kernel has an odd total.
      {{2, 2, 3, 4}, 3, 3, 2, 1, 1, Padding::Same, 2, 3, Activation::ReluN1To1, true},
      {{1, 3, 2, 2}, 2, 2, 3, 1, 1, Padding::Same, 3, 2, Activation::None, false},
      // Stride above the kernel (bias-only gaps), SAME.
      {{1, 2, 2, 2}, 2, 2, 2, 3, 3, Padding::Same, 6, 6, Activation::None, true},
      // Kernel 5, stride 2, SAME: pad 1, odd total.
      {{1, 3, 3, 1}, 5, 5, 2, 2, 2, Padding::Same, 6, 6, Activation::Relu, true},
      // Stride 3 over a 3x3 kernel, different strides per dim.
      {{1, 3, 2, 3}, 3, 3, 2, 3, 1, Padding::Same, 9, 2, Activation::None, true},
  };
  Rng rng(104);
  for (const TransposeConvCase& c : cases) {
    SCOPED_TRACE("input " + shape_text(c.input) + " kernel " + std::to_string(c.kh) + "x" + std::to_string(c.kw) +
                 " stride " + std::to_string(c.stride_h) + "x" + std::to_string(c.stride_w) +
                 (c.padding == Padding::Same ? " SAME " : " VALID ") + "output " + std::to_string(c.out_h) + "x" +
                 std::to_string(c.out_w));
    const std::vector<int32_t> fs{c.cout, c.kh, c.kw, c.input[3]}, os{c.input[0], c.out_h, c.out_w, c.cout};
    std::vector<float> scales;
    for (int32_t o = 0; o < c.cout; ++o) scales.push_back(0.01F + 0.004F * static_cast<float>(o));
    const float s_in = 0.07F, s_out = 0.05F;
    const int32_t zp_in = -6, zp_out = 4;
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.input)), w = random_s8(rng, ref::count(fs));
    const std::vector<int32_t> bias = c.bias ? random_bias(rng, c.cout, 2000) : std::vector<int32_t>{};
    TfliteBuilder b;
    const int32_t shape = b.int32_constant({4}, os), wt = b.weights(fs, scales, 0, w);
    const int32_t in = b.int8(c.input, s_in, zp_in);
    std::vector<int32_t> inputs{shape, wt, in};
    if (c.bias) inputs.push_back(b.int32_constant({c.cout}, bias));
    const int32_t out = b.int8(os, s_out, zp_out);
    b.op(Builtin::TransposeConv, inputs, {out}, conv_options(c.padding, c.stride_h, c.stride_w, c.activation));
    ref::Conv p;
    p.input_shape = c.input;
    p.filter_shape = fs;
    p.output_shape = os;
    p.stride_h = c.stride_h;
    p.stride_w = c.stride_w;
    p.pad_h = ref::transpose_padding(c.padding, c.out_h, c.kh, c.stride_h);
    p.pad_w = ref::transpose_padding(c.padding, c.out_w, c.kw, c.stride_w);
    p.input_offset = -zp_in;
    p.output_offset = zp_out;
    p.range = ref::activation_range(c.activation, s_out, zp_out);
    p.multipliers = ref::conv_multipliers(s_in, scales, s_out);
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::transpose_conv(p, x, w, bias)));
  }
}

TEST(TfliteImport, TransposeConvRefusalsAreOneExactLine) {
  expect_refusals({
      {"TRANSPOSE_CONV stride",
       [] {
         TfliteBuilder b;
         const int32_t shape = b.int32_constant({4}, {1, 2, 2, 1});
         const int32_t w = b.weights({1, 1, 1, 1}, {0.01F}, 0, {1});
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 2, 2, 1}, 0.1F, 0);
         b.op(Builtin::TransposeConv, {shape, w, in}, {out}, conv_options(Padding::Valid, 0, 1, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (TRANSPOSE_CONV): stride must be positive"},
      {"TRANSPOSE_CONV output channels",
       [] {
         TfliteBuilder b;
         const int32_t shape = b.int32_constant({4}, {1, 2, 2, 2});
         const int32_t w = b.weights({1, 1, 1, 1}, {0.01F}, 0, {1});
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 2, 2, 2}, 0.1F, 0);
         b.op(Builtin::TransposeConv, {shape, w, in}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (TRANSPOSE_CONV): output channels or batch differ from the weights'"},
      {"TRANSPOSE_CONV output past the input's reach",
       [] {
         TfliteBuilder b;
         const int32_t shape = b.int32_constant({4}, {1, 7, 4, 1});
         const int32_t w = b.weights({1, 1, 1, 1}, {0.01F}, 0, {1});
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 7, 4, 1}, 0.1F, 0);
         b.op(Builtin::TransposeConv, {shape, w, in}, {out}, conv_options(Padding::Valid, 3, 3, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (TRANSPOSE_CONV): output height 7 is 3 past the 4 the input reaches (input 2, padding 0): "
       "quantized_transpose_conv2d adds at most stride - 1"},
      {"TRANSPOSE_CONV channels",
       [] {
         TfliteBuilder b;
         const int32_t shape = b.int32_constant({4}, {1, 2, 2, 1});
         const int32_t w = b.weights({1, 1, 1, 3}, {0.01F}, 0, {1, 1, 1});
         const int32_t in = b.int8({1, 2, 2, 2}, 0.1F, 0), out = b.int8({1, 2, 2, 1}, 0.1F, 0);
         b.op(Builtin::TransposeConv, {shape, w, in}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (TRANSPOSE_CONV): tensor 1 (\"t1\") has 3 input channels, the input 2"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
