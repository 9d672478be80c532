#include "tools/writers/import/import_test_support.h"

// FULLY_CONNECTED.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, FullyConnectedMatchesTflm) {
  struct Case {
    std::vector<int32_t> input;
    int32_t units;
    bool keep_num_dims;
    bool after_conv;  // the input is a 1x1 convolution's output (channels_last)
    Activation activation;
    bool bias;
  };
  const Case cases[] = {
      {{3, 8}, 5, false, false, Activation::None, true},
      {{1, 2, 2, 3}, 4, false, false, Activation::Relu, true},
      {{1, 2, 2, 3}, 4, false, true, Activation::Relu6, true},
      {{1, 2, 3, 4}, 6, true, true, Activation::ReluN1To1, false},
      {{2, 3, 16}, 7, true, false, Activation::None, true},
  };
  Rng rng(105);
  for (const Case& c : cases) {
    SCOPED_TRACE("input " + shape_text(c.input) + (c.after_conv ? " after a conv" : "") +
                 (c.keep_num_dims ? " keep_num_dims" : ""));
    const int32_t depth = c.keep_num_dims ? c.input.back() : static_cast<int32_t>(ref::count(c.input)) /
                                                                 (c.input.size() == 2 ? c.input[0] : 1);
    const auto batches = static_cast<int32_t>(ref::count(c.input)) / depth;
    std::vector<int32_t> os = c.input;
    if (c.keep_num_dims) {
      os.back() = c.units;
    } else {
      os = {batches, c.units};
    }
    const float s_x = 0.09F, s_w = 0.0071F, s_out = 0.11F;
    const int32_t zp_x = -13, zp_out = 6;
    TfliteBuilder b;
    std::vector<int8_t> x = random_s8(rng, ref::count(c.input));
    const std::vector<int8_t> w = random_s8(rng, static_cast<size_t>(c.units * depth));
    const std::vector<int32_t> bias = c.bias ? random_bias(rng, c.units, 5000) : std::vector<int32_t>{};
    int32_t model_in = b.int8(c.input, s_x, zp_x), fc_in = model_in;
    std::vector<int8_t> fc_x = x;
    if (c.after_conv) {
      // A 1x1 convolution with weight 1 and factor 1 copies its input
      // (channel c of pixel p stays channel c), so its output's bytes are
      // the input's; the FC then reads them flattened channel-major (one
      // image a row) or through its stored NHWC form.
      const int32_t cin = c.input[3];
      std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
      for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
      const int32_t wt = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
      fc_in = b.int8(c.input, s_x, zp_x);
      b.op(Builtin::Conv2d, {model_in, wt}, {fc_in}, conv_options(Padding::Valid, 1, 1, Activation::None));
    }
    const int32_t wt = b.weights({c.units, depth}, {s_w}, 0, w);
    std::vector<int32_t> inputs{fc_in, wt};
    if (c.bias) inputs.push_back(b.int32_constant({c.units}, bias));
    const int32_t out = b.int8(os, s_out, zp_out);
    tfl::Options o = testing::activation_options(c.activation);
    o.keep_num_dims = c.keep_num_dims;
    b.op(Builtin::FullyConnected, inputs, {out}, o);
    const std::vector<int8_t> want =
        ref::fully_connected(fc_x, batches, depth, w, c.units, bias, -zp_x, zp_out, ref::product_multiplier(s_x, s_w, s_out),
                             ref::activation_range(c.activation, s_out, zp_out));
    EXPECT_EQ(run_one(b.finish({model_in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

// Per-channel weights (TFLM's FullyConnectedPerChannel): a 1x1
// quantized_conv2d over the rows, one factor per unit.
TEST(TfliteImport, FullyConnectedPerChannelMatchesTflm) {
  struct Case {
    std::vector<int32_t> input, output;
    int32_t units;
    bool keep_num_dims;
    Activation activation;
    bool bias;
  };
  const Case cases[] = {
      {{3, 8}, {3, 5}, 5, false, Activation::None, true},
      {{1, 2, 2, 3}, {1, 4}, 4, false, Activation::Relu, true},
      {{2, 3, 16}, {2, 3, 7}, 7, true, Activation::Relu6, false},
      {{4, 33}, {4, 9}, 9, false, Activation::ReluN1To1, true},
  };
  Rng rng(107);
  for (const Case& c : cases) {
    SCOPED_TRACE("input " + shape_text(c.input) + " units " + std::to_string(c.units));
    const auto depth = c.keep_num_dims ? c.input.back() : static_cast<int32_t>(ref::count(c.input)) / c.output[0];
    const auto batches = static_cast<int32_t>(ref::count(c.input)) / depth;
    const float s_x = 0.09F, s_out = 0.11F;
    const int32_t zp_x = -13, zp_out = 6;
    std::vector<float> s_w(static_cast<size_t>(c.units));
    // Factors an octave apart and more, some far below one.
    for (size_t u = 0; u < s_w.size(); ++u) s_w[u] = 0.0003F * static_cast<float>(1 + 3 * u * u);
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.input));
    const std::vector<int8_t> w = random_s8(rng, static_cast<size_t>(c.units * depth));
    const std::vector<int32_t> bias = c.bias ? random_bias(rng, c.units, 20000) : std::vector<int32_t>{};
    TfliteBuilder b;
    const int32_t in = b.int8(c.input, s_x, zp_x);
    const int32_t wt = b.weights({c.units, depth}, s_w, 0, w);
    std::vector<int32_t> inputs{in, wt};
    if (c.bias) inputs.push_back(b.int32_constant({c.units}, bias));
    const int32_t out = b.int8(c.output, s_out, zp_out);
    tfl::Options o = testing::activation_options(c.activation);
    o.keep_num_dims = c.keep_num_dims;
    b.op(Builtin::FullyConnected, inputs, {out}, o);
    const std::vector<int8_t> want = ref::fully_connected_per_channel(
        x, batches, depth, w, c.units, bias, -zp_x, zp_out, ref::conv_multipliers(s_x, s_w, s_out),
        ref::activation_range(c.activation, s_out, zp_out));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

// A convolution's [1, H, W, C] output (H * W, C > 1) into FULLY_CONNECTED:
// flattened as a PyTorch program flattens it, through the contiguous
// [1, C, H, W] (one _to_dim_order_copy, the dim-order change stock ExecuTorch
// accepts, and a view_copy), the weights' columns reordered to (c, h, w) at
// import; TFLM's bytes.
TEST(TfliteImport, FullyConnectedAfterAConvolutionFlattensChannelMajor) {
  Rng rng(106);
  const std::vector<int32_t> shape{1, 3, 4, 5};
  const int32_t cin = 5, units = 3, depth = 60;
  const float s_x = 0.09F, s_w = 0.0071F, s_out = 0.11F;
  const int32_t zp_x = -13, zp_out = 6;
  const std::vector<int8_t> x = random_s8(rng, ref::count(shape));
  const std::vector<int8_t> w = random_s8(rng, static_cast<size_t>(units * depth));
  const std::vector<int32_t> bias = random_bias(rng, units, 5000);
  std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
  for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
  TfliteBuilder b;
  const int32_t in = b.int8(shape, s_x, zp_x), conv = b.int8(shape, s_x, zp_x);
  b.op(Builtin::Conv2d, {in, b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity)}, {conv},
       conv_options(Padding::Valid, 1, 1, Activation::None));
  const int32_t out = b.int8({1, units}, s_out, zp_out);
  b.op(Builtin::FullyConnected, {conv, b.weights({units, depth}, {s_w}, 0, w), b.int32_constant({units}, bias)}, {out},
       testing::activation_options(Activation::None));
  ImportedModel imported;
  const std::vector<Bytes> got = run_imported(b.finish({in}, {out}), {as_bytes(x)}, &imported);
  const std::vector<int8_t> want = ref::fully_connected(x, 1, depth, w, units, bias, -zp_x, zp_out,
                                                        ref::product_multiplier(s_x, s_w, s_out),
                                                        ref::activation_range(Activation::None, s_out, zp_out));
  EXPECT_EQ(got.at(0), as_bytes(want));
  std::vector<std::string> ops;
  for (const GraphOp& op : imported.graph.ops) ops.push_back(op.op);
  EXPECT_EQ(ops, (std::vector<std::string>{"cortex_m::quantized_conv2d", "dim_order_ops::_to_dim_order_copy",
                                           "aten::view_copy", "cortex_m::quantized_linear"}));
}

TEST(TfliteImport, FullyConnectedRefusalsAreOneExactLine) {
  expect_refusals({
      {"FULLY_CONNECTED hybrid",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F}, 0, std::vector<int8_t>(8, 1));
         const int32_t out = b.int8({1, 2}, 0.1F, 0);
         tfl::Options o;
         o.asymmetric_quantize_inputs = true;
         b.op(Builtin::FullyConnected, {in, w}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): asymmetric_quantize_inputs (a hybrid float model)"},
      {"FULLY_CONNECTED output",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 4}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F}, 0, std::vector<int8_t>(8, 1));
         const int32_t out = b.int8({1, 2}, 0.1F, 0);
         b.op(Builtin::FullyConnected, {in, w}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): output shape does not hold 2 rows of 2"},
      {"FULLY_CONNECTED bias count",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F}, 0, std::vector<int8_t>(8, 1));
         const int32_t bias = b.int32_constant({3}, {1, 2, 3}), out = b.int8({1, 2}, 0.1F, 0);
         b.op(Builtin::FullyConnected, {in, w, bias}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): tensor 2 (\"t2\") does not hold one bias per unit"},
      {"per-channel FULLY_CONNECTED, scales along the depth",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F, 0.02F, 0.03F, 0.04F}, 0, std::vector<int8_t>(8, 1));
         const int32_t out = b.int8({1, 2}, 0.1F, 0);
         b.op(Builtin::FullyConnected, {in, w}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: tensor 1 (\"t1\"): 4 scales along quantized_dimension 0 of shape [2,4], expected 2"},
      {"FULLY_CONNECTED weights_format",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F}, 0, std::vector<int8_t>(8, 1));
         const int32_t out = b.int8({1, 2}, 0.1F, 0);
         tfl::Options o;
         o.weights_format = 1;
         b.op(Builtin::FullyConnected, {in, w}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): weights_format 1 (only DEFAULT is imported)"},
      {"FULLY_CONNECTED input not rows",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 5}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F}, 0, std::vector<int8_t>(8, 1));
         const int32_t out = b.int8({1, 2}, 0.1F, 0);
         b.op(Builtin::FullyConnected, {in, w}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): input of 5 elements is not rows of 4"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
