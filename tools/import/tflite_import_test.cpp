#include "tools/import/tflite_import.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/registry.h"
#include "tests/support/rng.h"
#include "tests/support/tflite_cases.h"
#include "tests/support/tflm_reference.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/import/import_program.h"
#include "tools/common/process.h"
#include "tools/runner/host_session.h"
#include "tools/tflite/tflite_reader.h"
#include "tools/tflite/tflite_test_writer.h"

// Each operator `etns import` maps, on small synthetic models written with
// the test writer: the imported program, run on the host, must give TFLite
// Micro's bytes, computed here by tests/support/tflm_reference.h (TFLM's int8
// reference kernels and Prepare arithmetic, written from the public
// sources). Every refusal is one exact line.
namespace etns::tools {
namespace {

namespace tfl = tflite;
namespace ref = testing::tflm;
using testing::as_bytes;
using testing::conv_options;
using testing::pool_options;
using testing::random_s8;
using testing::Rng;
using testing::TfliteBuilder;
using tfl::Activation;
using tfl::Builtin;
using tfl::Padding;
using tfl::shape_text;

using Bytes = std::vector<uint8_t>;

// The model written, imported as `etns import` does and run once on the host.
std::vector<Bytes> run_imported(const tfl::Model& model, const std::vector<Bytes>& inputs,
                                ImportedModel* imported_out = nullptr) {
  const ImportedProgram program = import_program(tfl::write_tflite(model), "m.tflite");
  if (imported_out != nullptr) *imported_out = program.imported;
  const TemporaryDirectory dir("etns-import-test");
  const std::string path = dir.path() + "/m.pte";
  write_file_atomic(path, program.pte.data(), program.pte.size());
  HostSession session(path, &kernels::registry_arm());
  for (size_t i = 0; i < inputs.size(); ++i) session.set_input(i, inputs[i]);
  session.execute();
  std::vector<Bytes> outputs;
  for (size_t i = 0; i < session.method().output_count(); ++i) outputs.push_back(session.output_bytes(i));
  return outputs;
}

Bytes run_one(const tfl::Model& model, const std::vector<Bytes>& inputs) {
  const std::vector<Bytes> outputs = run_imported(model, inputs);
  EXPECT_EQ(outputs.size(), 1U);
  return outputs.empty() ? Bytes{} : outputs[0];
}

// The one line import_tflite throws for the model, or "imported".
std::string refusal(const tfl::Model& model) {
  try {
    import_tflite(tfl::read_tflite(tfl::write_tflite(model), "m.tflite"), "m.tflite");
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "imported";
}

std::vector<int32_t> random_bias(Rng& rng, int32_t n, int32_t magnitude) {
  std::vector<int32_t> b(static_cast<size_t>(n));
  for (auto& v : b) v = rng.uniform32(-magnitude, magnitude);
  return b;
}

// ---- The end-to-end set, in process ----

TEST(TfliteImport, EveryEndToEndCaseMatchesTflmOnTheHost) {
  for (const testing::ImportCase& c : testing::tflite_import_cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(run_imported(c.model, c.inputs), c.outputs);
  }
}

// ---- Convolutions ----

struct ConvCase {
  std::vector<int32_t> input;  // NHWC
  int32_t kh, kw, cout;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  Padding padding;
  Activation activation;
  int32_t zp_in, zp_out;
  bool per_channel, bias;
  int32_t groups;
};

std::string describe(const ConvCase& c) {
  return "input " + shape_text(c.input) + " kernel " + std::to_string(c.kh) + "x" + std::to_string(c.kw) + " stride " +
         std::to_string(c.stride_h) + "x" + std::to_string(c.stride_w) + " dilation " + std::to_string(c.dilation_h) +
         "x" + std::to_string(c.dilation_w) + (c.padding == Padding::Same ? " SAME " : " VALID ") +
         tfl::to_string(c.activation);
}

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

TEST(TfliteImport, DepthwiseConv2dMatchesTflm) {
  const ConvCase cases[] = {
      // cout is input channels x multiplier; groups unused.
      {{1, 7, 5, 3}, 3, 3, 3, 2, 2, 1, 1, Padding::Same, Activation::Relu6, -7, -20, true, true, 1},
      {{1, 6, 7, 2}, 2, 2, 4, 1, 1, 2, 2, Padding::Valid, Activation::None, 3, 5, true, true, 1},
      {{2, 5, 5, 4}, 3, 3, 8, 1, 1, 1, 1, Padding::Same, Activation::Relu, -128, -100, false, false, 1},
      {{1, 9, 4, 2}, 4, 2, 6, 2, 3, 1, 1, Padding::Same, Activation::ReluN1To1, 20, 0, true, true, 1},
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

// ---- FULLY_CONNECTED ----

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
      // the input's; the FC then reads them through a permute copy.
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

// ---- Pools ----

TEST(TfliteImport, PoolsMatchTflm) {
  struct Case {
    std::vector<int32_t> input;
    int32_t fh, fw, sh, sw;
    Padding padding;
    Activation activation;
    float scale;
    int32_t zp;
  };
  const Case cases[] = {
      {{1, 7, 6, 5}, 3, 3, 2, 2, Padding::Same, Activation::None, 0.1F, -9},
      {{1, 7, 6, 5}, 3, 3, 2, 2, Padding::Same, Activation::Relu, 0.1F, -9},
      {{2, 8, 5, 3}, 2, 3, 2, 1, Padding::Valid, Activation::Relu6, 0.05F, -100},
      {{1, 5, 9, 2}, 4, 2, 3, 3, Padding::Same, Activation::ReluN1To1, 0.02F, 15},
      {{1, 6, 6, 17}, 6, 6, 1, 1, Padding::Valid, Activation::None, 0.3F, 127},
      {{1, 10, 3, 4}, 5, 1, 4, 1, Padding::Same, Activation::Relu, 0.2F, 40},
  };
  Rng rng(106);
  for (const Case& c : cases) {
    for (const bool max : {false, true}) {
      SCOPED_TRACE(std::string(max ? "MAX_POOL_2D " : "AVERAGE_POOL_2D ") + shape_text(c.input) + " filter " +
                   std::to_string(c.fh) + "x" + std::to_string(c.fw) + " stride " + std::to_string(c.sh) + "x" +
                   std::to_string(c.sw) + " " + tfl::to_string(c.activation));
      const ref::Padded ph = ref::compute_padding(c.padding, c.input[1], c.fh, c.sh, 1);
      const ref::Padded pw = ref::compute_padding(c.padding, c.input[2], c.fw, c.sw, 1);
      const std::vector<int32_t> os{c.input[0], ph.out, pw.out, c.input[3]};
      const std::vector<int8_t> x = random_s8(rng, ref::count(c.input));
      TfliteBuilder b;
      const int32_t in = b.int8(c.input, c.scale, c.zp), out = b.int8(os, c.scale, c.zp);
      b.op(max ? Builtin::MaxPool2d : Builtin::AveragePool2d, {in}, {out},
           pool_options(c.padding, c.fh, c.fw, c.sh, c.sw, c.activation));
      ref::Pool p;
      p.input_shape = c.input;
      p.output_shape = os;
      p.filter_h = c.fh;
      p.filter_w = c.fw;
      p.stride_h = c.sh;
      p.stride_w = c.sw;
      p.pad_h = ph.pad;
      p.pad_w = pw.pad;
      p.range = ref::activation_range(c.activation, c.scale, c.zp);
      EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::pool(p, max, x)));
    }
  }
}

// TFLM accepts output scales within 1e-6 of the input's (the codes are
// copied); the clamp uses the output's.
TEST(TfliteImport, PoolAcceptsTflmsScaleTolerance) {
  Rng rng(107);
  const std::vector<int32_t> is{1, 4, 4, 2}, os{1, 2, 2, 2};
  const std::vector<int8_t> x = random_s8(rng, ref::count(is));
  TfliteBuilder b;
  const int32_t in = b.int8(is, 0.01F, 3), out = b.int8(os, 0.0100005F, 3);
  b.op(Builtin::AveragePool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::Relu));
  ref::Pool p;
  p.input_shape = is;
  p.output_shape = os;
  p.filter_h = p.filter_w = p.stride_h = p.stride_w = 2;
  p.range = ref::activation_range(Activation::Relu, 0.0100005F, 3);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::pool(p, false, x)));
}

