#include "tools/writers/import/import_test_support.h"

// CONV_2D, and the context's checks of quantisation, ranks and constants
// on a convolution's tensors.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, Conv2dMatchesTflm) {
  const ConvCase cases[] = {
      {{1, 7, 5, 3}, 3, 3, 4, 2, 2, 1, 1, Padding::Same, Activation::Relu6, -7, -20, true, true, 1},
      // kws's shape of SAME: 9 rows, kernel 4, stride 2 pad 1 above and 2 below.
      {{1, 9, 6, 2}, 4, 3, 3, 2, 2, 1, 1, Padding::Same, Activation::Relu, 5, -128, false, true, 1},
      {{1, 8, 9, 2}, 3, 2, 3, 1, 2, 2, 1, Padding::Valid, Activation::None, -128, 17, true, false, 1},
      {{2, 6, 7, 4}, 5, 5, 2, 3, 3, 1, 1, Padding::Same, Activation::ReluN1To1, 3, 10, true, true, 1},
      {{1, 6, 6, 3}, 3, 3, 2, 1, 1, 2, 2, Padding::Same, Activation::Relu, 127, -3, true, true, 1},
      {{1, 5, 4, 4}, 1, 1, 4, 1, 1, 1, 1, Padding::Valid, Activation::None, 0, 0, true, true, 2},
      {{1, 4, 5, 6}, 3, 3, 6, 2, 1, 1, 1, Padding::Same, Activation::Relu6, -1, 100, false, false, 3},
  };
  Rng rng(101);
  for (const ConvCase& c : cases) {
    SCOPED_TRACE(describe(c));
    const int32_t cin = c.input[3] / c.groups;
    const ref::Padded ph = ref::compute_padding(c.padding, c.input[1], c.kh, c.stride_h, c.dilation_h);
    const ref::Padded pw = ref::compute_padding(c.padding, c.input[2], c.kw, c.stride_w, c.dilation_w);
    const std::vector<int32_t> fs{c.cout, c.kh, c.kw, cin}, os{c.input[0], ph.out, pw.out, c.cout};
    std::vector<float> scales;
    for (int32_t o = 0; o < c.cout; ++o) scales.push_back(0.004F + 0.003F * static_cast<float>(o));
    if (!c.per_channel) scales.resize(1);
    const float s_in = 0.06F, s_out = 0.05F;
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.input)), w = random_s8(rng, ref::count(fs));
    const std::vector<int32_t> bias = c.bias ? random_bias(rng, c.cout, 2000) : std::vector<int32_t>{};
    TfliteBuilder b;
    const int32_t in = b.int8(c.input, s_in, c.zp_in), wt = b.weights(fs, scales, 0, w);
    std::vector<int32_t> inputs{in, wt};
    if (c.bias) inputs.push_back(b.int32_constant({c.cout}, bias));
    const int32_t out = b.int8(os, s_out, c.zp_out);
    b.op(Builtin::Conv2d, inputs, {out},
         conv_options(c.padding, c.stride_h, c.stride_w, c.activation, c.dilation_h, c.dilation_w));
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
    std::vector<float> channel_scales;
    for (int32_t o = 0; o < c.cout; ++o) channel_scales.push_back(scales[c.per_channel ? static_cast<size_t>(o) : 0]);
    p.multipliers = ref::conv_multipliers(s_in, channel_scales, s_out);
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::conv(p, x, w, bias)));
  }
}

// A channel whose factor is below 2^-32 (TFLM flushes it to multiplier 0:
// the channel outputs its zero point) and two with shift -31, driven by
// biases near the int32 limits so that they output something else than the
// zero point.
TEST(TfliteImport, Conv2dKeepsFlushedChannelsAndShiftMinus31) {
  const float s_in = 0.5F, s_out = 0.25F;
  const std::vector<float> scales{1.0e-10F, 2.25e-10F, 2.25e-10F, 0.01F};
  const std::vector<ref::Multiplier> m = ref::conv_multipliers(s_in, scales, s_out);
  ASSERT_EQ(m[0].multiplier, 0);
  ASSERT_EQ(m[0].shift, 0);
  ASSERT_EQ(m[1].shift, -31);
  ASSERT_EQ(m[2].shift, -31);
  Rng rng(102);
  const std::vector<int32_t> is{1, 4, 4, 2}, fs{4, 3, 3, 2}, os{1, 4, 4, 4};
  const std::vector<int8_t> x = random_s8(rng, ref::count(is)), w = random_s8(rng, ref::count(fs));
  const std::vector<int32_t> bias{2100000000, 2100000000, -2100000000, 40};
  TfliteBuilder b;
  const int32_t in = b.int8(is, s_in, -5), wt = b.weights(fs, scales, 0, w), bt = b.int32_constant({4}, bias);
  const int32_t out = b.int8(os, s_out, 9);
  b.op(Builtin::Conv2d, {in, wt, bt}, {out}, conv_options(Padding::Same, 1, 1, Activation::None));
  ref::Conv p;
  p.input_shape = is;
  p.filter_shape = fs;
  p.output_shape = os;
  p.pad_h = p.pad_w = 1;
  p.input_offset = 5;
  p.output_offset = 9;
  p.multipliers = m;
  const std::vector<int8_t> want = ref::conv(p, x, w, bias);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  EXPECT_EQ(want[0], 9) << "the flushed channel gives its zero point";
  EXPECT_EQ(want[1], 10) << "shift -31 with a bias near 2^31 gives zero point + 1";
  EXPECT_EQ(want[2], 8);
}

