#include "tools/writers/export/dscnn_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/linear/linear.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m/softmax/softmax.h"
#include "kernels/portable/portable.h"
#include "tools/writers/export/seeded_random.h"

namespace etns::tools {

using runtime::ScalarType;

namespace {

constexpr int32_t kFrames = 49, kFeatures = 10;
constexpr int32_t kC1 = 16, kK1H = 10, kK1W = 4, kStride1 = 2, kPad1H = 4, kPad1W = 1;
constexpr int32_t kH = 24, kW = 5;  // after conv1
constexpr int32_t kC2 = 32;         // after the pointwise conv
constexpr int32_t kClasses = 12;
constexpr int32_t kCalibrationSamples = 16;
const std::vector<int32_t> kInputSizes{1, 1, kFrames, kFeatures};

// One float layer's weights, OIHW for convolutions, [out, in] for linear.
struct Layer {
  int32_t out = 0, in = 0, kh = 1, kw = 1;  // `in` per group
  std::vector<float> weight, bias;
};
struct Weights {
  Layer conv1, depthwise, pointwise, fc;
};

Layer draw_layer(SeededRandom& random, int32_t out, int32_t in, int32_t kh, int32_t kw) {
  Layer layer{out, in, kh, kw, {}, {}};
  const float gain = std::sqrt(2.0f / static_cast<float>(in * kh * kw));
  layer.weight.resize(static_cast<size_t>(out * in * kh * kw));
  for (float& w : layer.weight) w = random.normal_float() * gain;
  layer.bias.resize(static_cast<size_t>(out));
  for (float& b : layer.bias) b = random.normal_float() * 0.1f;
  return layer;
}

Weights draw_weights(uint64_t seed) {
  SeededRandom random(seed + 500);
  Weights w;
  w.conv1 = draw_layer(random, kC1, 1, kK1H, kK1W);
  w.depthwise = draw_layer(random, kC1, 1, 3, 3);
  w.pointwise = draw_layer(random, kC2, kC1, 1, 1);
  w.fc = draw_layer(random, kClasses, kC2, 1, 1);
  return w;
}

std::vector<float> normals(SeededRandom& random, size_t n) {
  std::vector<float> v(n);
  for (float& x : v) x = random.normal_float();
  return v;
}

// NCHW float convolution (batch 1), `groups` groups, then ReLU.
std::vector<float> conv_relu(const std::vector<float>& in, int32_t h, int32_t w, const Layer& layer,
                             int32_t groups, int32_t stride, int32_t pad_h, int32_t pad_w, int32_t out_h,
                             int32_t out_w) {
  std::vector<float> out(static_cast<size_t>(layer.out * out_h * out_w));
  const int32_t out_per_group = layer.out / groups;
  for (int32_t oc = 0; oc < layer.out; ++oc) {
    const int32_t first_in = (oc / out_per_group) * layer.in;
    for (int32_t oy = 0; oy < out_h; ++oy) {
      for (int32_t ox = 0; ox < out_w; ++ox) {
        float acc = layer.bias[static_cast<size_t>(oc)];
        for (int32_t ic = 0; ic < layer.in; ++ic) {
          for (int32_t ky = 0; ky < layer.kh; ++ky) {
            for (int32_t kx = 0; kx < layer.kw; ++kx) {
              const int32_t iy = oy * stride - pad_h + ky, ix = ox * stride - pad_w + kx;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              acc += in[static_cast<size_t>(((first_in + ic) * h + iy) * w + ix)] *
                     layer.weight[static_cast<size_t>(((oc * layer.in + ic) * layer.kh + ky) * layer.kw + kx)];
            }
          }
        }
        out[static_cast<size_t>((oc * out_h + oy) * out_w + ox)] = std::max(acc, 0.0f);
      }
    }
  }
  return out;
}

// Every intermediate of the float model, for calibration.
struct Forward {
  std::vector<float> conv1, depthwise, pointwise, pooled, logits, probabilities;
};

Forward forward(const Weights& w, const std::vector<float>& x) {
  Forward f;
  f.conv1 = conv_relu(x, kFrames, kFeatures, w.conv1, 1, kStride1, kPad1H, kPad1W, kH, kW);
  f.depthwise = conv_relu(f.conv1, kH, kW, w.depthwise, kC1, 1, 1, 1, kH, kW);
  f.pointwise = conv_relu(f.depthwise, kH, kW, w.pointwise, 1, 1, 0, 0, kH, kW);
  f.pooled.assign(kC2, 0.0f);
  for (int32_t c = 0; c < kC2; ++c) {
    float sum = 0.0f;
    for (int32_t i = 0; i < kH * kW; ++i) sum += f.pointwise[static_cast<size_t>(c * kH * kW + i)];
    f.pooled[static_cast<size_t>(c)] = sum / static_cast<float>(kH * kW);
  }
  f.logits.assign(kClasses, 0.0f);
  for (int32_t o = 0; o < kClasses; ++o) {
    float acc = w.fc.bias[static_cast<size_t>(o)];
    for (int32_t i = 0; i < kC2; ++i) acc += f.pooled[static_cast<size_t>(i)] * w.fc.weight[static_cast<size_t>(o * kC2 + i)];
    f.logits[static_cast<size_t>(o)] = acc;
  }
  const float top = *std::max_element(f.logits.begin(), f.logits.end());
  float total = 0.0f;
  f.probabilities.resize(kClasses);
  for (int32_t o = 0; o < kClasses; ++o) {
    f.probabilities[static_cast<size_t>(o)] = std::exp(f.logits[static_cast<size_t>(o)] - top);
    total += f.probabilities[static_cast<size_t>(o)];
  }
  for (float& p : f.probabilities) p /= total;
  return f;
}

struct Calibration {
  Qparams x, conv1, depthwise, pointwise, logits;
};

Calibration calibrate(const Weights& w, uint64_t seed) {
  SeededRandom random(seed + 501);
  MinMax x, conv1, depthwise, pointwise, logits;
  for (int32_t s = 0; s < kCalibrationSamples; ++s) {
    const std::vector<float> sample = normals(random, static_cast<size_t>(kFrames * kFeatures));
    const Forward f = forward(w, sample);
    x.add(sample);
    conv1.add(f.conv1);
    depthwise.add(f.depthwise);
    pointwise.add(f.pointwise);
    logits.add(f.logits);
  }
  return {x.qparams(), conv1.qparams(), depthwise.qparams(), pointwise.qparams(), logits.qparams()};
}

// Symmetric int8 weights: scale = max(|w|) / 127.5 (at least float32 eps),
// q = round_half_even(w / scale) clamped to int8.
float symmetric_scale(const float* w, size_t n) {
  float lo = 0.0f, hi = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    lo = std::min(lo, w[i]);
    hi = std::max(hi, w[i]);
  }
  return std::max(std::max(-lo, hi) / 127.5f, kFloat32Eps);
}
int8_t quantize_weight(float w, float scale) {
  return static_cast<int8_t>(std::clamp(std::nearbyint(w * (1.0f / scale)), -128.0f, 127.0f));
}

// A convolution's per-output-channel constants.
struct ConvConstants {
  std::vector<uint8_t> weight;  // in the layout the operator reads
  std::vector<int32_t> bias, multipliers, shifts;
};

// OHWI (conv) or IHWO (depthwise, layer.in == 1) int8 weights, int32 biases on
// the input x weight grid and the QM of in x weight / out, per channel.
ConvConstants conv_constants(const Layer& layer, bool depthwise, const Qparams& in, const Qparams& out,
                             const std::string& what) {
  ConvConstants c;
  const size_t per_channel = static_cast<size_t>(layer.in * layer.kh * layer.kw);
  c.weight.resize(per_channel * static_cast<size_t>(layer.out));
  for (int32_t oc = 0; oc < layer.out; ++oc) {
    const float* w = layer.weight.data() + static_cast<size_t>(oc) * per_channel;
    const float scale = symmetric_scale(w, per_channel);
    for (int32_t ic = 0; ic < layer.in; ++ic) {
      for (int32_t ky = 0; ky < layer.kh; ++ky) {
        for (int32_t kx = 0; kx < layer.kw; ++kx) {
          const int8_t q = quantize_weight(w[(ic * layer.kh + ky) * layer.kw + kx], scale);
          const size_t at = depthwise ? static_cast<size_t>((ky * layer.kw + kx) * layer.out + oc)
                                      : static_cast<size_t>(((oc * layer.kh + ky) * layer.kw + kx) * layer.in + ic);
          c.weight[at] = static_cast<uint8_t>(q);
        }
      }
    }
    const double bias_scale = in.scale * static_cast<double>(scale);
    c.bias.push_back(static_cast<int32_t>(std::nearbyint(layer.bias[static_cast<size_t>(oc)] / bias_scale)));
    const Requant r = quantize_multiplier(bias_scale / out.scale, "export dscnn: " + what + " requantization");
    c.multipliers.push_back(r.multiplier);
    c.shifts.push_back(r.shift);
  }
  return c;
}

// A convolution's arguments by the contract's names: its constants (added to
// the graph here, weight first), quantisation and geometry, with ReLU.
std::vector<NamedArg> conv_args(GraphBuilder& g, const std::string& name, int32_t input,
                                std::vector<int32_t> weight_sizes, const ConvConstants& c, const Qparams& in,
                                const Qparams& out, int64_t pad_h, int64_t pad_w, int64_t stride, int32_t output) {
  return std::vector<NamedArg>{
      {"input", GraphArg::of_tensor(input)},
      {"weight", GraphArg::of_tensor(g.tensor(name + "_weight", ScalarType::Char, weight_sizes, contiguous_order(4),
                                              GraphTensor::Role::Constant, c.weight))},
      {"bias", GraphArg::of_tensor(g.int32_vector(name + "_bias", c.bias))},
      {"stride", GraphArg::list({stride, stride})},
      {"padding", GraphArg::list({pad_h, pad_w})},
      {"dilation", GraphArg::list({1, 1})},
      {"input_offset", GraphArg::integer(-in.zero_point)},
      {"output_offset", GraphArg::integer(out.zero_point)},
      {"requantize_multipliers", GraphArg::of_tensor(g.int32_vector(name + "_multipliers", c.multipliers))},
      {"requantize_shifts", GraphArg::of_tensor(g.int32_vector(name + "_shifts", c.shifts))},
      // ReLU: activation_min is the output zero point.
      {"activation_min", GraphArg::integer(out.zero_point)},
      {"activation_max", GraphArg::integer(127)},
      {"out", GraphArg::of_tensor(output)}};
}

// conv1 + ReLU.
int32_t add_conv1(GraphBuilder& g, int32_t xq, const Weights& w, const Calibration& q) {
  const ConvConstants c1 = conv_constants(w.conv1, false, q.x, q.conv1, "conv1");
  const int32_t c1_out = g.s8("conv1_out", {1, kC1, kH, kW}, kChannelsLastOrder);
  g.call(cortex_m::kConv2dContract,
         conv_args(g, "conv1", xq, {kC1, kK1H, kK1W, 1}, c1, q.x, q.conv1, kPad1H, kPad1W, kStride1, c1_out));
  return c1_out;
}

// Depthwise 3x3 + ReLU: weight [1, 3, 3, C] (IHWO), depth multiplier 1.
int32_t add_depthwise(GraphBuilder& g, int32_t c1_out, const Weights& w, const Calibration& q) {
  const ConvConstants dw = conv_constants(w.depthwise, true, q.conv1, q.depthwise, "depthwise");
  const int32_t dw_out = g.s8("depthwise_out", {1, kC1, kH, kW}, kChannelsLastOrder);
  std::vector<NamedArg> dw_args =
      conv_args(g, "depthwise", c1_out, {1, 3, 3, kC1}, dw, q.conv1, q.depthwise, 1, 1, 1, dw_out);
  dw_args.push_back({"depth_multiplier", GraphArg::integer(1)});
  g.call(cortex_m::kDepthwiseConv2dContract, dw_args);
  return dw_out;
}

// Pointwise 1x1 conv + ReLU.
int32_t add_pointwise(GraphBuilder& g, int32_t dw_out, const Weights& w, const Calibration& q) {
  const ConvConstants pw = conv_constants(w.pointwise, false, q.depthwise, q.pointwise, "pointwise");
  const int32_t pw_out = g.s8("pointwise_out", {1, kC2, kH, kW}, kChannelsLastOrder);
  g.call(cortex_m::kConv2dContract,
         conv_args(g, "pointwise", dw_out, {kC2, 1, 1, kC1}, pw, q.depthwise, q.pointwise, 0, 0, 1, pw_out));
  return pw_out;
}

// Global average pool: the output keeps the input's quantisation; the
// backend passes the zero point and the QM of the input scale, which the
// kernel does not read.
int32_t add_average_pool(GraphBuilder& g, int32_t pw_out, const Calibration& q) {
  const int32_t pooled = g.s8("pooled", {1, kC2, 1, 1}, kChannelsLastOrder);
  const Requant pool_requant = quantize_multiplier(q.pointwise.scale, "export dscnn: average pool scale");
  g.call(cortex_m::kAvgPool2dContract, {{"input", GraphArg::of_tensor(pw_out)},
                                        {"kernel_size", GraphArg::list({kH, kW})},
                                        {"stride", GraphArg::list({kH, kW})},
                                        {"padding", GraphArg::list({0, 0})},
                                        {"zero_point", GraphArg::integer(q.pointwise.zero_point)},
                                        {"multiplier", GraphArg::integer(pool_requant.multiplier)},
                                        {"shift", GraphArg::integer(pool_requant.shift)},
                                        {"out", GraphArg::of_tensor(pooled)}});
  return pooled;
}

// Flatten: to the contiguous order, then the view.
int32_t add_flatten(GraphBuilder& g, int32_t pooled) {
  const int32_t pooled_nchw = g.s8("pooled_contiguous", {1, kC2, 1, 1}, contiguous_order(4));
  g.call(portable::kToDimOrderCopyContract, {{"self", GraphArg::of_tensor(pooled)},
                                             {"non_blocking", GraphArg::boolean(false)},
                                             {"dim_order", GraphArg::list({0, 1, 2, 3})},
                                             {"out", GraphArg::of_tensor(pooled_nchw)}});
  const int32_t flat = g.s8("flat", {1, kC2}, contiguous_order(2));
  g.call(portable::kViewCopyContract, {{"self", GraphArg::of_tensor(pooled_nchw)},
                                       {"size", GraphArg::list({1, kC2})},
                                       {"out", GraphArg::of_tensor(flat)}});
  return flat;
}

// The linear layer's constants: per-tensor int8 weights (zero point 0) and the
// bias folded into kernel_sum, on the input x weight grid.
struct LinearConstants {
  std::vector<uint8_t> weight;
  std::vector<int32_t> kernel_sum;
  double bias_scale = 0.0;
};

LinearConstants linear_constants(const Layer& fc, const Qparams& in) {
  const float fc_scale = symmetric_scale(fc.weight.data(), fc.weight.size());
  LinearConstants c;
  c.bias_scale = in.scale * static_cast<double>(fc_scale);
  for (int32_t o = 0; o < kClasses; ++o) {
    int32_t row_sum = 0;
    for (int32_t i = 0; i < kC2; ++i) {
      const int8_t wq = quantize_weight(fc.weight[static_cast<size_t>(o * kC2 + i)], fc_scale);
      c.weight.push_back(static_cast<uint8_t>(wq));
      row_sum += wq;
    }
    const int32_t bias = static_cast<int32_t>(std::nearbyint(fc.bias[static_cast<size_t>(o)] / c.bias_scale));
    c.kernel_sum.push_back(-in.zero_point * row_sum + bias);
  }
  return c;
}

// Linear, per-tensor weights (zero point 0), the bias folded into kernel_sum.
int32_t add_linear(GraphBuilder& g, int32_t flat, const Weights& w, const Calibration& q) {
  const LinearConstants c = linear_constants(w.fc, q.pointwise);
  const Requant fc_requant = quantize_multiplier(c.bias_scale / q.logits.scale, "export dscnn: linear requantization");
  const int32_t logits = g.s8("logits", {1, kClasses}, contiguous_order(2));
  // As ExecuTorch's exporter writes it: bias None, kernel_sum [1, out].
  g.call(cortex_m::kLinearContract,
         {{"input", GraphArg::of_tensor(flat)},
          {"weights", GraphArg::of_tensor(g.tensor("fc_weight", ScalarType::Char, {kClasses, kC2}, contiguous_order(2),
                                                   GraphTensor::Role::Constant, c.weight))},
          {"kernel_sum", GraphArg::of_tensor(g.int32_vector("fc_kernel_sum", c.kernel_sum, {1, kClasses}))},
          {"input_offset", GraphArg::integer(-q.pointwise.zero_point)},
          {"filter_offset", GraphArg::integer(0)},
          {"output_offset", GraphArg::integer(q.logits.zero_point)},
          {"requantize_multipliers", GraphArg::list({fc_requant.multiplier})},
          {"requantize_shifts", GraphArg::list({fc_requant.shift})},
          {"activation_max", GraphArg::integer(127)},
          {"activation_min", GraphArg::integer(-128)},
          {"out", GraphArg::of_tensor(logits)}});
  return logits;
}

// Softmax into `probabilities` (1/256, -128), with the backend's parameters for
// 5 integer bits: QM of min(scale * 2^26, 2^31 - 1), diff_min = -floor(31 * 2^26 / 2^shift).
int32_t add_softmax(GraphBuilder& g, int32_t logits, const Calibration& q, const Qparams& probabilities) {
  const Requant softmax_requant = quantize_multiplier(std::min(q.logits.scale * std::ldexp(1.0, 26), std::ldexp(1.0, 31) - 1.0),
                                                      "export dscnn: softmax input multiplier");
  const int64_t diff_min = -static_cast<int64_t>(std::floor(31.0 * std::ldexp(1.0, 26) / std::ldexp(1.0, softmax_requant.shift)));
  const int32_t probabilities_q = g.s8("probabilities_q", {1, kClasses}, contiguous_order(2));
  g.call(cortex_m::kSoftmaxContract, {{"input", GraphArg::of_tensor(logits)},
                                      {"dim", GraphArg::integer(-1)},
                                      {"input_zero_point", GraphArg::integer(q.logits.zero_point)},
                                      {"output_zero_point", GraphArg::integer(probabilities.zero_point)},
                                      {"input_multiplier", GraphArg::integer(softmax_requant.multiplier)},
                                      {"input_shift", GraphArg::integer(softmax_requant.shift)},
                                      {"diff_min", GraphArg::integer(diff_min)},
                                      {"out", GraphArg::of_tensor(probabilities_q)}});
  return probabilities_q;
}

}  // namespace

