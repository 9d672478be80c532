#include "tools/import/tflm_numerics.h"

#include <algorithm>
#include <cmath>

#include "tools/common/failure.h"

namespace etns::tools::tflm {

Requant quantize_multiplier(double x, const std::string& what) {
  if (!(x >= 0.0) || !std::isfinite(x)) throw Failure(what + ": factor is not finite and >= 0");
  if (x == 0.0) return {};
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  int64_t multiplier = static_cast<int64_t>(std::round(mantissa * 2147483648.0));
  if (multiplier == (int64_t{1} << 31)) {
    multiplier = int64_t{1} << 30;
    exponent += 1;
  }
  // Below 2^-32 the factor rounds every int32 accumulator to 0: TFLM
  // flushes it, and so do we (the channel outputs its zero point).
  if (exponent < -31) return {};
  if (exponent > 30) throw Failure(what + ": factor " + std::to_string(x) + " needs a left shift above 30");
  return {static_cast<int32_t>(multiplier), exponent};
}

Requant conv_channel_multiplier(float s_in, float s_w, float s_out, const std::string& what) {
  return quantize_multiplier(static_cast<double>(s_in) * static_cast<double>(s_w) / static_cast<double>(s_out), what);
}

Requant fully_connected_multiplier(float s_in, float s_w, float s_out, const std::string& what) {
  const float product = s_in * s_w;  // float32 on purpose: TFLM rounds the product first
  return quantize_multiplier(static_cast<double>(product) / static_cast<double>(s_out), what);
}

ActivationRange activation_range(tflite::Activation activation, float s_out, int32_t zp_out,
                                 const std::string& what) {
  const auto quantize = [&](float x) {
    const float q = std::round(x / s_out);
    if (!(q >= -2147483648.0F && q <= 2147483520.0F)) {
      throw Failure(what + ": activation bound " + std::to_string(x) + " leaves int32 on the output grid");
    }
    return zp_out + static_cast<int32_t>(q);
  };
  ActivationRange r;
  switch (activation) {
    case tflite::Activation::None: break;
    case tflite::Activation::Relu: r.min = std::max(r.min, quantize(0.0F)); break;
    case tflite::Activation::Relu6:
      r.min = std::max(r.min, quantize(0.0F));
      r.max = std::min(r.max, quantize(6.0F));
      break;
    case tflite::Activation::ReluN1To1:
      r.min = std::max(r.min, quantize(-1.0F));
      r.max = std::min(r.max, quantize(1.0F));
      break;
    default:
      throw Failure(what + ": fused activation " + tflite::to_string(activation) +
                    " has no clamp form (only NONE, RELU, RELU6 and RELU_N1_TO_1 are imported)");
  }
  if (r.min > r.max) {
    throw Failure(what + ": fused activation " + tflite::to_string(activation) + " gives an empty range [" +
                  std::to_string(r.min) + ", " + std::to_string(r.max) + "] on the output grid");
  }
  return r;
}

SpatialPadding spatial_padding(tflite::Padding padding, int32_t in, int32_t filter, int32_t stride,
                               int32_t dilation) {
  const int64_t effective = (static_cast<int64_t>(filter) - 1) * dilation + 1;
  SpatialPadding p;
  if (padding == tflite::Padding::Same) {
    p.out = static_cast<int32_t>((static_cast<int64_t>(in) + stride - 1) / stride);
    const int64_t total = std::max<int64_t>((static_cast<int64_t>(p.out) - 1) * stride + effective - in, 0);
    p.near = static_cast<int32_t>(total / 2);
    p.far = static_cast<int32_t>(total - total / 2);
  } else {
    p.out = static_cast<int32_t>(std::max<int64_t>((static_cast<int64_t>(in) - effective + stride) / stride, 0));
  }
  return p;
}

SoftmaxParams softmax_params(float beta, float s_in, const std::string& what) {
  constexpr int kScaledDiffIntegerBits = 5;
  const double real = std::min(static_cast<double>(beta) * static_cast<double>(s_in) *
                                   static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)),
                               2147483647.0);
  const Requant q = quantize_multiplier(real, what + ": softmax input multiplier");
  if (q.shift < 0) throw Failure(what + ": softmax beta * input scale * 2^26 is below 1 (TFLM needs a left shift)");
  SoftmaxParams p;
  p.multiplier = q.multiplier;
  p.left_shift = q.shift;
  const double radius = 1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
                        static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
                        static_cast<double>(int64_t{1} << p.left_shift);
  p.diff_min = -static_cast<int32_t>(std::floor(radius));
  return p;
}

AddParams add_params(float s1, float s2, float s_out, const std::string& what) {
  constexpr int kLeftShift = 20;
  const double twice_max = 2.0 * static_cast<double>(std::max(s1, s2));
  AddParams p;
  p.input1 = quantize_multiplier(static_cast<double>(s1) / twice_max, what + ": input 1 multiplier");
  p.input2 = quantize_multiplier(static_cast<double>(s2) / twice_max, what + ": input 2 multiplier");
  p.output = quantize_multiplier(twice_max / (static_cast<double>(1 << kLeftShift) * static_cast<double>(s_out)),
                                 what + ": output multiplier");
  return p;
}

Requant mul_multiplier(float s1, float s2, float s_out, const std::string& what) {
  return quantize_multiplier(static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(s_out), what);
}

}  // namespace etns::tools::tflm
