#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/rng.h"
#include "tests/support/tflm_lstm_reference.h"
#include "tests/support/tflm_reference.h"
#include "tools/writers/tflite/tflite_model.h"
#include "tools/writers/tflite/tflite_reader.h"

// Small synthetic int8 TFLite models for `etns import`, one or two operators
// each, with TFLite Micro's outputs for them computed by tflm_reference.h:
// the builder the import tests share, and one case per imported operator that
// the end-to-end test runs through the CLI on the host and the Cortex-M55.
namespace etns::testing {

namespace tfl = tools::tflite;

// A model built tensor by tensor; every constant gets its own buffer.
class TfliteBuilder {
 public:
  TfliteBuilder() { model_.version = 3; }

  // An int8 activation quantised per tensor.
  int32_t int8(std::vector<int32_t> shape, float scale, int32_t zero_point) {
    tfl::Tensor t;
    t.type = tfl::TensorType::Int8;
    t.shape = std::move(shape);
    t.has_quantization = true;
    t.quantization.scales = {scale};
    t.quantization.zero_points = {zero_point};
    return add(std::move(t));
  }
  int32_t float32(std::vector<int32_t> shape) {
    tfl::Tensor t;
    t.type = tfl::TensorType::Float32;
    t.shape = std::move(shape);
    return add(std::move(t));
  }
  // An int8 constant quantised per tensor (a BATCH_MATMUL operand, PADV2's
  // value, a MINIMUM bound).
  int32_t int8_constant(std::vector<int32_t> shape, float scale, int32_t zero_point, const std::vector<int8_t>& values) {
    const int32_t t = int8(std::move(shape), scale, zero_point);
    set_data(t, values.data(), values.size());
    return t;
  }
  // Weights: int8, zero points 0, one scale (per tensor) or one per element
  // of `dim` (per channel).
  int32_t weights(std::vector<int32_t> shape, const std::vector<float>& scales, int32_t dim,
                  const std::vector<int8_t>& values) {
    tfl::Tensor t;
    t.type = tfl::TensorType::Int8;
    t.shape = std::move(shape);
    t.has_quantization = true;
    t.quantization.scales = scales;
    t.quantization.zero_points.assign(scales.size(), 0);
    t.quantization.quantized_dimension = dim;
    const int32_t index = add(std::move(t));
    set_data(index, values.data(), values.size());
    return index;
  }
  int32_t int32_constant(std::vector<int32_t> shape, const std::vector<int32_t>& values) {
    tfl::Tensor t;
    t.type = tfl::TensorType::Int32;
    t.shape = std::move(shape);
    const int32_t index = add(std::move(t));
    set_data(index, values.data(), values.size() * 4);
    return index;
  }

  // An operator with the options table its code takes (when it takes one).
  tfl::Operator& op(tfl::Builtin builtin, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                    tfl::Options options = {}) {
    tfl::Operator o;
    o.builtin = static_cast<int32_t>(builtin);
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    o.builtin_options_type = tfl::expected_options_type(o.builtin);
    options.present = o.builtin_options_type != 0;
    o.options = std::move(options);
    model_.operators.push_back(std::move(o));
    return model_.operators.back();
  }

  tfl::Tensor& tensor(int32_t t) { return model_.tensors.at(static_cast<size_t>(t)); }

  tfl::Model finish(std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    model_.inputs = std::move(inputs);
    model_.outputs = std::move(outputs);
    return model_;
  }

 private:
  int32_t add(tfl::Tensor t) {
    t.name = "t" + std::to_string(model_.tensors.size());
    model_.tensors.push_back(std::move(t));
    return static_cast<int32_t>(model_.tensors.size() - 1);
  }
  void set_data(int32_t t, const void* bytes, size_t size) {
    tfl::Tensor& x = tensor(t);
    x.buffer = next_buffer_++;
    x.data.resize(size);
    if (size != 0) std::memcpy(x.data.data(), bytes, size);
  }

