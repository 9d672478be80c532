#include "tools/writers/export/tier1_models.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/portable/portable.h"
#include "tools/common/failure.h"
#include "tools/writers/export/seeded_random.h"

namespace etns::tools {

using runtime::ScalarType;
using runtime::ValueKind;

const char* to_string(Tier1Model model) {
  return model == Tier1Model::Tier1 ? "tier1" : "tier1mean";
}

Tier1Model parse_model(const std::string& name) {
  if (name == "tier1") return Tier1Model::Tier1;
  if (name == "tier1mean") return Tier1Model::Tier1Mean;
  throw Failure("unknown model '" + name + "', expected tier1 or tier1mean", 2);
}

// ---------------------------------------------------------------------------
// The float side

namespace {

constexpr int32_t kKernel = 3;
constexpr size_t kWeightCount = size_t{kChannels} * kChannels * kKernel * kKernel;
constexpr int32_t kCalibrationSamples = 16;
constexpr float kLeakySlope = 0.125f;

// 3x3 convolution, stride 1, padding 1, NCHW in and out, OIHW weights. Each
// product is exact in double; the sum runs in (ic, ky, kx) order and is
// rounded to float32 once.
std::vector<float> conv3x3(const std::vector<float>& in, const std::vector<float>& w,
                           const std::vector<float>& bias) {
  std::vector<float> out(kSampleSize);
  for (int32_t oc = 0; oc < kChannels; ++oc) {
    for (int32_t y = 0; y < kHeight; ++y) {
      for (int32_t x = 0; x < kWidth; ++x) {
        double acc = bias[oc];
        for (int32_t ic = 0; ic < kChannels; ++ic) {
          for (int32_t ky = 0; ky < kKernel; ++ky) {
            const int32_t iy = y + ky - 1;
            if (iy < 0 || iy >= kHeight) continue;
            for (int32_t kx = 0; kx < kKernel; ++kx) {
              const int32_t ix = x + kx - 1;
              if (ix < 0 || ix >= kWidth) continue;
              const double weight = w[((oc * kChannels + ic) * kKernel + ky) * kKernel + kx];
              acc += weight * in[(ic * kHeight + iy) * kWidth + ix];
            }
          }
        }
        out[(oc * kHeight + y) * kWidth + x] = static_cast<float>(acc);
      }
    }
  }
  return out;
}

float hardswish(float x) { return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f; }

// Every intermediate of tier1's float model (NCHW).
struct Tier1Trace {
  std::vector<float> c1, a, c2, b, d, y;
};

Tier1Trace tier1_trace(const Tier1Weights& weights, const std::vector<float>& input) {
  Tier1Trace t;
  t.c1 = conv3x3(input, weights.conv1, weights.bias1);
  t.a.resize(kSampleSize);
  std::transform(t.c1.begin(), t.c1.end(), t.a.begin(), hardswish);
  t.c2 = conv3x3(t.a, weights.conv2, weights.bias2);
  t.b.resize(kSampleSize);
  std::transform(t.c2.begin(), t.c2.end(), t.b.begin(),
                 [](float v) { return v >= 0.0f ? v : v * kLeakySlope; });
  t.d.resize(kSampleSize);
  for (size_t i = 0; i < kSampleSize; ++i) t.d[i] = t.b[i] - t.a[i];
  t.y.resize(kSampleSize);
  std::transform(t.d.begin(), t.d.end(), t.y.begin(),
                 [](float v) { return std::max(v, 0.0f); });
  return t;
}

std::vector<float> channel_means(const std::vector<float>& input) {
  const size_t count = size_t{kHeight} * kWidth;
  std::vector<float> out(kChannels);
  for (int32_t c = 0; c < kChannels; ++c) {
    const float* p = input.data() + c * count;
    float acc = p[0];
    for (size_t k = 1; k < count; ++k) acc += p[k];
    out[c] = acc / static_cast<float>(count);
  }
  return out;
}

}  // namespace

Tier1Weights tier1_weights(uint64_t seed) {
  SeededRandom rng(seed);
  const double std_dev = std::sqrt(2.0 / (kChannels * kKernel * kKernel));
  Tier1Weights w;
  for (std::vector<float>* conv : {&w.conv1, &w.conv2}) {
    conv->resize(kWeightCount);
    for (float& v : *conv) v = static_cast<float>(std_dev * rng.normal());
  }
  w.bias1.assign(kChannels, 0.0f);
  w.bias2.assign(kChannels, 0.0f);
  return w;
}

std::vector<float> example_input(uint64_t seed) { return SeededRandom(seed + 1).normal_floats(kSampleSize); }

std::vector<std::vector<float>> calibration_samples(uint64_t seed) {
  SeededRandom rng(seed + 2);
  std::vector<std::vector<float>> samples;
  for (int32_t i = 0; i < kCalibrationSamples; ++i) samples.push_back(rng.normal_floats(kSampleSize));
  return samples;
}

std::vector<float> float_forward(Tier1Model model, const Tier1Weights& weights,
                                 const std::vector<float>& input_nchw) {
  if (input_nchw.size() != kSampleSize) throw Failure("float_forward: input is not 1x16x32x32");
  if (model == Tier1Model::Tier1Mean) return channel_means(input_nchw);
  return tier1_trace(weights, input_nchw).y;
}

std::vector<float> to_memory_order(const std::vector<float>& nchw,
                                   const std::vector<int32_t>& sizes,
                                   const std::vector<uint8_t>& dim_order) {
  if (sizes.size() != 4 || dim_order.size() != 4) throw Failure("to_memory_order: not 4-D");
  std::array<size_t, 4> stride{};  // logical (row-major) strides
  size_t s = 1;
  for (int d = 3; d >= 0; --d) {
    stride[d] = s;
    s *= static_cast<size_t>(sizes[d]);
  }
  if (s != nchw.size()) throw Failure("to_memory_order: size mismatch");
  std::vector<float> out;
  out.reserve(s);
  std::array<int32_t, 4> n{};
  for (int d = 0; d < 4; ++d) n[d] = sizes[dim_order[d]];
  for (int32_t i0 = 0; i0 < n[0]; ++i0)
    for (int32_t i1 = 0; i1 < n[1]; ++i1)
      for (int32_t i2 = 0; i2 < n[2]; ++i2)
        for (int32_t i3 = 0; i3 < n[3]; ++i3) {
          const std::array<int32_t, 4> i{i0, i1, i2, i3};
          size_t offset = 0;
          for (int d = 0; d < 4; ++d) offset += static_cast<size_t>(i[d]) * stride[dim_order[d]];
          out.push_back(nchw[offset]);
        }
  return out;
}

// ---------------------------------------------------------------------------
// The quantized graphs

namespace {

const std::vector<uint8_t> kChannelsLast{0, 2, 3, 1};
const std::vector<uint8_t> kContiguous{0, 1, 2, 3};
const std::vector<int32_t> kSampleSizes{1, kChannels, kHeight, kWidth};

// GraphBuilder with tier1's defaults (1x16x32x32 channels_last) and its conv.
class Tier1Builder : public GraphBuilder {
 public:
  using GraphBuilder::GraphBuilder;