// ---- ADD, MUL ----

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

// ---- SOFTMAX ----

TEST(TfliteImport, SoftmaxMatchesTflm) {
  struct Case {
    std::vector<int32_t> shape;
    float beta, scale;
    int32_t zp;
  };
  const Case cases[] = {
      {{3, 10}, 1.0F, 0.12F, 7},       {{1, 2, 3, 5}, 0.5F, 0.5F, -3}, {{4, 12}, 1.0F, 0.0146F, -128},
      {{2, 1, 1, 16}, 2.0F, 0.25F, 0}, {{1, 33}, 1.0F, 0.08F, 50},     {{5, 3}, 1.0F, 2.0F, 1},
  };
  Rng rng(110);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " beta " + std::to_string(c.beta) + " scale " + std::to_string(c.scale));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, c.scale, c.zp), out = b.int8(c.shape, 1.0F / 256, -128);
    tfl::Options o;
    o.beta = c.beta;
    b.op(Builtin::Softmax, {in}, {out}, o);
    const std::vector<int8_t> want =
        ref::softmax(ref::softmax_params(c.beta, c.scale), x, static_cast<size_t>(c.shape.back()));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

// ---- MINIMUM, MAXIMUM ----

TEST(TfliteImport, MinimumAndMaximumMatchTflmWithBroadcasting) {
  struct Case {
    std::vector<int32_t> a, b;
    bool b_constant;
  };
  const Case cases[] = {
      {{1, 4, 5, 3}, {1, 4, 5, 3}, false},
      {{2, 6}, {1}, true},
      {{1}, {3, 2, 2}, true},
      {{1, 4, 1, 3}, {1, 1, 5, 3}, false},
      {{3, 1}, {1, 4}, false},
      {{5, 4}, {4}, true},
      {{2, 3, 4}, {3, 1}, false},
      // cortex_m::minimum refuses this walk as stored (CMSIS-NN skips rows):
      // the importer merges dims into [3, 1] against [3, 8].
      {{1, 3, 1, 1}, {1, 3, 4, 2}, false},
      {{1, 3, 4, 2}, {3, 1, 1}, true},
      // Rank 5 with a leading dim other than 1: merged into [6, 1] vs [6, 4].
      {{2, 3, 1, 1, 1}, {2, 3, 4, 1, 1}, false},
      {{2, 2, 1, 3, 1}, {1, 1, 1, 3, 4}, false},
  };
  Rng rng(111);
  for (const Case& c : cases) {
    for (const bool maximum : {false, true}) {
      SCOPED_TRACE(std::string(maximum ? "MAXIMUM " : "MINIMUM ") + shape_text(c.a) + " " + shape_text(c.b));
      const size_t rank = std::max(c.a.size(), c.b.size());
      std::vector<int32_t> so(rank);
      for (size_t k = 0; k < rank; ++k) {
        const int32_t da = k + c.a.size() < rank ? 1 : c.a[k + c.a.size() - rank];
        const int32_t db = k + c.b.size() < rank ? 1 : c.b[k + c.b.size() - rank];
        so[k] = da == 1 ? db : da;
      }
      const std::vector<int8_t> x = random_s8(rng, ref::count(c.a)), y = random_s8(rng, ref::count(c.b));
      TfliteBuilder b;
      // Different grids on purpose: TFLM compares the codes.
      const int32_t ta = b.int8(c.a, 0.1F, 3);
      const int32_t tb = c.b_constant ? b.int8_constant(c.b, 0.2F, -1, y) : b.int8(c.b, 0.2F, -1);
      const int32_t out = b.int8(so, 0.3F, 0);
      b.op(maximum ? Builtin::Maximum : Builtin::Minimum, {ta, tb}, {out});
      std::vector<Bytes> inputs{as_bytes(x)};
      if (!c.b_constant) inputs.push_back(as_bytes(y));
      const tfl::Model model = b.finish(c.b_constant ? std::vector<int32_t>{ta} : std::vector<int32_t>{ta, tb}, {out});
      EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(ref::min_max(maximum, x, c.a, y, c.b, so))});
    }
  }
}