  tfl::Model model_;
  uint32_t next_buffer_ = 1;
};

template <typename T>
std::vector<uint8_t> as_bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

inline tfl::Options conv_options(tfl::Padding padding, int32_t stride_h, int32_t stride_w, tfl::Activation activation,
                                 int32_t dilation_h = 1, int32_t dilation_w = 1) {
  tfl::Options o;
  o.padding = padding;
  o.stride_h = stride_h;
  o.stride_w = stride_w;
  o.activation = activation;
  o.dilation_h = dilation_h;
  o.dilation_w = dilation_w;
  return o;
}

inline tfl::Options pool_options(tfl::Padding padding, int32_t filter_h, int32_t filter_w, int32_t stride_h,
                                 int32_t stride_w, tfl::Activation activation) {
  tfl::Options o = conv_options(padding, stride_h, stride_w, activation);
  o.filter_h = filter_h;
  o.filter_w = filter_w;
  return o;
}

inline tfl::Options activation_options(tfl::Activation activation) {
  tfl::Options o;
  o.activation = activation;
  return o;
}

// One model with its inputs and TFLM's outputs, as raw tensor bytes.
struct ImportCase {
  std::string name;
  tfl::Model model;
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<std::vector<uint8_t>> outputs;
};

// One case per operator `etns import` maps (TRANSPOSE_CONV included), plus a
// model with two inputs and one with two outputs: the end-to-end set.
inline std::vector<ImportCase> tflite_import_cases() {
  using tfl::Activation;
  using tfl::Builtin;
  using tfl::Padding;
  Rng rng(0x1F2E3D4C5B6A7988ULL);
  std::vector<ImportCase> cases;

  {  // CONV_2D: SAME, stride 2 over odd sizes, per-channel weights, RELU6.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 7, 5, 3}, fs{4, 3, 3, 3}, os{1, 4, 3, 4};
    const std::vector<float> ws{0.02F, 0.011F, 0.03F, 0.005F};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), w = random_s8(rng, tflm::count(fs));
    const std::vector<int32_t> bias{120, -300, 0, 55};
    const int32_t in = b.int8(is, 0.05F, -7), wt = b.weights(fs, ws, 0, w), bt = b.int32_constant({4}, bias);
    const int32_t out = b.int8(os, 0.04F, -20);
    b.op(Builtin::Conv2d, {in, wt, bt}, {out}, conv_options(Padding::Same, 2, 2, Activation::Relu6));
    tflm::Conv p;
    p.input_shape = is;
    p.filter_shape = fs;
    p.output_shape = os;
    p.stride_h = p.stride_w = 2;
    p.pad_h = tflm::compute_padding(Padding::Same, 7, 3, 2, 1).pad;
    p.pad_w = tflm::compute_padding(Padding::Same, 5, 3, 2, 1).pad;
    p.input_offset = 7;
    p.output_offset = -20;
    p.range = tflm::activation_range(Activation::Relu6, 0.04F, -20);
    p.multipliers = tflm::conv_multipliers(0.05F, ws, 0.04F);
    cases.push_back({"conv2d", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(tflm::conv(p, x, w, bias))}});
  }
  {  // DEPTHWISE_CONV_2D: multiplier 2, VALID, dilation 2.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 6, 7, 2}, fs{1, 2, 2, 4}, os{1, 4, 5, 4};
    const std::vector<float> ws{0.01F, 0.02F, 0.015F, 0.03F};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), w = random_s8(rng, tflm::count(fs));
    const std::vector<int32_t> bias{-40, 90, 7, 0};
    const int32_t in = b.int8(is, 0.1F, 3), wt = b.weights(fs, ws, 3, w), bt = b.int32_constant({4}, bias);
    const int32_t out = b.int8(os, 0.07F, 5);
    tfl::Options o = conv_options(Padding::Valid, 1, 1, Activation::None, 2, 2);
    o.depth_multiplier = 2;
    b.op(Builtin::DepthwiseConv2d, {in, wt, bt}, {out}, o);
    tflm::Conv p;
    p.input_shape = is;
    p.filter_shape = fs;
    p.output_shape = os;
    p.dilation_h = p.dilation_w = 2;
    p.input_offset = -3;
    p.output_offset = 5;
    p.multipliers = tflm::conv_multipliers(0.1F, ws, 0.07F);
    cases.push_back(
        {"depthwise_conv2d", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(tflm::depthwise_conv(p, x, w, bias))}});
  }
  {  // FULLY_CONNECTED: a 4-D input, keep_num_dims.
    TfliteBuilder b;
    const std::vector<int8_t> x = random_s8(rng, 2 * 3 * 8), w = random_s8(rng, 5 * 8);
    const std::vector<int32_t> bias{10, -20, 30, -40, 50};
    const int32_t in = b.int8({1, 2, 3, 8}, 0.08F, -11), wt = b.weights({5, 8}, {0.006F}, 0, w);
    const int32_t bt = b.int32_constant({5}, bias), out = b.int8({1, 2, 3, 5}, 0.09F, 4);
    tfl::Options o = activation_options(Activation::Relu);
    o.keep_num_dims = true;
    b.op(Builtin::FullyConnected, {in, wt, bt}, {out}, o);
    const std::vector<int8_t> want =
        tflm::fully_connected(x, 6, 8, w, 5, bias, 11, 4, tflm::product_multiplier(0.08F, 0.006F, 0.09F),
                              tflm::activation_range(Activation::Relu, 0.09F, 4));
    cases.push_back({"fully_connected", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(want)}});
  }
  for (const bool max : {false, true}) {  // AVERAGE_POOL_2D (its clamp) and MAX_POOL_2D, SAME 3x3 stride 2.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 7, 6, 5}, os{1, 4, 3, 5};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.1F, -9), out = b.int8(os, 0.1F, -9);
    b.op(max ? Builtin::MaxPool2d : Builtin::AveragePool2d, {in}, {out},
         pool_options(Padding::Same, 3, 3, 2, 2, Activation::Relu));
    tflm::Pool p;
    p.input_shape = is;
    p.output_shape = os;
    p.filter_h = p.filter_w = 3;
    p.stride_h = p.stride_w = 2;
    p.pad_h = tflm::compute_padding(Padding::Same, 7, 3, 2, 1).pad;
    p.pad_w = tflm::compute_padding(Padding::Same, 6, 3, 2, 1).pad;
    p.range = tflm::activation_range(Activation::Relu, 0.1F, -9);
    cases.push_back({max ? "max_pool2d" : "average_pool2d", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::pool(p, max, x))}});
  }
  {  // ADD of two model inputs, RELU_N1_TO_1.
    TfliteBuilder b;
    const std::vector<int32_t> s{1, 3, 4, 6};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(s)), y = random_s8(rng, tflm::count(s));
    const int32_t a = b.int8(s, 0.02F, -3), c = b.int8(s, 0.035F, 12), out = b.int8(s, 0.01F, -2);
    b.op(Builtin::Add, {a, c}, {out}, activation_options(Activation::ReluN1To1));
    const tflm::Add p =
        tflm::add_params(0.02F, -3, 0.035F, 12, 0.01F, -2, tflm::activation_range(Activation::ReluN1To1, 0.01F, -2));
    cases.push_back({"add_two_inputs", b.finish({a, c}, {out}), {as_bytes(x), as_bytes(y)},
                     {as_bytes(tflm::add(p, x, s, y, s, s))}});
  }
  {  // MUL of an input by a constant, RELU (the clamp after quantized_mul).
    TfliteBuilder b;
    const std::vector<int32_t> s{2, 5, 3};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(s)), k = random_s8(rng, tflm::count(s));
    const int32_t a = b.int8(s, 0.05F, 6), c = b.int8_constant(s, 0.03F, -4, k), out = b.int8(s, 0.02F, -30);
    b.op(Builtin::Mul, {a, c}, {out}, activation_options(Activation::Relu));
    const std::vector<int8_t> want =
        tflm::mul(x, s, 6, k, s, -4, s, -30, tflm::mul_multiplier(0.05F, 0.03F, 0.02F),
                  tflm::activation_range(Activation::Relu, 0.02F, -30));
    cases.push_back({"mul", b.finish({a}, {out}), {as_bytes(x)}, {as_bytes(want)}});
  }
  {  // SOFTMAX over rows of 10.
    TfliteBuilder b;
    const std::vector<int8_t> x = random_s8(rng, 3 * 10);
    const int32_t in = b.int8({3, 10}, 0.12F, 7), out = b.int8({3, 10}, 1.0F / 256, -128);
    tfl::Options o;
    o.beta = 1.0F;
    b.op(Builtin::Softmax, {in}, {out}, o);
    cases.push_back({"softmax", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::softmax(tflm::softmax_params(1.0F, 0.12F), x, 10))}});
  }
  {  // MINIMUM with broadcasting, MAXIMUM against a one-value constant.
    TfliteBuilder b;
    const std::vector<int32_t> sa{1, 4, 1, 3}, sb{1, 1, 5, 3}, so{1, 4, 5, 3};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(sa)), y = random_s8(rng, tflm::count(sb));
    const int32_t a = b.int8(sa, 0.1F, 0), c = b.int8(sb, 0.1F, 0), m = b.int8(so, 0.1F, 0);
    const int32_t k = b.int8_constant({1}, 0.1F, 0, {-20}), out = b.int8(so, 0.1F, 0);
    b.op(Builtin::Minimum, {a, c}, {m});
    b.op(Builtin::Maximum, {m, k}, {out});
    const std::vector<int8_t> low = tflm::min_max(false, x, sa, y, sb, so);
    cases.push_back({"minimum_maximum", b.finish({a, c}, {out}), {as_bytes(x), as_bytes(y)},
                     {as_bytes(tflm::min_max(true, low, so, {-20}, {1}, so))}});
  }
  {  // PAD of a 4-D tensor, then PADV2 of a 2-D one after a reshape.
    TfliteBuilder b;
    const std::vector<int8_t> x = random_s8(rng, 2 * 3 * 2);
    const int32_t in = b.int8({1, 2, 3, 2}, 0.3F, 9), pads = b.int32_constant({4, 2}, {0, 0, 1, 2, 0, 1, 1, 0});
    const int32_t padded = b.int8({1, 5, 4, 3}, 0.3F, 9);
    b.op(Builtin::Pad, {in, pads}, {padded});
    const int32_t shape = b.int32_constant({2}, {5, 12}), flat = b.int8({5, 12}, 0.3F, 9);
    b.op(Builtin::Reshape, {padded, shape}, {flat});
    const int32_t pads2 = b.int32_constant({2, 2}, {2, 0, 1, 3}), value = b.int8_constant({}, 0.3F, 9, {-77});
    const int32_t out = b.int8({7, 16}, 0.3F, 9);
    b.op(Builtin::PadV2, {flat, pads2, value}, {out});
    const std::vector<int8_t> p4 = tflm::pad(x, {1, 2, 3, 2}, {0, 1, 0, 1}, {0, 2, 1, 0}, 9);
    cases.push_back({"pad_padv2", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::pad(p4, {5, 12}, {2, 1}, {0, 3}, -77))}});
  }
  {  // TRANSPOSE of a rank-3 tensor.
    TfliteBuilder b;
    const std::vector<int8_t> x = random_s8(rng, 2 * 3 * 4);
    const int32_t in = b.int8({2, 3, 4}, 0.2F, 1), perm = b.int32_constant({3}, {2, 0, 1});
    const int32_t out = b.int8({4, 2, 3}, 0.2F, 1);
    b.op(Builtin::Transpose, {in, perm}, {out});
    cases.push_back({"transpose", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::transpose(x, {2, 3, 4}, {2, 0, 1}))}});
  }
  {  // RESHAPE of a convolution's [1, 3, 2, 4] output (its bytes leave the
     // channels_last form through a permute copy), then SQUEEZE.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 3, 2, 2}, fs{4, 1, 1, 2}, os{1, 3, 2, 4};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), w = random_s8(rng, tflm::count(fs));
    const int32_t in = b.int8(is, 0.1F, 0), wt = b.weights(fs, {0.01F}, 0, w), c = b.int8(os, 0.05F, 3);
    b.op(Builtin::Conv2d, {in, wt}, {c}, conv_options(Padding::Valid, 1, 1, Activation::None));
    const int32_t shape = b.int32_constant({3}, {1, 6, 4}), r = b.int8({1, 6, 4}, 0.05F, 3);
    b.op(Builtin::Reshape, {c, shape}, {r});
    const int32_t out = b.int8({6, 4}, 0.05F, 3);
    tfl::Options squeeze;
    squeeze.squeeze_dims = {0};
    b.op(Builtin::Squeeze, {r}, {out}, squeeze);
    tflm::Conv p;
    p.input_shape = is;
    p.filter_shape = fs;
    p.output_shape = os;
    p.output_offset = 3;
    p.multipliers = tflm::conv_multipliers(0.1F, std::vector<float>(4, 0.01F), 0.05F);
    cases.push_back({"reshape_squeeze", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(tflm::conv(p, x, w, {}))}});
  }
  {  // QUANTIZE from a float input, DEQUANTIZE to a float output. The
     // inputs keep x / s at least 0.1 from a half (the quantize kernel's
     // x * (1 / s) rounds ties to even, TFLM's round(x / s) away from zero).
    TfliteBuilder b;
    std::vector<float> x;
    for (int i = 0; i < 24; ++i) x.push_back(0.25F * static_cast<float>(static_cast<int>(rng.uniform(-600, 600))) * 0.1F);
    const int32_t in = b.float32({2, 12}), q = b.int8({2, 12}, 0.125F, -5), out = b.float32({2, 12});
    b.op(Builtin::Quantize, {in}, {q});
    b.op(Builtin::Dequantize, {q}, {out});
    cases.push_back({"quantize_dequantize", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::dequantize(tflm::quantize(x, 0.125F, -5), 0.125F, -5))}});
  }
  {  // BATCH_MATMUL of two model inputs, adj_y.
    TfliteBuilder b;
    const std::vector<int32_t> sl{2, 3, 5}, sr{2, 4, 5};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(sl)), y = random_s8(rng, tflm::count(sr));
    const int32_t l = b.int8(sl, 0.04F, 2), r = b.int8(sr, 0.06F, -9), out = b.int8({2, 3, 4}, 0.3F, 1);
    tfl::Options o;
    o.adj_y = true;
    b.op(Builtin::BatchMatmul, {l, r}, {out}, o);
    cases.push_back({"batch_matmul", b.finish({l, r}, {out}), {as_bytes(x), as_bytes(y)},
                     {as_bytes(tflm::batch_matmul(x, sl, 2, y, sr, -9, false, true, 1,
                                                  tflm::product_multiplier(0.04F, 0.06F, 0.3F)))}});
  }
  {  // TRANSPOSE_CONV: SAME, stride 2, 3x3 (an odd total: the far row and
     // column the kernel computes are cropped), bias, RELU.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 3, 4, 2}, fs{3, 3, 3, 2}, os{1, 6, 8, 3};
    const std::vector<float> ws{0.02F, 0.01F, 0.04F};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), w = random_s8(rng, tflm::count(fs));
    const std::vector<int32_t> bias{-100, 250, 3};
    const int32_t shape = b.int32_constant({4}, os), wt = b.weights(fs, ws, 0, w);
    const int32_t in = b.int8(is, 0.07F, -6), bt = b.int32_constant({3}, bias), out = b.int8(os, 0.05F, -10);
    b.op(Builtin::TransposeConv, {shape, wt, in, bt}, {out}, conv_options(Padding::Same, 2, 2, Activation::Relu));
    tflm::Conv p;
    p.input_shape = is;
    p.filter_shape = fs;
    p.output_shape = os;
    p.stride_h = p.stride_w = 2;
    p.pad_h = tflm::transpose_padding(Padding::Same, 6, 3, 2);
    p.pad_w = tflm::transpose_padding(Padding::Same, 8, 3, 2);
    p.input_offset = 6;
    p.output_offset = -10;
    p.range = tflm::activation_range(Activation::Relu, 0.05F, -10);
    p.multipliers = tflm::conv_multipliers(0.07F, ws, 0.05F);
    cases.push_back(
        {"transpose_conv", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(tflm::transpose_conv(p, x, w, bias))}});
  }
  {  // Two outputs: a max pool and the average pool of its input.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 4, 4, 3}, os{1, 2, 2, 3};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.2F, -1), o1 = b.int8(os, 0.2F, -1), o2 = b.int8(os, 0.2F, -1);
    b.op(Builtin::MaxPool2d, {in}, {o1}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
    b.op(Builtin::AveragePool2d, {in}, {o2}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
    tflm::Pool p;
    p.input_shape = is;
    p.output_shape = os;
    p.filter_h = p.filter_w = p.stride_h = p.stride_w = 2;
    cases.push_back({"two_outputs", b.finish({in}, {o1, o2}), {as_bytes(x)},
                     {as_bytes(tflm::pool(p, true, x)), as_bytes(tflm::pool(p, false, x))}});
  }
  {  // LEAKY_RELU, every code, negative alpha, grids that differ: etns_ops::lookup_table.
    TfliteBuilder b;
    const std::vector<int32_t> shape{1, 4, 4, 16};
    std::vector<int8_t> x(256);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>(static_cast<int>(i) - 128);
    const int32_t in = b.int8(shape, 0.03F, 5), out = b.int8(shape, 0.02F, -9);
    tfl::Options o;
    o.alpha = -0.4F;
    b.op(Builtin::LeakyRelu, {in}, {out}, o);
    cases.push_back({"leaky_relu", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::leaky_relu(tflm::leaky_relu_params(0.03F, 5, 0.02F, -9, -0.4F), x))}});
  }
  {  // MEAN over H, W after a pool (channels_last, read in place), grids that
     // differ (TFLM's float rescale), and SUM over the last axis: etns_ops::quantized_reduce.
    TfliteBuilder b;
    const std::vector<int32_t> shape{1, 6, 6, 20};
    Rng reduce_rng(4040);
    const std::vector<int8_t> x = random_s8(reduce_rng, tflm::count(shape));
    const int32_t in = b.int8(shape, 0.04F, -3), pooled = b.int8(shape, 0.04F, -3);
    const int32_t hw = b.int32_constant({2}, {1, -2}), last = b.int32_constant({1}, {-1});
    const int32_t mean = b.int8({1, 20}, 0.015F, 7), sum = b.int8({1, 6, 6, 1}, 0.3F, -2);
    b.op(Builtin::MaxPool2d, {in}, {pooled}, pool_options(Padding::Valid, 1, 1, 1, 1, Activation::None));
    b.op(Builtin::Mean, {pooled, hw}, {mean});
    tfl::Options keep;
    keep.keep_dims = true;
    b.op(Builtin::Sum, {in, last}, {sum}, keep);
    cases.push_back({"mean_sum", b.finish({in}, {mean, sum}), {as_bytes(x)},
                     {as_bytes(tflm::mean(x, shape, {1, -2}, 0.04F, -3, 0.015F, 7)),
                      as_bytes(tflm::sum(x, shape, {-1}, 0.04F, -3, 0.3F, -2))}});
  }
  {  // EXPAND_DIMS [2, 3, 16] -> [2, 3, 1, 16], CONCATENATION of three along
     // axis -2 (inputs on other grids: TFLM copies the codes), then along 0.
    TfliteBuilder b;
    const std::vector<int32_t> s0{2, 3, 16}, s1{2, 3, 2, 16}, s2{2, 3, 1, 16}, s3{1, 3, 4, 16};
    const std::vector<int8_t> x0 = random_s8(rng, tflm::count(s0)), x1 = random_s8(rng, tflm::count(s1));
    const std::vector<int8_t> x2 = random_s8(rng, tflm::count(s2)), x3 = random_s8(rng, tflm::count(s3));
    const int32_t i0 = b.int8(s0, 0.1F, 1), i1 = b.int8(s1, 0.2F, -3), i2 = b.int8(s2, 0.05F, 0);
    const int32_t i3 = b.int8(s3, 0.1F, 1), e = b.int8({2, 3, 1, 16}, 0.1F, 1);
    b.op(Builtin::ExpandDims, {i0, b.int32_constant({1}, {-2})}, {e});
    const int32_t joined = b.int8({2, 3, 4, 16}, 0.1F, 1), out = b.int8({3, 3, 4, 16}, 0.1F, 1);
    tfl::Options along;
    along.axis = -2;
    b.op(Builtin::Concatenation, {e, i1, i2}, {joined}, along);
    along.axis = 0;
    b.op(Builtin::Concatenation, {joined, i3}, {out}, along);
    const std::vector<int8_t> j = tflm::concatenation<int8_t>({x0, x1, x2}, {{2, 3, 1, 16}, s1, s2}, -2);
    cases.push_back({"expand_dims_concatenation", b.finish({i0, i1, i2, i3}, {out}),
                     {as_bytes(x0), as_bytes(x1), as_bytes(x2), as_bytes(x3)},
                     {as_bytes(tflm::concatenation<int8_t>({j, x3}, {{2, 3, 4, 16}, s3}, 0))}});
  }
  {  // SPLIT along C into two, STRIDED_SLICE of one (every other row, W
     // reversed by 2), SLICE of the other, UNPACK of that along H, SPLIT_V
     // of one unpacked piece (slice_copy each), PACK of both pieces on a new
    // last axis (one etns_ops::concatenate).
    TfliteBuilder b;
    const std::vector<int32_t> s{1, 4, 6, 8}, half{1, 4, 6, 4};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(s));
    const int32_t in = b.int8(s, 0.1F, 1), p0 = b.int8(half, 0.1F, 1), p1 = b.int8(half, 0.1F, 1);
    b.op(Builtin::Split, {b.int32_constant({}, {-1}), in}, {p0, p1});
    const tflm::StridedSlice ss{{0, 0, 5, 0}, {1, 4, 0, 4}, {1, 2, -2, 1}, 0, 0, 0};
    const int32_t strided = b.int8(tflm::strided_slice_shape(half, ss), 0.1F, 1);
    b.op(Builtin::StridedSlice,
         {p0, b.int32_constant({4}, ss.begin), b.int32_constant({4}, ss.end), b.int32_constant({4}, ss.strides)},
         {strided});
    const int32_t sliced = b.int8({1, 2, 6, 3}, 0.1F, 1);
    b.op(Builtin::Slice, {p1, b.int32_constant({4}, {0, 1, 0, 1}), b.int32_constant({4}, {-1, 2, -1, 3})}, {sliced});
    const int32_t u0 = b.int8({1, 6, 3}, 0.1F, 1), u1 = b.int8({1, 6, 3}, 0.1F, 1);
    tfl::Options unpack;
    unpack.axis = 1;
    unpack.num = 2;
    b.op(Builtin::Unpack, {sliced}, {u0, u1}, unpack);
    const int32_t v0 = b.int8({1, 2, 3}, 0.1F, 1), v1 = b.int8({1, 4, 3}, 0.1F, 1);
    b.op(Builtin::SplitV, {u0, b.int32_constant({2}, {2, 4}), b.int32_constant({1}, {1})}, {v0, v1});
    const std::vector<std::vector<int8_t>> halves = tflm::split(s, x, -1, {4, 4});
    const std::vector<int8_t> window = tflm::slice(half, halves[1], {0, 1, 0, 1}, {-1, 2, -1, 3});
    const std::vector<std::vector<int8_t>> rows = tflm::unpack({1, 2, 6, 3}, window, 1);
    const std::vector<std::vector<int8_t>> parts = tflm::split({1, 6, 3}, rows[0], 1, {2, 4});
    const int32_t packed = b.int8({1, 6, 3, 2}, 0.1F, 1);
    tfl::Options pack;
    pack.values_count = 2;
    pack.axis = -1;
    b.op(Builtin::Pack, {u1, u0}, {packed}, pack);
    cases.push_back({"split_slice_unpack_pack", b.finish({in}, {strided, packed, v0, v1}), {as_bytes(x)},
                     {as_bytes(tflm::strided_slice(half, halves[0], ss)),
                      as_bytes(tflm::pack<int8_t>({rows[1], rows[0]}, {1, 6, 3, 2}, -1)), as_bytes(parts[0]),
                      as_bytes(parts[1])}});
  }
  {  // UNIDIRECTIONAL_SEQUENCE_LSTM: 2 batches, 3 steps, 10 inputs, 6 units,
     // batch major, a cell clip; the state starts at TFLM's reset values.
    tflm::Lstm m;
    m.batches = 2;
    m.steps = 3;
    m.n_input = 10;
    m.n_state = 6;
    m.s_in = 0.05F;
    m.zp_in = -5;
    m.s_hidden = 1.0F / 128.0F;
    m.zp_hidden = 2;
    m.s_cell = 1.0F / 2048.0F;
    m.cell_clip = 3.0F;
    Rng lstm_rng(4444);
    TfliteBuilder b;
    std::vector<int32_t> inputs(24, -1);
    inputs[0] = b.int8({2, 3, 10}, m.s_in, m.zp_in);
    for (int g = 0; g < 4; ++g) {
      m.s_w[g] = 0.02F + 0.005F * static_cast<float>(g);
      m.s_r[g] = 0.03F - 0.004F * static_cast<float>(g);
      m.w[g] = random_s8(lstm_rng, 60);
      m.r[g] = random_s8(lstm_rng, 36);
      m.bias[g].resize(6);
      for (int32_t& v : m.bias[g]) v = lstm_rng.uniform32(-2000, 2000);
      inputs[static_cast<size_t>(1 + g)] = b.weights({6, 10}, {m.s_w[g]}, 0, m.w[g]);
      inputs[static_cast<size_t>(5 + g)] = b.weights({6, 6}, {m.s_r[g]}, 0, m.r[g]);
      inputs[static_cast<size_t>(12 + g)] = b.int32_constant({6}, m.bias[g]);
    }
    inputs[18] = b.int8({2, 6}, m.s_hidden, m.zp_hidden);
    inputs[19] = b.int8({2, 6}, m.s_cell, 0);
    b.tensor(inputs[18]).is_variable = b.tensor(inputs[19]).is_variable = true;
    b.tensor(inputs[19]).type = tfl::TensorType::Int16;
    const int32_t out = b.int8({2, 3, 6}, m.s_hidden, m.zp_hidden);
    tfl::Options o;
    o.activation = Activation::Tanh;
    o.cell_clip = m.cell_clip;
    b.op(Builtin::UnidirectionalSequenceLstm, inputs, {out}, o);
    const std::vector<int8_t> x = random_s8(lstm_rng, 60);
    tflm::LstmState state = tflm::lstm_reset(m);
    cases.push_back({"unidirectional_sequence_lstm", b.finish({inputs[0]}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::lstm(m, x, state))}});
  }
  {  // SPACE_TO_DEPTH block 2, then DEPTH_TO_SPACE block 4: 2 batches.
    TfliteBuilder b;
    const std::vector<int32_t> is{2, 6, 6, 4};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.06F, 4), mid = b.int8({2, 3, 3, 16}, 0.06F, 4);
    const int32_t out = b.int8({2, 12, 12, 1}, 0.06F, 4);
    tfl::Options o;
    o.block_size = 2;
    b.op(Builtin::SpaceToDepth, {in}, {mid}, o);
    o.block_size = 4;
    b.op(Builtin::DepthToSpace, {mid}, {out}, o);
    const std::vector<int8_t> y = tflm::depth_to_space(tflm::space_to_depth(x, is, 2), {2, 3, 3, 16}, 4);
    cases.push_back({"space_to_depth_depth_to_space", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(y)}});
  }
  {  // RESIZE_NEAREST_NEIGHBOR: 2 batches, 5x4 up to 9x7, half_pixel_centers.
    TfliteBuilder b;
    const std::vector<int32_t> is{2, 5, 4, 6};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.02F, -9), size = b.int32_constant({2}, {9, 7});
    const int32_t out = b.int8({2, 9, 7, 6}, 0.02F, -9);
    tfl::Options o;
    o.half_pixel_centers = true;
    b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, o);
    cases.push_back({"resize_nearest_neighbor", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::resize_nearest_neighbor(x, is, 9, 7, false, true))}});
  }
  {  // PRELU: one negative alpha value broadcast from [1, 1, 8].
    TfliteBuilder b;
    const std::vector<int32_t> is{2, 4, 4, 8};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), alpha(8, -77);
    const int32_t in = b.int8(is, 0.04F, -6), a = b.int8_constant({1, 1, 8}, 0.003F, 4, alpha);
    const int32_t out = b.int8(is, 0.05F, 9);
    b.op(Builtin::Prelu, {in, a}, {out});
    cases.push_back({"prelu", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::prelu(x, is, 0.04F, -6, alpha, {1, 1, 8}, 0.003F, 4, 0.05F, 9))}});
  }
  {  // PRELU: one alpha per channel (40 channels, past one Helium pass of 8): etns_ops::channel_lookup.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 5, 3, 40};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), alpha = random_s8(rng, 40);
    const int32_t in = b.int8(is, 0.03F, 5), a = b.int8_constant({40}, 0.004F, -2, alpha);
    const int32_t out = b.int8(is, 0.02F, -11);
    b.op(Builtin::Prelu, {in, a}, {out});
    cases.push_back({"prelu_per_channel", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::prelu(x, is, 0.03F, 5, alpha, {40}, 0.004F, -2, 0.02F, -11))}});
  }
  {  // SQUARED_DIFFERENCE: equal shapes, and against a constant channel row (broadcast): etns_ops::squared_difference.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 4, 5, 12}, rs{12};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is)), y = random_s8(rng, tflm::count(is));
    const std::vector<int8_t> row = random_s8(rng, 12);
    const int32_t in = b.int8(is, 0.05F, -3), other = b.int8(is, 0.03F, 8), r = b.int8_constant(rs, 0.05F, 1, row);
    const int32_t same = b.int8(is, 0.02F, -128), broadcast = b.int8(is, 0.04F, -120);
    b.op(Builtin::SquaredDifference, {in, other}, {same});
    b.op(Builtin::SquaredDifference, {in, r}, {broadcast});
    const tflm::SquaredDifference ps = tflm::squared_difference_params(0.05F, -3, 0.03F, 8, 0.02F, -128);
    const tflm::SquaredDifference pb = tflm::squared_difference_params(0.05F, -3, 0.05F, 1, 0.04F, -120);
    cases.push_back({"squared_difference", b.finish({in, other}, {same, broadcast}), {as_bytes(x), as_bytes(y)},
                     {as_bytes(tflm::squared_difference(ps, x, is, y, is, is)),
                      as_bytes(tflm::squared_difference(pb, x, is, row, rs, is))}});
  }
  {  // GATHER: rows of an activation, reversed and repeated (96-byte runs), then one channel per pick.
    TfliteBuilder b;
    const std::vector<int32_t> is{2, 6, 4, 24}, rows{5, 0, 3, 3, 1}, channels{23, 0, 7, 7, 16, 2};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.04F, 3), r = b.int32_constant({5}, rows), c = b.int32_constant({6}, channels);
    const int32_t mid = b.int8({2, 5, 4, 24}, 0.04F, 3), out = b.int8({2, 5, 4, 6}, 0.04F, 3);
    tfl::Options on_rows, on_channels;
    on_rows.axis = 1;
    on_channels.axis = -1;
    b.op(Builtin::Gather, {in, r}, {mid}, on_rows);
    b.op(Builtin::Gather, {mid, c}, {out}, on_channels);
    const std::vector<int8_t> y = tflm::gather(x, is, rows, {5}, 1, 0);
    cases.push_back({"gather", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::gather(y, {2, 5, 4, 24}, channels, {6}, -1, 0))}});
  }
  {  // RESIZE_BILINEAR: 2 batches, 5x4 up to 9x7 with half_pixel_centers, 17 channels (past four Helium lanes).
    TfliteBuilder b;
    const std::vector<int32_t> is{2, 5, 4, 17};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.02F, -9), size = b.int32_constant({2}, {9, 7});
    const int32_t out = b.int8({2, 9, 7, 17}, 0.02F, -9);
    tfl::Options o;
    o.half_pixel_centers = true;
    b.op(Builtin::ResizeBilinear, {in, size}, {out}, o);
    cases.push_back({"resize_bilinear", b.finish({in}, {out}), {as_bytes(x)},
                     {as_bytes(tflm::resize_bilinear(x, is, 9, 7, false, true))}});
  }
  {  // ARG_MAX over 40 channels (contiguous rows, Helium) and ARG_MIN over H (strided): etns_ops::arg_reduce.
    TfliteBuilder b;
    const std::vector<int32_t> is{1, 3, 4, 40};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.05F, 2), last = b.int32_constant({}, {-1}), h = b.int32_constant({1}, {1});
    const int32_t by_channel = b.float32({1, 3, 4}), by_row = b.float32({1, 4, 40});
    b.tensor(by_channel).type = b.tensor(by_row).type = tfl::TensorType::Int32;
    b.op(Builtin::ArgMax, {in, last}, {by_channel});
    b.op(Builtin::ArgMin, {in, h}, {by_row});
    cases.push_back({"arg_min_max", b.finish({in}, {by_channel, by_row}), {as_bytes(x)},
                     {as_bytes(tflm::arg_min_max(x, is, -1, true)), as_bytes(tflm::arg_min_max(x, is, 1, false))}});
  }
  {  // SPACE_TO_BATCH_ND block 2x2 padded in the zero point, then BATCH_TO_SPACE_ND block 2x1 cropped.
    TfliteBuilder b;
    const std::vector<int32_t> is{2, 5, 6, 3}, mid{8, 3, 4, 3};
    const std::vector<int8_t> x = random_s8(rng, tflm::count(is));
    const int32_t in = b.int8(is, 0.04F, -6), batched = b.int8(mid, 0.04F, -6), out = b.int8({4, 5, 3, 3}, 0.04F, -6);
    const int32_t block = b.int32_constant({2}, {2, 2}), pads = b.int32_constant({2, 2}, {1, 0, 0, 2});
    const int32_t rows = b.int32_constant({2}, {2, 1}), crops = b.int32_constant({2, 2}, {0, 1, 1, 0});
    b.op(Builtin::SpaceToBatchNd, {in, block, pads}, {batched});
    b.op(Builtin::BatchToSpaceNd, {batched, rows, crops}, {out});
    const std::vector<int8_t> y =
        tflm::batch_to_space_nd(tflm::space_to_batch_nd(x, is, {2, 2}, {1, 0, 0, 2}, -6), mid, {2, 1}, {0, 1, 1, 0});
    cases.push_back({"space_to_batch_nd_batch_to_space_nd", b.finish({in}, {out}), {as_bytes(x)}, {as_bytes(y)}});
  }
  return cases;
}

}  // namespace etns::testing