  // cortex_m::quantized_conv2d (operators.md §2.3.5): per-channel symmetric
  // int8 weights (PerChannelMinMaxObserver, per_channel_symmetric, [-128, 127]:
  // scale = max|w| / 127.5 in float32, at least eps; q = clamp(round(w * (1 / scale))),
  // float32 reciprocal and product, ties to even), OIHW permuted to OHWI, int32
  // bias at s_in * s_w, (M, S) = QM(s_in * s_w / s_out) in double.
  void conv(const std::string& name, int32_t in, const Qparams& q_in,
            const std::vector<float>& w_oihw, const std::vector<float>& bias, const Qparams& q_out,
            int32_t out) {
    std::vector<uint8_t> weight_bytes(kWeightCount);
    std::vector<int32_t> bias_q(kChannels), multipliers(kChannels), shifts(kChannels);
    const size_t per_channel = kWeightCount / kChannels;
    for (int32_t oc = 0; oc < kChannels; ++oc) {
      const float* w = w_oihw.data() + oc * per_channel;
      float lo = 0.0f, hi = 0.0f;
      for (size_t i = 0; i < per_channel; ++i) {
        lo = std::min(lo, w[i]);
        hi = std::max(hi, w[i]);
      }
      const float scale = std::max(std::max(-lo, hi) / 127.5f, kFloat32Eps);
      const float inverse = 1.0f / scale;
      for (int32_t ic = 0; ic < kChannels; ++ic) {
        for (int32_t ky = 0; ky < kKernel; ++ky) {
          for (int32_t kx = 0; kx < kKernel; ++kx) {
            const float v = w[(ic * kKernel + ky) * kKernel + kx] * inverse;
            const float q = std::clamp(std::nearbyint(v), -128.0f, 127.0f);
            const size_t ohwi = ((static_cast<size_t>(oc) * kKernel + ky) * kKernel + kx) * kChannels + ic;
            weight_bytes[ohwi] = static_cast<uint8_t>(static_cast<int8_t>(q));
          }
        }
      }
      const double bias_scale = q_in.scale * static_cast<double>(scale);
      bias_q[oc] = static_cast<int32_t>(std::nearbyint(bias[oc] / bias_scale));
      const Requant r = quantize_multiplier(bias_scale / q_out.scale, "export tier1: " + name + " requantization");
      multipliers[oc] = r.multiplier;
      shifts[oc] = r.shift;
    }
    const int32_t weight = tensor(name + "_weight", ScalarType::Char, {kChannels, kKernel, kKernel, kChannels},
                                  kContiguous, GraphTensor::Role::Constant, std::move(weight_bytes));
    const int32_t bias_t = int32_vector(name + "_bias", bias_q);
    const int32_t mult_t = int32_vector(name + "_multipliers", multipliers);
    const int32_t shift_t = int32_vector(name + "_shifts", shifts);
    call(cortex_m::kConv2dContract, {{"input", GraphArg::of_tensor(in)},
                                     {"weight", GraphArg::of_tensor(weight)},
                                     {"bias", GraphArg::of_tensor(bias_t)},
                                     {"stride", GraphArg::list({1, 1})},
                                     {"padding", GraphArg::list({1, 1})},
                                     {"dilation", GraphArg::list({1, 1})},
                                     {"input_offset", GraphArg::integer(-q_in.zero_point)},
                                     {"output_offset", GraphArg::integer(q_out.zero_point)},
                                     {"requantize_multipliers", GraphArg::of_tensor(mult_t)},
                                     {"requantize_shifts", GraphArg::of_tensor(shift_t)},
                                     {"activation_min", GraphArg::integer(-128)},
                                     {"activation_max", GraphArg::integer(127)},
                                     {"out", GraphArg::of_tensor(out)}});
  }