// ---- PAD, PADV2 ----

TEST(TfliteImport, PadAndPadV2MatchTflmOnRanks1To4) {
  struct Case {
    std::vector<int32_t> shape, before, after;
    bool v2, after_conv;
  };
  const Case cases[] = {
      {{5}, {2}, {3}, false, false},
      {{6}, {0}, {1}, true, false},
      {{3, 4}, {1, 0}, {2, 3}, false, false},
      {{2, 3, 4}, {0, 1, 2}, {1, 0, 1}, true, false},
      {{1, 2, 3, 2}, {0, 1, 0, 1}, {0, 2, 1, 0}, false, false},
      {{2, 3, 2, 3}, {1, 0, 2, 0}, {0, 1, 0, 2}, true, false},
      // A convolution's channels_last output, its channels padded too.
      {{1, 3, 4, 3}, {0, 1, 1, 2}, {0, 1, 0, 1}, false, true},
      {{1, 3, 4, 3}, {0, 0, 2, 0}, {0, 1, 0, 0}, true, true},
  };
  Rng rng(112);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.v2 ? "PADV2 " : "PAD ") + shape_text(c.shape) + " before " + shape_text(c.before) +
                 " after " + shape_text(c.after) + (c.after_conv ? " after a conv" : ""));
    std::vector<int32_t> pads, os;
    for (size_t k = 0; k < c.shape.size(); ++k) {
      pads.push_back(c.before[k]);
      pads.push_back(c.after[k]);
      os.push_back(c.before[k] + c.shape[k] + c.after[k]);
    }
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    const float scale = 0.3F;
    const int32_t zp = -9;
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, scale, zp);
    int32_t source = in;
    if (c.after_conv) {
      const int32_t cin = c.shape[3];
      std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
      for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
      const int32_t w = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
      source = b.int8(c.shape, scale, zp);
      b.op(Builtin::Conv2d, {in, w}, {source}, conv_options(Padding::Valid, 1, 1, Activation::None));
    }
    const int32_t pt = b.int32_constant({static_cast<int32_t>(c.shape.size()), 2}, pads);
    // PAD pads with the output zero point; here the output grid differs from
    // the input's on purpose (TFLM copies the codes).
    const int32_t out = b.int8(os, c.v2 ? scale : 0.5F, c.v2 ? zp : 21);
    int8_t value = 21;
    if (c.v2) {
      value = -77;
      const int32_t vt = b.int8_constant({}, scale, zp, {value});
      b.op(Builtin::PadV2, {source, pt, vt}, {out});
    } else {
      b.op(Builtin::Pad, {source, pt}, {out});
    }
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::pad(x, c.shape, c.before, c.after, value)));
  }
}