TEST(TfliteImport, Conv2dOptionAndTypeRefusalsAreOneExactLine) {
  const std::string c0 = "m.tflite: operator 0 (CONV_2D): ";
  expect_refusals({
      {"TANH activation",
       [] { return conv_model([](TfliteBuilder&, tfl::Options& o) { o.activation = Activation::Tanh; }); },
       c0 + "fused activation TANH has no clamp form (only NONE, RELU, RELU6 and RELU_N1_TO_1 are imported)"},
      {"SIGN_BIT activation",
       [] { return conv_model([](TfliteBuilder&, tfl::Options& o) { o.activation = Activation::SignBit; }); },
       c0 + "fused activation SIGN_BIT has no clamp form (only NONE, RELU, RELU6 and RELU_N1_TO_1 are imported)"},
      {"non-constant weights",
       [] {
         return conv_model([](TfliteBuilder& b, tfl::Options&) {
           b.tensor(1).data.clear();
           b.tensor(1).buffer = 0;
         });
       },
       c0 + "tensor 1 (\"t1\") is not a constant (its bytes are not in the file)"},
      {"weight zero point",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(1).quantization.zero_points[1] = 3; }); },
       c0 + "tensor 1 (\"t1\"): weight zero point 3, expected 0"},
      {"per-channel scales on another dim",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(1).quantization.quantized_dimension = 1; }); },
       c0 + "tensor 1 (\"t1\"): 3 scales along dim 1, expected 1 or 3 along dim 0"},
      {"output size",
       [] { return conv_model([](TfliteBuilder&, tfl::Options& o) { o.padding = Padding::Same; }); },
       c0 + "output 2x2, but the options give 4x4"},
      {"stride 0",
       [] { return conv_model([](TfliteBuilder&, tfl::Options& o) { o.stride_w = 0; }); },
       c0 + "stride, dilation and filter sizes must be positive"},
      {"int16 activation",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(0).type = tfl::TensorType::Int16; }); },
       c0 + "tensor 0 (\"t0\") is int16, expected int8"},
      {"activation without quantisation",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(2).has_quantization = false; }); },
       c0 + "tensor 2 (\"t2\") has no per-tensor quantisation (one scale and one zero point)"},
  });
}

TEST(TfliteImport, Conv2dShapeScaleAndBiasRefusalsAreOneExactLine) {
  const std::string c0 = "m.tflite: operator 0 (CONV_2D): ";
  expect_refusals({
      {"input channels not whole groups",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4, 4, 3}, 0.1F, 0);
         const int32_t w = b.weights({2, 1, 1, 2}, {0.01F}, 0, std::vector<int8_t>(4, 1));
         const int32_t out = b.int8({1, 4, 4, 2}, 0.1F, 0);
         b.op(Builtin::Conv2d, {in, w}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       c0 + "input channels 3 are not a whole number of groups of 2"},
      {"factor above 2^30",
       [] {
         return conv_model([](TfliteBuilder& b, tfl::Options&) {
           b.tensor(0).quantization.scales[0] = 0.5F;
           b.tensor(1).quantization.scales = {0.25F, 0.25F, 0.25F};
           b.tensor(2).quantization.scales[0] = std::ldexp(1.0F, -34);
         });
       },
       c0 + "channel 0: factor 2147483648.000000 needs a left shift above 30"},
      {"zero point outside int8",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(0).quantization.zero_points[0] = 200; }); },
       c0 + "tensor 0 (\"t0\"): zero point 200 outside int8"},
      {"negative scale",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(2).quantization.scales[0] = -0.5F; }); },
       c0 + "tensor 2 (\"t2\"): scale -0.500000 is not positive"},
      {"rank",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(0).shape = {4, 4, 2}; }); },
       c0 + "tensor 0 (\"t0\") has rank 3, expected 4"},
      {"weights without quantisation",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(1).has_quantization = false; }); },
       c0 + "tensor 1 (\"t1\") has no quantisation"},
      {"weight scale 0",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(1).quantization.scales[2] = 0.0F; }); },
       c0 + "tensor 1 (\"t1\"): weight scale 0.000000 is not positive"},
      {"output channels",
       [] {
         return conv_model([](TfliteBuilder& b, tfl::Options&) {
           b.tensor(2).shape = {1, 2, 2, 4};
         });
       },
       c0 + "output channels or batch differ from the weights'"},
      {"bias count",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 1, 1, 2}, 0.1F, 0);
         const int32_t w = b.weights({3, 1, 1, 2}, {0.01F}, 0, std::vector<int8_t>(6, 1));
         const int32_t bias = b.int32_constant({2}, {1, 2}), out = b.int8({1, 1, 1, 3}, 0.1F, 0);
         b.op(Builtin::Conv2d, {in, w, bias}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       c0 + "tensor 2 (\"t2\") holds 2 biases, expected 3"},
      {"int8 bias",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 1, 1, 2}, 0.1F, 0);
         const int32_t w = b.weights({3, 1, 1, 2}, {0.01F}, 0, std::vector<int8_t>(6, 1));
         const int32_t bias = b.int8_constant({3}, 0.001F, 0, {1, 2, 3}), out = b.int8({1, 1, 1, 3}, 0.1F, 0);
         b.op(Builtin::Conv2d, {in, w, bias}, {out}, conv_options(Padding::Valid, 1, 1, Activation::None));
         return b.finish({in}, {out});
       },
       c0 + "tensor 2 (\"t2\") is int8, expected int32"},
      {"activation bound outside int32",
       [] {
         return conv_model([](TfliteBuilder& b, tfl::Options& o) {
           o.activation = Activation::Relu6;
           b.tensor(2).quantization.scales[0] = 1.0e-12F;
         });
       },
       c0 + "activation bound 6.000000 leaves int32 on the output grid"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