  int32_t s8(std::string name, const std::vector<int32_t>& sizes = kSampleSizes,
             const std::vector<uint8_t>& dim_order = kChannelsLast) {
    return GraphBuilder::s8(std::move(name), sizes, dim_order);
  }
  int32_t f32(std::string name, const std::vector<int32_t>& sizes = kSampleSizes,
              const std::vector<uint8_t>& dim_order = kChannelsLast,
              GraphTensor::Role role = GraphTensor::Role::Activation) {
    return GraphBuilder::f32(std::move(name), sizes, dim_order, role);
  }
};

// Calibrated activation quantisation of tier1 (profiler.md §12.4).
struct Tier1Calibration {
  Qparams x, c1, c1_folded, a, c2, b, d, y;
};

Tier1Calibration calibrate_tier1(const Tier1Weights& weights, uint64_t seed) {
  MinMax x, c1, a, c2, b, d, y;
  for (const std::vector<float>& sample : calibration_samples(seed)) {
    const Tier1Trace t = tier1_trace(weights, sample);
    x.add(sample);
    c1.add(t.c1);
    a.add(t.a);
    c2.add(t.c2);
    b.add(t.b);
    d.add(t.d);
    y.add(t.y);
  }
  Tier1Calibration cal;
  cal.x = x.qparams();
  cal.c1 = c1.qparams();
  // The stock hardswish decomposition folds its lower clamp (-3) into conv1's
  // output range (operators.md §2.4).
  cal.c1_folded = observe_min_max(std::max(c1.lo, -3.0f), c1.hi);
  cal.a = a.qparams();
  cal.c2 = c2.qparams();
  cal.b = b.qparams();
  cal.d = d.qparams();
  cal.y = y.qparams();
  return cal;
}

// The last int8 tensor of a tier1 program and its grid: what the final
// dequantize reads.
struct Int8Result {
  int32_t tensor = -1;
  Qparams q;
};

// arm: hardswish on conv1's folded output as minimum + mul.
int32_t add_arm_hardswish(Tier1Builder& g, int32_t c1, const Qparams& q1, const Qparams& q_a) {
  const double three_steps = std::nearbyint(3.0 / q1.scale);  // round(3 / s1)
  const int32_t q3 = static_cast<int32_t>(std::clamp(three_steps + q1.zero_point, -128.0, 127.0));
  const int32_t shifted_zp = q1.zero_point - static_cast<int32_t>(three_steps);
  if (shifted_zp < -128 || shifted_zp > 127) {
    throw Failure("export tier1/arm: hardswish's shifted zero point " + std::to_string(shifted_zp) +
                  " outside [-128, 127] (conv1 output range does not reach -3)");
  }
  const int32_t three = g.tensor("three_q", ScalarType::Char, {}, {}, GraphTensor::Role::Constant,
                                 {static_cast<uint8_t>(static_cast<int8_t>(q3))});
  const int32_t min_out = g.s8("minimum_out");
  g.call(cortex_m::kMinimumContract, {{"self", GraphArg::of_tensor(c1)},
                                      {"other", GraphArg::of_tensor(three)},
                                      {"out", GraphArg::of_tensor(min_out)}});

  // x * (min(x, 3) + 3) / 6: the "+3" is the shifted zero point of `other`,
  // the "/6" part of the output factor.
  const Requant mul = quantize_multiplier(q1.scale * q1.scale / (6.0 * q_a.scale), "export tier1: hardswish mul");
  const int32_t a = g.s8("hardswish_out");
  g.call(cortex_m::kMulContract, {{"self", GraphArg::of_tensor(c1)},
                                  {"self_zero_point", GraphArg::integer(q1.zero_point)},
                                  {"other", GraphArg::of_tensor(min_out)},
                                  {"other_zero_point", GraphArg::integer(shifted_zp)},
                                  {"output_zero_point", GraphArg::integer(q_a.zero_point)},
                                  {"output_multiplier", GraphArg::integer(mul.multiplier)},
                                  {"output_shift", GraphArg::integer(mul.shift)},
                                  {"out", GraphArg::of_tensor(a)}});
  return a;
}

// arm, from hardswish's output on: conv2 in int8, leaky_relu and sub a float
// island, relu an int8 clamp on sub's grid.
Int8Result add_arm_tail(Tier1Builder& g, int32_t a, const Tier1Weights& w, const Tier1Calibration& cal) {
  const int32_t a_f = g.f32("hardswish_out_f");
  g.per_tensor(cortex_m::kDequantizeContract, a, cal.a, a_f);
  const int32_t c2 = g.s8("conv2_out");
  g.conv("conv2", a, cal.a, w.conv2, w.bias2, cal.c2, c2);
  const int32_t c2_f = g.f32("conv2_out_f");
  g.per_tensor(cortex_m::kDequantizeContract, c2, cal.c2, c2_f);
  const int32_t b_f = g.f32("leaky_relu_out_f");
  g.call(portable::kLeakyReluContract, {{"self", GraphArg::of_tensor(c2_f)},
                                        {"negative_slope", GraphArg::real(kLeakySlope)},
                                        {"out", GraphArg::of_tensor(b_f)}});
  const int32_t d_f = g.f32("sub_out_f");
  g.call(portable::kSubContract, {{"self", GraphArg::of_tensor(b_f)},
                                  {"other", GraphArg::of_tensor(a_f)},
                                  {"alpha", GraphArg::integer(1)},
                                  {"out", GraphArg::of_tensor(d_f)}});
  const int32_t d = g.s8("sub_out");
  g.per_tensor(cortex_m::kQuantizeContract, d_f, cal.d, d);
  // relu stays int8 with sub's quantisation: a clamp at the zero point.
  const int32_t y = g.s8("relu_out");
  g.call(portable::kClampContract, {{"self", GraphArg::of_tensor(d)},
                                    {"min", GraphArg::integer(cal.d.zero_point)},
                                    {"out", GraphArg::of_tensor(y)}});
  return {y, cal.d};
}

// arm: 12 instructions: hardswish as minimum + mul, the rest a float island.
Int8Result add_tier1_arm(Tier1Builder& g, int32_t xq, const Tier1Weights& w, const Tier1Calibration& cal) {
  const int32_t c1 = g.s8("conv1_out");
  g.conv("conv1", xq, cal.x, w.conv1, w.bias1, cal.c1_folded, c1);
  const int32_t a = add_arm_hardswish(g, c1, cal.c1_folded, cal.a);
  return add_arm_tail(g, a, w, cal);
}

int32_t add_ns_hardswish(Tier1Builder& g, int32_t c1, const Tier1Calibration& cal) {
  const double relu_q3 = std::nearbyint(3.0 / cal.c1.scale);
  const double relu_q6 = std::nearbyint(6.0 / cal.c1.scale);
  if (relu_q6 < 1.0 || relu_q6 > 4194304.0) {
    throw Failure("export tier1/ns: hardswish relu_q6 outside [1, 2^22]");
  }
  const Requant hs = quantize_multiplier(cal.c1.scale * cal.c1.scale / (6.0 * cal.a.scale), "export tier1: hardswish");
  const int32_t a = g.s8("hardswish_out");
  g.call(cortex_m_ns::kHardswishContract,
         {{"self", GraphArg::of_tensor(c1)},
          {"input_zero_point", GraphArg::integer(cal.c1.zero_point)},
          {"output_zero_point", GraphArg::integer(cal.a.zero_point)},
          {"output_multiplier", GraphArg::integer(hs.multiplier)},
          {"output_shift", GraphArg::integer(hs.shift)},
          {"relu_q3", GraphArg::integer(static_cast<int64_t>(relu_q3))},
          {"relu_q6", GraphArg::integer(static_cast<int64_t>(relu_q6))},
          {"prescale", GraphArg::integer(0)},
          {"out", GraphArg::of_tensor(a)}});
  return a;
}

int32_t add_ns_leaky_relu(Tier1Builder& g, int32_t c2, const Tier1Calibration& cal) {
  const Requant alpha = quantize_multiplier(cal.c2.scale * kLeakySlope / cal.b.scale, "export tier1: leaky_relu alpha");
  const Requant identity =
      same_qparams(cal.c2, cal.b) ? kIdentityRequant : quantize_multiplier(cal.c2.scale / cal.b.scale, "export tier1: leaky_relu identity");
  const int32_t b = g.s8("leaky_relu_out");
  g.call(cortex_m_ns::kLeakyReluContract,
         {{"self", GraphArg::of_tensor(c2)},
          {"input_zero_point", GraphArg::integer(cal.c2.zero_point)},
          {"output_zero_point", GraphArg::integer(cal.b.zero_point)},
          {"alpha_multiplier", GraphArg::integer(alpha.multiplier)},
          {"alpha_shift", GraphArg::integer(alpha.shift)},
          {"identity_multiplier", GraphArg::integer(identity.multiplier)},
          {"identity_shift", GraphArg::integer(identity.shift)},
          {"out", GraphArg::of_tensor(b)}});
  return b;
}

// b - a, stock quantized_add's recipe (operators.md §3.3).
int32_t add_ns_sub(Tier1Builder& g, int32_t b, int32_t a, const Tier1Calibration& cal) {
  const double m2 = 2.0 * std::max(cal.b.scale, cal.a.scale);
  const Requant self_r = quantize_multiplier(cal.b.scale / m2, "export tier1: sub self");
  const Requant other_r = quantize_multiplier(cal.a.scale / m2, "export tier1: sub other");
  const Requant out_r = quantize_multiplier(m2 / (cal.d.scale * 1048576.0), "export tier1: sub output");
  const int32_t d = g.s8("sub_out");
  g.call(cortex_m_ns::kSubContract, {{"self", GraphArg::of_tensor(b)},
                                     {"self_zero_point", GraphArg::integer(cal.b.zero_point)},
                                     {"self_multiplier", GraphArg::integer(self_r.multiplier)},
                                     {"self_shift", GraphArg::integer(self_r.shift)},
                                     {"other", GraphArg::of_tensor(a)},
                                     {"other_zero_point", GraphArg::integer(cal.a.zero_point)},
                                     {"other_multiplier", GraphArg::integer(other_r.multiplier)},
                                     {"other_shift", GraphArg::integer(other_r.shift)},
                                     {"output_zero_point", GraphArg::integer(cal.d.zero_point)},
                                     {"output_multiplier", GraphArg::integer(out_r.multiplier)},
                                     {"output_shift", GraphArg::integer(out_r.shift)},
                                     {"activation_min", GraphArg::integer(-128)},
                                     {"activation_max", GraphArg::integer(127)},
                                     {"out", GraphArg::of_tensor(d)}});
  return d;
}

int32_t add_ns_relu(Tier1Builder& g, int32_t d, const Tier1Calibration& cal) {
  const Requant relu_r =
      same_qparams(cal.d, cal.y) ? kIdentityRequant : quantize_multiplier(cal.d.scale / cal.y.scale, "export tier1: relu");
  const int32_t y = g.s8("relu_out");
  g.call(cortex_m_ns::kReluContract, {{"self", GraphArg::of_tensor(d)},
                                      {"input_zero_point", GraphArg::integer(cal.d.zero_point)},
                                      {"output_zero_point", GraphArg::integer(cal.y.zero_point)},
                                      {"output_multiplier", GraphArg::integer(relu_r.multiplier)},
                                      {"output_shift", GraphArg::integer(relu_r.shift)},
                                      {"activation_min", GraphArg::integer(quantize_value(0.0, cal.y))},
                                      {"activation_max", GraphArg::integer(127)},
                                      {"out", GraphArg::of_tensor(y)}});
  return y;
}

// ns: 8 instructions, all int8 between the first quantize and the last dequantize.
Int8Result add_tier1_ns(Tier1Builder& g, int32_t xq, const Tier1Weights& w, const Tier1Calibration& cal) {
  const int32_t c1 = g.s8("conv1_out");
  g.conv("conv1", xq, cal.x, w.conv1, w.bias1, cal.c1, c1);
  const int32_t a = add_ns_hardswish(g, c1, cal);
  const int32_t c2 = g.s8("conv2_out");
  g.conv("conv2", a, cal.a, w.conv2, w.bias2, cal.c2, c2);
  const int32_t b = add_ns_leaky_relu(g, c2, cal);
  const int32_t d = add_ns_sub(g, b, a, cal);
  return {add_ns_relu(g, d, cal), cal.y};
}

QuantizedGraph build_tier1(Provider provider, uint64_t seed) {
  const Tier1Weights w = tier1_weights(seed);
  const Tier1Calibration cal = calibrate_tier1(w, seed);
  Tier1Builder g(to_string(Tier1Model::Tier1), provider);
  using Role = GraphTensor::Role;

  const int32_t input = g.f32("input", kSampleSizes, kChannelsLast, Role::Input);
  const int32_t xq = g.s8("input_q");
  g.per_tensor(cortex_m::kQuantizeContract, input, cal.x, xq);
  const Int8Result y = provider == Provider::Arm ? add_tier1_arm(g, xq, w, cal) : add_tier1_ns(g, xq, w, cal);
  const int32_t out = g.f32("output", kSampleSizes, kChannelsLast, Role::Output);
  g.per_tensor(cortex_m::kDequantizeContract, y.tensor, y.q, out);
  return g.take();
}

QuantizedGraph build_tier1mean(Provider provider, uint64_t seed) {
  MinMax x, m;
  for (const std::vector<float>& sample : calibration_samples(seed)) {
    x.add(sample);
    m.add(channel_means(sample));
  }
  const Qparams q_x = x.qparams(), q_m = m.qparams();
  const std::vector<int32_t> mean_sizes{1, kChannels, 1, 1};

  Tier1Builder g(to_string(Tier1Model::Tier1Mean), provider);
  using Role = GraphTensor::Role;
  const int32_t input = g.f32("input", kSampleSizes, kContiguous, Role::Input);
  const int32_t xq = g.s8("input_q", kSampleSizes, kContiguous);
  g.per_tensor(cortex_m::kQuantizeContract, input, q_x, xq);
  const int32_t mq = g.s8("mean_out", mean_sizes, kContiguous);
  if (provider == Provider::Arm) {
    const int32_t x_f = g.f32("input_dq", kSampleSizes, kContiguous);
    g.per_tensor(cortex_m::kDequantizeContract, xq, q_x, x_f);
    const int32_t m_f = g.f32("mean_out_f", mean_sizes, kContiguous);
    g.call(portable::kMeanContract, {{"self", GraphArg::of_tensor(x_f)},
                                     {"dim", GraphArg::list({2, 3})},
                                     {"keepdim", GraphArg::boolean(true)},
                                     {"dtype", GraphArg::null()},
                                     {"out", GraphArg::of_tensor(m_f)}});
    g.per_tensor(cortex_m::kQuantizeContract, m_f, q_m, mq);
  } else {
    const Requant r = quantize_multiplier(
        q_x.scale / (q_m.scale * static_cast<double>(kHeight * kWidth)), "export tier1mean: mean");
    g.call(cortex_m_ns::kMeanContract, {{"self", GraphArg::of_tensor(xq)},
                                        {"input_zero_point", GraphArg::integer(q_x.zero_point)},
                                        {"axis_mask", GraphArg::list({0, 0, 1, 1})},
                                        {"keepdim", GraphArg::boolean(true)},
                                        {"output_zero_point", GraphArg::integer(q_m.zero_point)},
                                        {"output_multiplier", GraphArg::integer(r.multiplier)},
                                        {"output_shift", GraphArg::integer(r.shift)},
                                        {"out", GraphArg::of_tensor(mq)}});
  }
  const int32_t out = g.f32("output", mean_sizes, kContiguous, Role::Output);
  g.per_tensor(cortex_m::kDequantizeContract, mq, q_m, out);
  return g.take();
}

}  // namespace

QuantizedGraph build_quantized_graph(Tier1Model model, Provider provider, uint64_t seed) {
  return model == Tier1Model::Tier1 ? build_tier1(provider, seed) : build_tier1mean(provider, seed);
}

}  // namespace etns::tools