// ---- TRANSPOSE, RESHAPE, SQUEEZE ----

TEST(TfliteImport, TransposeMatchesTflmOnRanks1To4) {
  struct Case {
    std::vector<int32_t> shape, perm;
  };
  const Case cases[] = {
      {{7}, {0}},           {{3, 5}, {1, 0}},           {{2, 3, 4}, {2, 0, 1}},       {{2, 3, 4}, {0, 2, 1}},
      {{4, 1, 3}, {1, 2, 0}}, {{2, 3, 4, 5}, {0, 3, 1, 2}}, {{2, 3, 4, 5}, {3, 2, 1, 0}}, {{1, 2, 1, 3}, {2, 3, 0, 1}},
  };
  Rng rng(113);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " perm " + shape_text(c.perm));
    std::vector<int32_t> os;
    for (const int32_t p : c.perm) os.push_back(c.shape[static_cast<size_t>(p)]);
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.2F, 1);
    const int32_t perm = b.int32_constant({static_cast<int32_t>(c.perm.size())}, c.perm), out = b.int8(os, 0.2F, 1);
    b.op(Builtin::Transpose, {in, perm}, {out});
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::transpose(x, c.shape, c.perm)));
  }
}

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

// ---- QUANTIZE, DEQUANTIZE at the model's edges ----

// Float inputs whose x / s lies at least 0.1 from a half: there TFLM's
// round(x / s) (float division, halves away from zero) and quantize's
// x * (1 / s) rounded to even agree (docs/numerics.md#quantize; exact ties
// and values within an ulp or so of one would differ).
std::vector<float> float_inputs(Rng& rng, size_t n, float scale, int32_t zero_point) {
  std::vector<float> v;
  while (v.size() < n) {
    const double q = static_cast<double>(rng.uniform(-1400, 1400)) / 10.0 - zero_point;
    const double fraction = q - std::floor(q);
    if (std::fabs(fraction - 0.5) < 0.1) continue;
    v.push_back(static_cast<float>(q * static_cast<double>(scale)));
  }
  return v;
}

TEST(TfliteImport, QuantizeAndDequantizeAtTheModelEdgesMatchTflm) {
  Rng rng(115);
  // float [1, 5, 4, 3] -> QUANTIZE -> CONV_2D -> DEQUANTIZE -> float (the
  // dequantize reads the convolution's channels_last output).
  const std::vector<int32_t> is{1, 5, 4, 3}, fs{2, 3, 3, 3}, os{1, 3, 2, 2};
  const float s_q = 0.04F, s_out = 0.3F;
  const int32_t zp_q = -7, zp_out = 12;
  const std::vector<float> x = float_inputs(rng, ref::count(is), s_q, zp_q);
  const std::vector<int8_t> w = random_s8(rng, ref::count(fs));
  const std::vector<float> ws{0.01F, 0.02F};
  TfliteBuilder b;
  const int32_t in = b.float32(is), q = b.int8(is, s_q, zp_q), wt = b.weights(fs, ws, 0, w);
  const int32_t c = b.int8(os, s_out, zp_out), out = b.float32(os);
  b.op(Builtin::Quantize, {in}, {q});
  b.op(Builtin::Conv2d, {q, wt}, {c}, conv_options(Padding::Valid, 1, 1, Activation::None));
  b.op(Builtin::Dequantize, {c}, {out});
  const std::vector<int8_t> quantized = ref::quantize(x, s_q, zp_q);
  ref::Conv p;
  p.input_shape = is;
  p.filter_shape = fs;
  p.output_shape = os;
  p.input_offset = -zp_q;
  p.output_offset = zp_out;
  p.multipliers = ref::conv_multipliers(s_q, ws, s_out);
  const std::vector<float> want = ref::dequantize(ref::conv(p, quantized, w, {}), s_out, zp_out);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));

  // Clamping at both ends, a 1-D tensor, zero point -128.
  std::vector<float> y = float_inputs(rng, 40, 0.01F, -128);
  y.push_back(100.0F);
  y.push_back(-100.0F);
  TfliteBuilder b2;
  const int32_t in2 = b2.float32({42}), q2 = b2.int8({42}, 0.01F, -128), out2 = b2.float32({42});
  b2.op(Builtin::Quantize, {in2}, {q2});
  b2.op(Builtin::Dequantize, {q2}, {out2});
  EXPECT_EQ(run_one(b2.finish({in2}, {out2}), {as_bytes(y)}),
            as_bytes(ref::dequantize(ref::quantize(y, 0.01F, -128), 0.01F, -128)));
}

