#include "tools/writers/import/import_test_support.h"

// DEPTHWISE_CONV_2D.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, DepthwiseConv2dMatchesTflm) {
  const ConvCase cases[] = {
      // cout is input channels x multiplier; groups unused.
      {{1, 7, 5, 3}, 3, 3, 3, 2, 2, 1, 1, Padding::Same, Activation::Relu6, -7, -20, true, true, 1},
      {{1, 6, 7, 2}, 2, 2, 4, 1, 1, 2, 2, Padding::Valid, Activation::None, 3, 5, true, true, 1},
      {{2, 5, 5, 4}, 3, 3, 8, 1, 1, 1, 1, Padding::Same, Activation::Relu, -128, -100, false, false, 1},
      {{1, 9, 4, 2}, 4, 2, 6, 2, 3, 1, 1, Padding::Same, Activation::ReluN1To1, 20, 0, true, true, 1},
      // One input channel, multiplier > 1: the convolution path (micro_speech, fingerprint).
      {{1, 9, 7, 1}, 3, 3, 8, 1, 1, 1, 1, Padding::Same, Activation::Relu, -1, -128, true, true, 1},
      {{2, 10, 8, 1}, 10, 8, 4, 2, 2, 1, 1, Padding::Same, Activation::None, 5, 7, true, false, 1},
      {{1, 8, 9, 1}, 3, 2, 3, 1, 2, 2, 1, Padding::Valid, Activation::Relu6, -20, 3, false, true, 1},
  };
  Rng rng(103);
  for (const ConvCase& c : cases) {
    SCOPED_TRACE(describe(c));
    const ref::Padded ph = ref::compute_padding(c.padding, c.input[1], c.kh, c.stride_h, c.dilation_h);
    const ref::Padded pw = ref::compute_padding(c.padding, c.input[2], c.kw, c.stride_w, c.dilation_w);
    const std::vector<int32_t> fs{1, c.kh, c.kw, c.cout}, os{c.input[0], ph.out, pw.out, c.cout};
    std::vector<float> scales;
    for (int32_t o = 0; o < c.cout; ++o) scales.push_back(0.01F + 0.002F * static_cast<float>(o));
    if (!c.per_channel) scales.resize(1);
    const float s_in = 0.03F, s_out = 0.02F;
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.input)), w = random_s8(rng, ref::count(fs));
    const std::vector<int32_t> bias = c.bias ? random_bias(rng, c.cout, 3000) : std::vector<int32_t>{};
    TfliteBuilder b;
    const int32_t in = b.int8(c.input, s_in, c.zp_in), wt = b.weights(fs, scales, 3, w);
    std::vector<int32_t> inputs{in, wt};
    if (c.bias) inputs.push_back(b.int32_constant({c.cout}, bias));
    const int32_t out = b.int8(os, s_out, c.zp_out);
    tfl::Options o = conv_options(c.padding, c.stride_h, c.stride_w, c.activation, c.dilation_h, c.dilation_w);
    o.depth_multiplier = c.cout / c.input[3];
    b.op(Builtin::DepthwiseConv2d, inputs, {out}, o);
    ref::Conv p;
    p.input_shape = c.input;
    p.filter_shape = fs;
    p.output_shape = os;
    p.stride_h = c.stride_h;
    p.stride_w = c.stride_w;
    p.dilation_h = c.dilation_h;
    p.dilation_w = c.dilation_w;
    p.pad_h = ph.pad;
    p.pad_w = pw.pad;
    p.input_offset = -c.zp_in;
    p.output_offset = c.zp_out;
    p.range = ref::activation_range(c.activation, s_out, c.zp_out);
    for (int32_t oc = 0; oc < c.cout; ++oc) {
      p.multipliers.push_back(
          ref::conv_multipliers(s_in, {scales[c.per_channel ? static_cast<size_t>(oc) : 0]}, s_out)[0]);
    }
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::depthwise_conv(p, x, w, bias)));
  }
}

// One input channel with a multiplier: each output channel is a plain
// convolution, so the program calls quantized_conv2d (the cases above check
// its bytes); several input channels keep the depthwise kernel.
TEST(TfliteImport, DepthwiseConv2dOfOneChannelBecomesAConvolution) {
  for (const int32_t channels : {1, 2}) {
    TfliteBuilder b;
    const int32_t in = b.int8({1, 5, 5, channels}, 0.1F, 0);
    const int32_t w = b.weights({1, 3, 3, 4}, {0.01F}, 0, std::vector<int8_t>(36, 1));
    const int32_t out = b.int8({1, 5, 5, 4}, 0.1F, 0);
    b.op(Builtin::DepthwiseConv2d, {in, w}, {out}, conv_options(Padding::Same, 1, 1, Activation::None));
    const ImportedModel imported = import_tflite(b.finish({in}, {out}), "m.tflite");
    EXPECT_EQ(imported.operators[0].became,
              channels == 1 ? "cortex_m::quantized_conv2d" : "cortex_m::quantized_depthwise_conv2d");
    EXPECT_EQ(imported.operators[0].macs, 5U * 5U * 4U * 9U);
  }
}

TEST(TfliteImport, DepthwiseConv2dRefusalsAreOneExactLine) {
  expect_refusals({
      {"depthwise channels",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 3, 3, 2}, 0.1F, 0);
         const int32_t w = b.weights({1, 1, 1, 3}, {0.01F}, 0, std::vector<int8_t>(3, 1));
         const int32_t out = b.int8({1, 3, 3, 3}, 0.1F, 0);
         b.op(Builtin::DepthwiseConv2d, {in, w}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (DEPTHWISE_CONV_2D): output channels 3 are not a multiple of 2"},
      {"depthwise weights",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 3, 3, 2}, 0.1F, 0);
         const int32_t w = b.weights({2, 1, 1, 2}, {0.01F}, 0, std::vector<int8_t>(4, 1));
         const int32_t out = b.int8({1, 3, 3, 2}, 0.1F, 0);
         b.op(Builtin::DepthwiseConv2d, {in, w}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (DEPTHWISE_CONV_2D): tensor 1 (\"t1\") is not [1, KH, KW, Cout]"},
      {"depth_multiplier",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 3, 3, 2}, 0.1F, 0);
         const int32_t w = b.weights({1, 1, 1, 4}, {0.01F}, 0, std::vector<int8_t>(4, 1));
         const int32_t out = b.int8({1, 3, 3, 4}, 0.1F, 0);
         tfl::Options o = conv_options(Padding::Valid, 1, 1, Activation::None);
         o.depth_multiplier = 3;
         b.op(Builtin::DepthwiseConv2d, {in, w}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (DEPTHWISE_CONV_2D): depth_multiplier 3 but the weights give 2"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