std::vector<float> dscnn_example_input(uint64_t seed) {
  SeededRandom random(seed + 502);
  return normals(random, static_cast<size_t>(kFrames * kFeatures));
}

std::vector<float> dscnn_float_forward(const std::vector<float>& input, uint64_t seed) {
  return forward(draw_weights(seed), input).probabilities;
}

QuantizedGraph build_dscnn_graph(Provider provider, uint64_t seed) {
  const Weights w = draw_weights(seed);
  const Calibration q = calibrate(w, seed);
  GraphBuilder g(kDscnnModel, provider);

  const int32_t x = g.f32("x", kInputSizes, kChannelsLastOrder, GraphTensor::Role::Input);
  const int32_t xq = g.s8("x_q", kInputSizes, kChannelsLastOrder);
  g.per_tensor(cortex_m::kQuantizeContract, x, q.x, xq);
  const int32_t c1_out = add_conv1(g, xq, w, q);
  const int32_t dw_out = add_depthwise(g, c1_out, w, q);
  const int32_t pw_out = add_pointwise(g, dw_out, w, q);
  const int32_t pooled = add_average_pool(g, pw_out, q);
  const int32_t flat = add_flatten(g, pooled);
  const int32_t logits = add_linear(g, flat, w, q);
  const Qparams probabilities{1.0 / 256.0, -128};
  const int32_t probabilities_q = add_softmax(g, logits, q, probabilities);

  const int32_t y = g.f32("y", {1, kClasses}, contiguous_order(2), GraphTensor::Role::Output);
  g.per_tensor(cortex_m::kDequantizeContract, probabilities_q, probabilities, y);
  return g.take();
}

}  // namespace etns::tools