// ---- BATCH_MATMUL ----

TEST(TfliteImport, BatchMatmulMatchesTflm) {
  struct Case {
    std::vector<int32_t> lhs, rhs;
    bool adj_x, adj_y, rhs_constant;
  };
  const Case cases[] = {
      {{2, 3, 5}, {2, 5, 4}, false, false, false}, {{2, 5, 3}, {2, 5, 4}, true, false, false},
      {{2, 3, 5}, {2, 4, 5}, false, true, false},  {{2, 5, 3}, {2, 4, 5}, true, true, false},
      {{1, 4, 6}, {1, 6, 3}, false, false, true},  {{3, 2, 7}, {3, 5, 7}, false, true, true},
      {{2, 6, 2}, {2, 6, 3}, true, false, true},   {{3, 4}, {4, 5}, false, false, false},
      {{4, 3}, {5, 4}, true, true, true},          {{2, 2, 3, 4}, {2, 2, 4, 5}, false, false, false},
      // A right operand without batch dims: the left one's fold into rows.
      {{2, 3, 3, 4}, {4, 2}, false, false, true},  {{2, 4, 3}, {1, 4, 5}, true, false, false},
      {{1, 2, 1, 3, 4}, {2, 4}, false, true, true},
  };
  Rng rng(116);
  // Scales whose product differs between float32 and double (TFLM's
  // GetQuantizedConvolutionMultipler rounds it to float32 first).
  const float s_l = 0.0802361593F, s_r = 0.00838575512F, s_out = 0.14469251F;
  ASSERT_NE(ref::product_multiplier(s_l, s_r, s_out).multiplier, ref::mul_multiplier(s_l, s_r, s_out).multiplier);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.lhs) + (c.adj_x ? "^T" : "") + " x " + shape_text(c.rhs) + (c.adj_y ? "^T" : "") +
                 (c.rhs_constant ? " constant" : ""));
    const size_t rl = c.lhs.size(), rr = c.rhs.size();
    const std::vector<int32_t> bl(c.lhs.begin(), c.lhs.end() - 2), br(c.rhs.begin(), c.rhs.end() - 2);
    std::vector<int32_t> os(std::max(bl.size(), br.size()));
    for (size_t k = 0; k < os.size(); ++k) {
      const int32_t a = k + bl.size() < os.size() ? 1 : bl[k + bl.size() - os.size()];
      const int32_t d = k + br.size() < os.size() ? 1 : br[k + br.size() - os.size()];
      os[k] = a == 1 ? d : a;
    }
    os.push_back(c.adj_x ? c.lhs[rl - 1] : c.lhs[rl - 2]);
    os.push_back(c.adj_y ? c.rhs[rr - 2] : c.rhs[rr - 1]);
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.lhs)), y = random_s8(rng, ref::count(c.rhs));
    const int32_t zp_l = 5, zp_r = c.rhs_constant ? -3 : 7, zp_out = -11;
    TfliteBuilder b;
    const int32_t l = b.int8(c.lhs, s_l, zp_l);
    const int32_t r = c.rhs_constant ? b.int8_constant(c.rhs, s_r, zp_r, y) : b.int8(c.rhs, s_r, zp_r);
    const int32_t out = b.int8(os, s_out, zp_out);
    tfl::Options o;
    o.adj_x = c.adj_x;
    o.adj_y = c.adj_y;
    b.op(Builtin::BatchMatmul, {l, r}, {out}, o);
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.rhs_constant) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.rhs_constant ? std::vector<int32_t>{l} : std::vector<int32_t>{l, r}, {out});
    ImportedModel imported;
    const std::vector<int8_t> want = ref::batch_matmul(x, c.lhs, zp_l, y, c.rhs, zp_r, c.adj_x, c.adj_y, zp_out,
                                                       ref::product_multiplier(s_l, s_r, s_out));
    EXPECT_EQ(run_imported(model, inputs, &imported), std::vector<Bytes>{as_bytes(want)});
    for (const GraphOp& op : imported.graph.ops) {
      if (op.op != "cortex_m::quantized_batch_matmul") continue;
      EXPECT_EQ(op.arg(cortex_m::kBatchMatmulContract, "output_multiplier").int_value,
                ref::product_multiplier(s_l, s_r, s_out).multiplier);
    }
  }
}

// ---- Models with several inputs and outputs ----

TEST(TfliteImport, InputsAndOutputsKeepTheModelsOrder) {
  Rng rng(117);
  const std::vector<int32_t> s{1, 2, 3, 4};
  const std::vector<int8_t> x = random_s8(rng, 24), y = random_s8(rng, 24);
  TfliteBuilder b;
  const int32_t a = b.int8(s, 0.1F, 0), c = b.int8(s, 0.1F, 0);
  const int32_t lo = b.int8(s, 0.1F, 0), hi = b.int8(s, 0.1F, 0);
  b.op(Builtin::Minimum, {a, c}, {lo});
  b.op(Builtin::Maximum, {a, c}, {hi});
  // The model lists its inputs and outputs in the other order than they are
  // made: the method follows the model.
  const tfl::Model model = b.finish({c, a}, {hi, lo});
  EXPECT_EQ(run_imported(model, {as_bytes(y), as_bytes(x)}),
            (std::vector<Bytes>{as_bytes(ref::min_max(true, x, s, y, s, s)), as_bytes(ref::min_max(false, x, s, y, s, s))}));
}

// ---- Refusals: one line each ----

struct Refusal {
  std::string name;
  std::function<tfl::Model()> model;
  std::string line;
};

// A CONV_2D model: input t0 [1, 4, 4, 2], weights t1 [3, 3, 3, 2] per
// channel, output t2 [1, 2, 2, 3] (VALID, stride 1).
tfl::Model conv_model(const std::function<void(TfliteBuilder&, tfl::Options&)>& edit = nullptr) {
  TfliteBuilder b;
  const int32_t in = b.int8({1, 4, 4, 2}, 0.1F, 0);
  const int32_t w = b.weights({3, 3, 3, 2}, {0.01F, 0.02F, 0.03F}, 0, std::vector<int8_t>(54, 1));
  const int32_t out = b.int8({1, 2, 2, 3}, 0.1F, 0);
  tfl::Options o = conv_options(Padding::Valid, 1, 1, Activation::None);
  if (edit) edit(b, o);
  b.op(Builtin::Conv2d, {in, w}, {out}, o);
  return b.finish({in}, {out});
}

// A one-operator model on int8 tensors of the given shapes (inputs first,
// then the output) and the given constant tensors appended as inputs.
tfl::Model one_op(Builtin builtin, const std::vector<std::vector<int32_t>>& shapes, tfl::Options options = {},
                  const std::function<void(TfliteBuilder&, std::vector<int32_t>&)>& constants = nullptr) {
  TfliteBuilder b;
  std::vector<int32_t> ins;
  for (size_t i = 0; i + 1 < shapes.size(); ++i) ins.push_back(b.int8(shapes[i], 0.1F, 0));
  const int32_t out = b.int8(shapes.back(), 0.1F, 0);
  std::vector<int32_t> op_inputs = ins;
  if (constants) constants(b, op_inputs);
  b.op(builtin, op_inputs, {out}, options);
  return b.finish(ins, {out});
}

TEST(TfliteImport, EachRefusalIsOneExactLine) {
  const std::string c0 = "m.tflite: operator 0 (CONV_2D): ";
  const std::vector<Refusal> refusals = {
      {"unsupported operator",
       [] { return one_op(Builtin::Sub, {{4}, {4}, {4}}); },
       "m.tflite: operator 0 (SUB): no cortex_m:: operator computes it like TFLite Micro"},
      {"custom operator",
       [] {
         tfl::Model m = one_op(Builtin::Sub, {{4}, {4}});
         m.operators[0].builtin = static_cast<int32_t>(Builtin::Custom);
         m.operators[0].custom_code = "MyOp";
         m.operators[0].builtin_options_type = 0;
         m.operators[0].options = {};
         return m;
       },
       "m.tflite: operator 0 (CUSTOM): custom operator \"MyOp\" has no cortex_m:: equivalent"},
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
      {"FULLY_CONNECTED kernel sum",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, -128);
         const int32_t w = b.weights({2, 4}, {0.01F}, 0, std::vector<int8_t>(8, 127));
         const int32_t bias = b.int32_constant({2}, {2147483000, 0}), out = b.int8({1, 2}, 0.1F, 0);
         b.op(Builtin::FullyConnected, {in, w, bias}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): unit 0: bias + input offset x weight sum leaves int32"},
      {"pool channels",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 2}, 0.1F, 0), out = b.int8({1, 1, 1, 1}, 0.1F, 0);
         b.op(Builtin::MaxPool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (MAX_POOL_2D): batch or channels change"},
      {"softmax shapes",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0), out = b.int8({4}, 1.0F / 256, -128);
         tfl::Options o;
         o.beta = 1.0F;
         b.op(Builtin::Softmax, {in}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (SOFTMAX): input and output shapes differ"},
      {"PAD paddings count",
       [] {
         return one_op(Builtin::Pad, {{4}, {5}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({3}, {0, 1, 0}));
         });
       },
       "m.tflite: operator 0 (PAD): tensor 2 (\"t2\") holds 3 values, expected 2"},
      {"PADV2 value count",
       [] {
         return one_op(Builtin::PadV2, {{4}, {6}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {1, 1}));
           in.push_back(b.int8_constant({2}, 0.1F, 0, {5, 6}));
         });
       },
       "m.tflite: operator 0 (PADV2): tensor 3 (\"t3\") is not one value"},
      {"uint8 tensors",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 3}, 0.1F, 0), out = b.int8({6}, 0.1F, 0);
         b.tensor(in).type = tfl::TensorType::UInt8;
         b.tensor(out).type = tfl::TensorType::UInt8;
         b.op(Builtin::Reshape, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESHAPE): tensor 0 (\"t0\") is uint8: only int8, int32 and float32 tensors are imported"},
      {"BATCH_MATMUL empty",
       [] { return one_op(Builtin::BatchMatmul, {{2, 0, 4}, {2, 4, 6}, {2, 0, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): tensor 0 (\"t0\"), input 0, has no elements (shape [2,0,4])"},
      {"convolution input without channels",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(0).shape = {1, 4, 4, 0}; }); },
       c0 + "tensor 0 (\"t0\"), input 0, has no elements (shape [1,4,4,0])"},
      {"empty output",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 3}, 0.1F, 0), out = b.int8({6, 0}, 0.1F, 0);
         b.op(Builtin::Reshape, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESHAPE): tensor 1 (\"t1\"), the output, has no elements (shape [6,0])"},
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
      {"per-channel FULLY_CONNECTED",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0);
         const int32_t w = b.weights({2, 4}, {0.01F, 0.02F}, 0, std::vector<int8_t>(8, 1));
         const int32_t out = b.int8({1, 2}, 0.1F, 0);
         b.op(Builtin::FullyConnected, {in, w}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (FULLY_CONNECTED): tensor 1 (\"t1\") is quantised per channel: quantized_linear applies "
       "one multiplier"},
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
      {"broadcasting ADD",
       [] { return one_op(Builtin::Add, {{2, 3}, {3}, {2, 3}}); },
       "m.tflite: operator 0 (ADD): input shapes differ (broadcasting ADD is not imported)"},
      {"broadcasting MUL",
       [] { return one_op(Builtin::Mul, {{2, 3}, {1, 3}, {2, 3}}); },
       "m.tflite: operator 0 (MUL): input shapes differ (broadcasting MUL is not imported)"},
      {"softmax output quantisation",
       [] {
         tfl::Options o;
         o.beta = 1.0F;
         return one_op(Builtin::Softmax, {{1, 4}, {1, 4}}, o);
       },
       "m.tflite: operator 0 (SOFTMAX): output quantisation must be scale 1/256, zero point -128 (TFLite Micro's int8 "
       "softmax)"},
      {"softmax beta too small",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 1.0e-9F, 0), out = b.int8({1, 4}, 1.0F / 256, -128);
         tfl::Options o;
         o.beta = 1.0F;
         b.op(Builtin::Softmax, {in}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (SOFTMAX): softmax beta * input scale * 2^26 is below 1 (TFLM needs a left shift)"},
      {"pool zero points",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 1, 1, 1}, 0.1F, 1);
         b.op(Builtin::MaxPool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (MAX_POOL_2D): input and output quantisation differ (TFLite Micro's pool needs equal zero "
       "points and scales within 1e-6)"},
      {"pool scales beyond 1e-6",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 1, 1, 1}, 0.100002F, 0);
         b.op(Builtin::AveragePool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (AVERAGE_POOL_2D): input and output quantisation differ (TFLite Micro's pool needs equal "
       "zero points and scales within 1e-6)"},
      {"PAD rank 5",
       [] {
         return one_op(Builtin::Pad, {{1, 1, 1, 1, 2}, {1, 1, 1, 1, 2}}, {},
                       [](TfliteBuilder& b, std::vector<int32_t>& in) {
                         in.push_back(b.int32_constant({5, 2}, std::vector<int32_t>(10, 0)));
                       });
       },
       "m.tflite: operator 0 (PAD): rank 5 (1 to 4 are imported)"},
      {"PAD negative",
       [] {
         return one_op(Builtin::Pad, {{4}, {3}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {0, -1}));
         });
       },
       "m.tflite: operator 0 (PAD): negative padding"},
      {"PAD output size",
       [] {
         return one_op(Builtin::Pad, {{4}, {5}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {1, 1}));
         });
       },
       "m.tflite: operator 0 (PAD): output size is not the padded input's"},
      {"PAD paddings not constant",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({4}, 0.1F, 0), out = b.int8({6}, 0.1F, 0), pads = b.int32_constant({1, 2}, {1, 1});
         b.tensor(pads).data.clear();
         b.tensor(pads).buffer = 0;
         b.op(Builtin::Pad, {in, pads}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (PAD): tensor 2 (\"t2\") is not a constant (its bytes are not in the file)"},
      {"PADV2 value grid",
       [] {
         return one_op(Builtin::PadV2, {{4}, {6}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {1, 1}));
           in.push_back(b.int8_constant({}, 0.2F, 0, {5}));
         });
       },
       "m.tflite: operator 0 (PADV2): tensor 3 (\"t3\") is not quantised as the output (TFLite Micro requires it)"},
      {"TRANSPOSE perm",
       [] {
         return one_op(Builtin::Transpose, {{2, 3}, {3, 2}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({2}, {-1, 0}));
         });
       },
       "m.tflite: operator 0 (TRANSPOSE): tensor 2 (\"t2\") is not a permutation of 0 to 1"},
      {"TRANSPOSE output",
       [] {
         return one_op(Builtin::Transpose, {{2, 3}, {2, 3}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({2}, {1, 0}));
         });
       },
       "m.tflite: operator 0 (TRANSPOSE): output shape is not the input's permuted"},
      {"TRANSPOSE rank 5",
       [] {
         return one_op(Builtin::Transpose, {{1, 1, 1, 2, 3}, {1, 1, 1, 3, 2}}, {},
                       [](TfliteBuilder& b, std::vector<int32_t>& in) {
                         in.push_back(b.int32_constant({5}, {0, 1, 2, 4, 3}));
                       });
       },
       "m.tflite: operator 0 (TRANSPOSE): rank 5 (1 to 4 are imported)"},
      {"MINIMUM shapes",
       [] { return one_op(Builtin::Minimum, {{2, 3}, {2}, {2, 3}}); },
       "m.tflite: operator 0 (MINIMUM): input shapes do not broadcast"},
      {"MAXIMUM output",
       [] { return one_op(Builtin::Maximum, {{2, 3}, {3}, {3, 3}}); },
       "m.tflite: operator 0 (MAXIMUM): output shape is not the inputs' broadcast"},
      {"MAXIMUM over five alternating dims",
       [] { return one_op(Builtin::Maximum, {{2, 1, 2, 1, 2}, {2, 3, 2, 3, 2}, {2, 3, 2, 3, 2}}); },
       "m.tflite: operator 0 (MAXIMUM): the broadcast alternates over 5 dims (4 are imported)"},
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
      {"QUANTIZE int8 to int8",
       [] { return one_op(Builtin::Quantize, {{4}, {4}}); },
       "m.tflite: operator 0 (QUANTIZE): requantises int8 (only float32 -> int8 is imported)"},
      {"DEQUANTIZE to int8",
       [] { return one_op(Builtin::Dequantize, {{4}, {4}}); },
       "m.tflite: operator 0 (DEQUANTIZE): output is int8, expected float32"},
      {"BATCH_MATMUL depths",
       [] { return one_op(Builtin::BatchMatmul, {{2, 3, 4}, {2, 5, 6}, {2, 3, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): depths differ: 4 and 5"},
      {"BATCH_MATMUL batch broadcast",
       [] { return one_op(Builtin::BatchMatmul, {{1, 3, 4}, {2, 4, 6}, {2, 3, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): batch dims broadcast (equal batch dims, or a right operand without batch "
       "dims, are imported)"},
      {"BATCH_MATMUL output",
       [] { return one_op(Builtin::BatchMatmul, {{2, 3, 4}, {2, 4, 6}, {2, 6, 3}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): output shape is not the product's"},
      {"BATCH_MATMUL rank 6",
       [] { return one_op(Builtin::BatchMatmul, {{1, 1, 1, 1, 3, 4}, {4, 6}, {1, 1, 1, 1, 3, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): ranks 6 and 2 (2 to 5 are imported)"},
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
      {"two outputs",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.operators[0].outputs.push_back(1);
         return m;
       },
       "m.tflite: operator 0 (ADD): 2 outputs, expected 1"},
      {"missing input",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.operators[0].inputs[1] = -1;
         return m;
       },
       "m.tflite: operator 0 (ADD): input 1 is missing"},
      {"read before written",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.inputs = {0};
         return m;
       },
       "m.tflite: operator 0 (ADD): tensor 1 (\"t1\") is read before any operator writes it"},
      {"written twice",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.operators.push_back(m.operators[0]);
         return m;
       },
       "m.tflite: operator 1 (ADD): tensor 2 (\"t2\") is written twice (or is a model input or a constant)"},
      {"an input that is an output",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.outputs = {2, 0};
         return m;
       },
       "m.tflite: tensor 0 is both a model input and a model output"},
      {"no output",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.outputs.clear();
         return m;
       },
       "m.tflite: the model has no input or no output"},
      {"unread input",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}, {4}});
         m.operators[0].outputs = {3};
         m.inputs = {0, 1, 2};
         m.outputs = {3};
         return m;
       },
       "m.tflite: model input tensor 2 (\"t2\") is read by no operator"},
  };
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(refusal(r.model()), r.line);
  }
}

}  // namespace
}  // namespace etns::tools
