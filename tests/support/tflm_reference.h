#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "tools/writers/tflite/tflite_model.h"

// TensorFlow Lite Micro's int8 reference arithmetic, written for the tests
// from tflite-micro's public sources: quantization_util.cc
// (QuantizeMultiplier), common.h (MultiplyByQuantizedMultiplier,
// GetReciprocal), gemmlowp's fixedpoint.h (softmax's exp and reciprocal),
// kernel_util.cc (CalculateActivationRangeQuantized,
// GetQuantizedConvolutionMultipler), padding.h, the kernels' Prepare
// functions for the parameters and reference/*.h, reference/integer_ops/*.h
// for the loops. It is what `etns import`'s programs must compute byte for
// byte, and it shares no code with tools/writers/import: a wrong parameter there
// shows up here. Plain loops in TFLM's own order, NHWC, row-major.
namespace etns::testing::tflm {

using tools::tflite::Activation;
using tools::tflite::Padding;

// ---- quantization_util.cc, common.h ----

struct Multiplier {
  int32_t multiplier = 0;
  int shift = 0;  // > 0 shifts left first, < 0 right after
};

// QuantizeMultiplier: frexp, halves away from zero, 2^31 carried into the
// exponent, factors below 2^-31 flushed to (0, 0).
inline Multiplier quantize_multiplier(double x) {
  if (x == 0.0) return {};
  int shift = 0;
  const double q = std::frexp(x, &shift);
  auto fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) return {};
  return {static_cast<int32_t>(fixed), shift};
}

// gemmlowp::SaturatingRoundingDoublingHighMul.
inline int32_t doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

// gemmlowp::RoundingDivideByPOT: halves away from zero.
inline int32_t divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// x * 2^shift before the multiply in int32, wrapping as TFLM's int32
// multiply does on the M55.
inline int32_t shift_left(int32_t x, int shift) {
  return static_cast<int32_t>(static_cast<uint32_t>(x) << shift);
}

// MultiplyByQuantizedMultiplier (the double-rounding form TFLM builds by
// default).
inline int32_t multiply(int32_t x, const Multiplier& m) {
  const int left = m.shift > 0 ? m.shift : 0, right = m.shift > 0 ? 0 : -m.shift;
  return divide_by_pot(doubling_high_mul(shift_left(x, left), m.multiplier), right);
}

inline int8_t clamp8(int32_t v, int32_t lo, int32_t hi) {
  return static_cast<int8_t>(std::min(std::max(v, lo), hi));
}

// ---- kernel_util.cc ----

struct Range {
  int32_t min = -128;
  int32_t max = 127;
};

// CalculateActivationRangeQuantized for int8: zp + round(f / s) in float,
// halves away from zero; any other activation keeps the int8 range.
inline Range activation_range(Activation a, float scale, int32_t zero_point) {
  const auto q = [&](float f) { return zero_point + static_cast<int32_t>(std::round(f / scale)); };
  Range r;
  if (a == Activation::Relu) {
    r.min = std::max(r.min, q(0.0F));
  } else if (a == Activation::Relu6) {
    r.min = std::max(r.min, q(0.0F));
    r.max = std::min(r.max, q(6.0F));
  } else if (a == Activation::ReluN1To1) {
    r.min = std::max(r.min, q(-1.0F));
    r.max = std::min(r.max, q(1.0F));
  }
  return r;
}

// PopulateConvolutionQuantizationParams, per channel: all in double.
inline std::vector<Multiplier> conv_multipliers(float s_in, const std::vector<float>& s_w, float s_out) {
  std::vector<Multiplier> m;
  for (const float s : s_w) {
    m.push_back(quantize_multiplier(static_cast<double>(s_in) * static_cast<double>(s) / static_cast<double>(s_out)));
  }
  return m;
}

// GetQuantizedConvolutionMultipler without a bias (FULLY_CONNECTED,
// BATCH_MATMUL): the scale product is a float32 product.
inline Multiplier product_multiplier(float s_in, float s_w, float s_out) {
  return quantize_multiplier(static_cast<double>(s_in * s_w) / static_cast<double>(s_out));
}

// MUL's factor (CalculateOpDataMul): the product in double.
inline Multiplier mul_multiplier(float s1, float s2, float s_out) {
  return quantize_multiplier(static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(s_out));
}

// ---- padding.h ----

struct Padded {
  int32_t out = 0;  // ComputeOutSize
  int32_t pad = 0;  // the near side (ComputePaddingWithOffset)
};

inline Padded compute_padding(Padding padding, int32_t in, int32_t filter, int32_t stride, int32_t dilation) {
  const int32_t effective = (filter - 1) * dilation + 1;
  Padded p;
  p.out = padding == Padding::Same ? (in + stride - 1) / stride : (in + stride - effective) / stride;
  const int32_t total = std::max((p.out - 1) * stride + effective - in, 0);
  p.pad = total / 2;
  return p;
}

inline size_t offset4(const std::vector<int32_t>& s, int32_t a, int32_t b, int32_t c, int32_t d) {
  return ((static_cast<size_t>(a) * static_cast<size_t>(s[1]) + static_cast<size_t>(b)) * static_cast<size_t>(s[2]) +
          static_cast<size_t>(c)) *
             static_cast<size_t>(s[3]) +
         static_cast<size_t>(d);
}

inline size_t count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (const int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// ---- Convolutions (integer_ops/conv.h, depthwise_conv.h, transpose_conv.h) ----

struct Conv {
  std::vector<int32_t> input_shape;   // NHWC
  std::vector<int32_t> filter_shape;  // conv and transpose conv OHWI, depthwise [1, KH, KW, Cout]
  std::vector<int32_t> output_shape;  // NHWC
  int32_t stride_h = 1, stride_w = 1;
  int32_t dilation_h = 1, dilation_w = 1;
  int32_t pad_h = 0, pad_w = 0;
  int32_t input_offset = 0;   // -zp_in
  int32_t output_offset = 0;  // zp_out
  Range range;
  std::vector<Multiplier> multipliers;  // one per output channel
};

// ConvPerChannel, groups included (input channel = group * filter depth + i).
inline std::vector<int8_t> conv(const Conv& p, const std::vector<int8_t>& in, const std::vector<int8_t>& w,
                                const std::vector<int32_t>& bias) {
  const auto& is = p.input_shape;
  const auto& fs = p.filter_shape;
  const auto& os = p.output_shape;
  const int32_t filter_depth = fs[3], groups = is[3] / filter_depth, per_group = os[3] / groups;
  std::vector<int8_t> out(count(os));
  for (int32_t b = 0; b < os[0]; ++b) {
    for (int32_t oy = 0; oy < os[1]; ++oy) {
      for (int32_t ox = 0; ox < os[2]; ++ox) {
        for (int32_t oc = 0; oc < os[3]; ++oc) {
          const int32_t group = oc / per_group;
          int32_t acc = 0;
          for (int32_t fy = 0; fy < fs[1]; ++fy) {
            for (int32_t fx = 0; fx < fs[2]; ++fx) {
              const int32_t iy = oy * p.stride_h - p.pad_h + p.dilation_h * fy;
              const int32_t ix = ox * p.stride_w - p.pad_w + p.dilation_w * fx;
              if (iy < 0 || iy >= is[1] || ix < 0 || ix >= is[2]) continue;
              for (int32_t ic = 0; ic < filter_depth; ++ic) {
                const int32_t v = in[offset4(is, b, iy, ix, group * filter_depth + ic)];
                acc += w[offset4(fs, oc, fy, fx, ic)] * (v + p.input_offset);
              }
            }
          }
          if (!bias.empty()) acc += bias[static_cast<size_t>(oc)];
          acc = multiply(acc, p.multipliers[static_cast<size_t>(oc)]) + p.output_offset;
          out[offset4(os, b, oy, ox, oc)] = clamp8(acc, p.range.min, p.range.max);
        }
      }
    }
  }
  return out;
}

// DepthwiseConvPerChannel: output channel = input channel * multiplier + m.
inline std::vector<int8_t> depthwise_conv(const Conv& p, const std::vector<int8_t>& in, const std::vector<int8_t>& w,
                                          const std::vector<int32_t>& bias) {
  const auto& is = p.input_shape;
  const auto& fs = p.filter_shape;
  const auto& os = p.output_shape;
  const int32_t depth_multiplier = os[3] / is[3];
  std::vector<int8_t> out(count(os));
  for (int32_t b = 0; b < os[0]; ++b) {
    for (int32_t oy = 0; oy < os[1]; ++oy) {
      for (int32_t ox = 0; ox < os[2]; ++ox) {
        for (int32_t ic = 0; ic < is[3]; ++ic) {
          for (int32_t m = 0; m < depth_multiplier; ++m) {
            const int32_t oc = ic * depth_multiplier + m;
            int32_t acc = 0;
            for (int32_t fy = 0; fy < fs[1]; ++fy) {
              for (int32_t fx = 0; fx < fs[2]; ++fx) {
                const int32_t iy = oy * p.stride_h - p.pad_h + p.dilation_h * fy;
                const int32_t ix = ox * p.stride_w - p.pad_w + p.dilation_w * fx;
                if (iy < 0 || iy >= is[1] || ix < 0 || ix >= is[2]) continue;
                const int32_t v = in[offset4(is, b, iy, ix, ic)];
                acc += w[offset4(fs, 0, fy, fx, oc)] * (v + p.input_offset);
              }
            }
            if (!bias.empty()) acc += bias[static_cast<size_t>(oc)];
            acc = multiply(acc, p.multipliers[static_cast<size_t>(oc)]) + p.output_offset;
            out[offset4(os, b, oy, ox, oc)] = clamp8(acc, p.range.min, p.range.max);
          }
        }
      }
    }
  }
  return out;
}

// TransposeConv: every input value scattered through every tap into an int32
// image of the output's size (taps landing outside it dropped), then bias,
// requantisation and the clamp. pad_h / pad_w are TFLM's, computed from the
// output size (transpose_padding).
inline std::vector<int8_t> transpose_conv(const Conv& p, const std::vector<int8_t>& in, const std::vector<int8_t>& w,
                                          const std::vector<int32_t>& bias) {
  const auto& is = p.input_shape;
  const auto& fs = p.filter_shape;
  const auto& os = p.output_shape;
  std::vector<int32_t> acc(count(os), 0);
  for (int32_t b = 0; b < is[0]; ++b) {
    for (int32_t iy = 0; iy < is[1]; ++iy) {
      for (int32_t ix = 0; ix < is[2]; ++ix) {
        for (int32_t ic = 0; ic < is[3]; ++ic) {
          for (int32_t fy = 0; fy < fs[1]; ++fy) {
            for (int32_t fx = 0; fx < fs[2]; ++fx) {
              const int32_t oy = iy * p.stride_h - p.pad_h + fy, ox = ix * p.stride_w - p.pad_w + fx;
              if (oy < 0 || oy >= os[1] || ox < 0 || ox >= os[2]) continue;
              for (int32_t oc = 0; oc < os[3]; ++oc) {
                const int32_t v = in[offset4(is, b, iy, ix, ic)];
                acc[offset4(os, b, oy, ox, oc)] += (v + p.input_offset) * w[offset4(fs, oc, fy, fx, ic)];
              }
            }
          }
        }
      }
    }
  }
  std::vector<int8_t> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const auto oc = static_cast<size_t>(i % static_cast<size_t>(os[3]));
    int32_t a = acc[i];
    if (!bias.empty()) a += bias[oc];
    a = multiply(a, p.multipliers[oc]) + p.output_offset;
    out[i] = clamp8(a, p.range.min, p.range.max);
  }
  return out;
}

// TRANSPOSE_CONV's padding: ComputePaddingHeightWidth with the OUTPUT size
// as its "input" and dilation 1.
inline int32_t transpose_padding(Padding padding, int32_t output_size, int32_t filter, int32_t stride) {
  return compute_padding(padding, output_size, filter, stride, 1).pad;
}

// ---- fully_connected.h ----

inline std::vector<int8_t> fully_connected(const std::vector<int8_t>& in, int32_t batches, int32_t depth,
                                           const std::vector<int8_t>& w, int32_t units, const std::vector<int32_t>& bias,
                                           int32_t input_offset, int32_t output_offset, const Multiplier& m,
                                           const Range& r) {
  std::vector<int8_t> out(static_cast<size_t>(batches) * static_cast<size_t>(units));
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t u = 0; u < units; ++u) {
      int32_t acc = 0;
      for (int32_t d = 0; d < depth; ++d) {
        acc += w[static_cast<size_t>(u * depth + d)] * (in[static_cast<size_t>(b * depth + d)] + input_offset);
      }
      // The bias added wrapping, as TFLM's int32 accumulator wraps on its targets.
      if (!bias.empty()) acc = static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(bias[static_cast<size_t>(u)]));
      out[static_cast<size_t>(b * units + u)] = clamp8(multiply(acc, m) + output_offset, r.min, r.max);
    }
  }
  return out;
}

// FullyConnectedPerChannel: unit u's accumulator (bias included)
// requantised by its own multiplier (CalculateOpDataFullyConnected:
// double(s_in) double(s_w[u]) / double(s_out)).
inline std::vector<int8_t> fully_connected_per_channel(const std::vector<int8_t>& in, int32_t batches, int32_t depth,
                                                       const std::vector<int8_t>& w, int32_t units,
                                                       const std::vector<int32_t>& bias, int32_t input_offset,
                                                       int32_t output_offset, const std::vector<Multiplier>& m,
                                                       const Range& r) {
  std::vector<int8_t> out(static_cast<size_t>(batches) * static_cast<size_t>(units));
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t u = 0; u < units; ++u) {
      int32_t acc = bias.empty() ? 0 : bias[static_cast<size_t>(u)];
      for (int32_t d = 0; d < depth; ++d) {
        acc += w[static_cast<size_t>(u * depth + d)] * (in[static_cast<size_t>(b * depth + d)] + input_offset);
      }
      out[static_cast<size_t>(b * units + u)] =
          clamp8(multiply(acc, m[static_cast<size_t>(u)]) + output_offset, r.min, r.max);
    }
  }
  return out;
}

// ---- integer_ops/pooling.h ----

struct Pool {
  std::vector<int32_t> input_shape, output_shape;  // NHWC
  int32_t filter_h = 1, filter_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  Range range;
};

// AveragePool (the mean of the taps inside the input, halves away from zero)
// or MaxPool (the largest of them), then the clamp.
inline std::vector<int8_t> pool(const Pool& p, bool max, const std::vector<int8_t>& in) {
  const auto& is = p.input_shape;
  const auto& os = p.output_shape;
  std::vector<int8_t> out(count(os));
  for (int32_t b = 0; b < os[0]; ++b) {
    for (int32_t oy = 0; oy < os[1]; ++oy) {
      for (int32_t ox = 0; ox < os[2]; ++ox) {
        for (int32_t c = 0; c < os[3]; ++c) {
          const int32_t y0 = oy * p.stride_h - p.pad_h, x0 = ox * p.stride_w - p.pad_w;
          const int32_t fy0 = std::max(0, -y0), fy1 = std::min(p.filter_h, is[1] - y0);
          const int32_t fx0 = std::max(0, -x0), fx1 = std::min(p.filter_w, is[2] - x0);
          int32_t acc = max ? -128 : 0, n = 0;
          for (int32_t fy = fy0; fy < fy1; ++fy) {
            for (int32_t fx = fx0; fx < fx1; ++fx) {
              const int32_t v = in[offset4(is, b, y0 + fy, x0 + fx, c)];
              acc = max ? std::max(acc, v) : acc + v;
              ++n;
            }
          }
          if (!max) acc = acc > 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
          out[offset4(os, b, oy, ox, c)] = clamp8(acc, p.range.min, p.range.max);
        }
      }
    }
  }
  return out;
}

// ---- Broadcasting (NdArrayDesc: sizes right-aligned, a size-1 dim repeats) ----

// The element of a tensor of `shape` that output element `index` (row-major
// in `out`) reads.
inline size_t broadcast_source(size_t index, const std::vector<int32_t>& shape, const std::vector<int32_t>& out) {
  size_t source = 0, stride = 1;
  for (size_t k = out.size(); k-- > 0;) {
    const auto coordinate = static_cast<size_t>(index % static_cast<size_t>(out[k]));
    index /= static_cast<size_t>(out[k]);
    const size_t j = k + shape.size();
    if (j < out.size()) continue;
    const auto size = static_cast<size_t>(shape[j - out.size()]);
    if (size != 1) source += coordinate * stride;
    stride *= size;
  }
  return source;
}

// ---- add.h, mul.h, maximum_minimum.h ----

struct Add {
  int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;
  Multiplier input1, input2, output;
  Range range;
};

// CalculateOpDataAdd for int8: left shift 20, both inputs on twice the
// larger scale.
inline Add add_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out, const Range& r) {
  Add p;
  p.input1_offset = -zp1;
  p.input2_offset = -zp2;
  p.output_offset = zp_out;
  const double twice_max = 2.0 * static_cast<double>(std::max(s1, s2));
  p.input1 = quantize_multiplier(static_cast<double>(s1) / twice_max);
  p.input2 = quantize_multiplier(static_cast<double>(s2) / twice_max);
  p.output = quantize_multiplier(twice_max / ((1 << 20) * static_cast<double>(s_out)));
  p.range = r;
  return p;
}

inline std::vector<int8_t> add(const Add& p, const std::vector<int8_t>& a, const std::vector<int32_t>& sa,
                               const std::vector<int8_t>& b, const std::vector<int32_t>& sb,
                               const std::vector<int32_t>& out_shape) {
  std::vector<int8_t> out(count(out_shape));
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t x = (p.input1_offset + a[broadcast_source(i, sa, out_shape)]) * (1 << 20);
    const int32_t y = (p.input2_offset + b[broadcast_source(i, sb, out_shape)]) * (1 << 20);
    const int32_t sum = multiply(x, p.input1) + multiply(y, p.input2);
    out[i] = clamp8(multiply(sum, p.output) + p.output_offset, p.range.min, p.range.max);
  }
  return out;
}

// CalculateOpDataSub for int8: ADD's parameters but each ratio computed in
// float32 and only then widened.
inline Add sub_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out, const Range& r) {
  Add p;
  p.input1_offset = -zp1;
  p.input2_offset = -zp2;
  p.output_offset = zp_out;
  const float twice_max = 2 * std::max(s1, s2);
  p.input1 = quantize_multiplier(static_cast<double>(s1 / twice_max));
  p.input2 = quantize_multiplier(static_cast<double>(s2 / twice_max));
  p.output = quantize_multiplier(static_cast<double>(twice_max / ((1 << 20) * s_out)));
  p.range = r;
  return p;
}

// SubElementwise / BroadcastQuantSubSlow for int8: the second scaled input
// subtracted.
inline std::vector<int8_t> sub(const Add& p, const std::vector<int8_t>& a, const std::vector<int32_t>& sa,
                               const std::vector<int8_t>& b, const std::vector<int32_t>& sb,
                               const std::vector<int32_t>& out_shape) {
  std::vector<int8_t> out(count(out_shape));
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t x = (p.input1_offset + a[broadcast_source(i, sa, out_shape)]) * (1 << 20);
    const int32_t y = (p.input2_offset + b[broadcast_source(i, sb, out_shape)]) * (1 << 20);
    const int32_t difference = multiply(x, p.input1) - multiply(y, p.input2);
    out[i] = clamp8(multiply(difference, p.output) + p.output_offset, p.range.min, p.range.max);
  }
  return out;
}

// MulElementwise / BroadcastMul4DSlow: (a - zp_a)(b - zp_b) requantised by
// s_a s_b / s_out (in double), then the clamp.
inline std::vector<int8_t> mul(const std::vector<int8_t>& a, const std::vector<int32_t>& sa, int32_t zp_a,
                               const std::vector<int8_t>& b, const std::vector<int32_t>& sb, int32_t zp_b,
                               const std::vector<int32_t>& out_shape, int32_t zp_out, const Multiplier& m,
                               const Range& r) {
  std::vector<int8_t> out(count(out_shape));
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t x = a[broadcast_source(i, sa, out_shape)] - zp_a, y = b[broadcast_source(i, sb, out_shape)] - zp_b;
    out[i] = clamp8(zp_out + multiply(x * y, m), r.min, r.max);
  }
  return out;
}

// MaximumMinimumBroadcastSlow: the codes compared as they are.
inline std::vector<int8_t> min_max(bool maximum, const std::vector<int8_t>& a, const std::vector<int32_t>& sa,
                                   const std::vector<int8_t>& b, const std::vector<int32_t>& sb,
                                   const std::vector<int32_t>& out_shape) {
  std::vector<int8_t> out(count(out_shape));
  for (size_t i = 0; i < out.size(); ++i) {
    const int8_t x = a[broadcast_source(i, sa, out_shape)], y = b[broadcast_source(i, sb, out_shape)];
    out[i] = maximum ? (x > y ? x : y) : (x < y ? x : y);
  }
  return out;
}

// ---- softmax.h (int8 in, int8 out) with gemmlowp's fixed point ----

// SaturatingRoundingMultiplyByPOT: a saturating left shift, or a rounding
// right shift.
inline int32_t multiply_by_pot(int32_t x, int exponent) {
  if (exponent < 0) return divide_by_pot(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return std::numeric_limits<int32_t>::max();
  if (x < -threshold) return std::numeric_limits<int32_t>::min();
  return shift_left(x, exponent);
}

// e^v for v in [-1/4, 0), every value with 0 integer bits
// (fixedpoint.h's exp_on_interval_between_negative_one_quarter_and_0_excl):
// four terms of the Taylor series around -1/8.
inline int32_t exp_in_last_quarter(int32_t value) {
  const int32_t e_minus_eighth = 1895147668;
  const int32_t third = 715827883;
  const int32_t t = value + (1 << 28);  // distance from -1/8
  const int32_t t_squared = doubling_high_mul(t, t);
  const int32_t t_cubed = doubling_high_mul(t_squared, t);
  const int32_t t_fourth = doubling_high_mul(t_squared, t_squared);
  const int32_t t_fourth_over_4 = multiply_by_pot(t_fourth, -2);
  const int32_t higher_terms = multiply_by_pot(doubling_high_mul(t_fourth_over_4 + t_cubed, third) + t_squared, -1);
  return e_minus_eighth + doubling_high_mul(e_minus_eighth, t + higher_terms);
}

// e^v for v <= 0 held with `integer_bits` integer bits; the result has 0
// integer bits (fixedpoint.h's exp_on_negative_values). v is split into a
// part in [-1/4, 0), done by the series, and whole quarters, each set bit of
// which multiplies by a constant e^(-2^k).
inline int32_t exp_of_negative(int32_t value, int integer_bits) {
  const int fraction_bits = 31 - integer_bits;
  const int32_t quarter = 1 << (fraction_bits - 2);
  const int32_t in_last_quarter = (value & (quarter - 1)) - quarter;
  int32_t result = exp_in_last_quarter(multiply_by_pot(in_last_quarter, integer_bits));
  const int32_t quarters_removed = in_last_quarter - value;
  const struct {
    int power;       // this bit stands for 2^power
    int32_t factor;  // e^(-2^power), 0 integer bits
  } kFactors[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
                  {2, 39332535},    {3, 720401},      {4, 242}};
  for (const auto& bit : kFactors) {
    if (integer_bits > bit.power && (quarters_removed & (1 << (fraction_bits + bit.power))) != 0) {
      result = doubling_high_mul(result, bit.factor);
    }
  }
  if (integer_bits > 5 && value < -(1 << (36 - integer_bits))) result = 0;
  if (value == 0) result = std::numeric_limits<int32_t>::max();
  return result;
}

// 1 / (1 + f) for f in [0, 1) (fixedpoint.h's
// one_over_one_plus_x_for_x_in_0_1): three Newton-Raphson steps from a
// straight-line first guess, on half the divisor.
inline int32_t inverse_of_one_plus(int32_t fraction) {
  const int64_t sum = int64_t{fraction} + std::numeric_limits<int32_t>::max();
  const auto half_divisor = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);  // RoundingHalfSum
  const int32_t guess_offset = 1515870810, guess_slope = -1010580540;  // 48/17 and -32/17, 2 integer bits
  int32_t estimate = guess_offset + doubling_high_mul(half_divisor, guess_slope);
  for (int step = 0; step < 3; ++step) {
    const int32_t product = doubling_high_mul(half_divisor, estimate);
    const int32_t shortfall = (1 << 29) - product;
    estimate = estimate + multiply_by_pot(doubling_high_mul(estimate, shortfall), 2);
  }
  return multiply_by_pot(estimate, 1);  // ExactMulByPot<-1>, then Rescale<0>
}

// 1 / value for a positive value with `integer_bits` integer bits (common.h's
// GetReciprocal): the value is normalised to 1 + f, so the inverse is
// inverse_of_one_plus(f) scaled by 2^-(*exponent).
inline int32_t reciprocal(int32_t value, int integer_bits, int* exponent) {
  int leading_zeros_plus_one = 0;
  while (leading_zeros_plus_one < 32 &&
         (static_cast<uint32_t>(value) & (0x80000000U >> leading_zeros_plus_one)) == 0) {
    ++leading_zeros_plus_one;
  }
  *exponent = integer_bits - leading_zeros_plus_one;
  const auto fraction =
      static_cast<int32_t>((static_cast<uint32_t>(value) << leading_zeros_plus_one) - (uint32_t{1} << 31));
  return inverse_of_one_plus(fraction);
}

struct Softmax {
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
  int32_t diff_min = 0;
};

// SoftmaxPrepare for int8: PreprocessSoftmaxScaling and CalculateInputRadius
// with 5 integer bits.
inline Softmax softmax_params(float beta, float s_in) {
  const double real = std::min(static_cast<double>(beta) * static_cast<double>(s_in) * double(int64_t{1} << 26),
                               2147483647.0);
  const Multiplier m = quantize_multiplier(real);
  Softmax p;
  p.input_multiplier = m.multiplier;
  p.input_left_shift = m.shift;
  const double radius = 31.0 * double(int64_t{1} << 26) / double(int64_t{1} << m.shift);
  p.diff_min = -static_cast<int32_t>(std::floor(radius));
  return p;
}

inline std::vector<int8_t> softmax(const Softmax& p, const std::vector<int8_t>& in, size_t depth) {
  std::vector<int8_t> out(in.size());
  for (size_t row = 0; row < in.size() / depth; ++row) {
    const int8_t* x = in.data() + row * depth;
    int32_t row_max = -128;
    for (size_t c = 0; c < depth; ++c) row_max = std::max<int32_t>(row_max, x[c]);
    const auto scaled = [&](size_t c) {
      return doubling_high_mul(shift_left(x[c] - row_max, p.input_left_shift), p.input_multiplier);
    };
    int32_t exp_total = 0;  // 12 integer bits
    for (size_t c = 0; c < depth; ++c) {
      if (x[c] - row_max >= p.diff_min) exp_total += multiply_by_pot(exp_of_negative(scaled(c), 5), -12);
    }
    int total_exponent = 0;
    const int32_t inverse_total = reciprocal(exp_total, 12, &total_exponent);
    for (size_t c = 0; c < depth; ++c) {
      int32_t v = -128;
      if (x[c] - row_max >= p.diff_min) {
        const int32_t e = exp_of_negative(scaled(c), 5);
        v = divide_by_pot(doubling_high_mul(inverse_total, e), total_exponent + 31 - 8) - 128;
      }
      out[row * depth + c] = clamp8(v, -128, 127);
    }
  }
  return out;
}

// ---- pad.h, transpose.h, batch_matmul.h ----

// Pad: `value` outside the input block, which sits at `before` in each dim.
inline std::vector<int8_t> pad(const std::vector<int8_t>& in, const std::vector<int32_t>& shape,
                               const std::vector<int32_t>& before, const std::vector<int32_t>& after, int8_t value) {
  std::vector<int32_t> out_shape(shape.size());
  for (size_t k = 0; k < shape.size(); ++k) out_shape[k] = before[k] + shape[k] + after[k];
  std::vector<int8_t> out(count(out_shape), value);
  for (size_t i = 0; i < in.size(); ++i) {
    size_t rest = i, target = 0, stride = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      const size_t coordinate = rest % static_cast<size_t>(shape[k]);
      rest /= static_cast<size_t>(shape[k]);
      target += (coordinate + static_cast<size_t>(before[k])) * stride;
      stride *= static_cast<size_t>(out_shape[k]);
    }
    out[target] = in[i];
  }
  return out;
}

// Transpose: out's dim d is the input's dim perm[d].
inline std::vector<int8_t> transpose(const std::vector<int8_t>& in, const std::vector<int32_t>& shape,
                                     const std::vector<int32_t>& perm) {
  std::vector<int32_t> out_shape(shape.size());
  for (size_t d = 0; d < perm.size(); ++d) out_shape[d] = shape[static_cast<size_t>(perm[d])];
  std::vector<size_t> in_strides(shape.size(), 1);
  for (size_t k = shape.size() - 1; k-- > 0;) in_strides[k] = in_strides[k + 1] * static_cast<size_t>(shape[k + 1]);
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < out.size(); ++i) {
    size_t rest = i, source = 0;
    for (size_t d = out_shape.size(); d-- > 0;) {
      source += (rest % static_cast<size_t>(out_shape[d])) * in_strides[static_cast<size_t>(perm[d])];
      rest /= static_cast<size_t>(out_shape[d]);
    }
    out[i] = in[source];
  }
  return out;
}

// BatchMatMul of lhs [.., M, K] (or [.., K, M] with adj_x) by rhs [.., K, N]
// (or [.., N, K] with adj_y), batch dims broadcast; sums of
// (lhs - zp) (rhs - zp), requantised, zp_out added, clamped to int8.
inline std::vector<int8_t> batch_matmul(const std::vector<int8_t>& lhs, const std::vector<int32_t>& sl, int32_t zp_l,
                                        const std::vector<int8_t>& rhs, const std::vector<int32_t>& sr, int32_t zp_r,
                                        bool adj_x, bool adj_y, int32_t zp_out, const Multiplier& m) {
  const size_t rl = sl.size(), rr = sr.size();
  const int32_t rows = adj_x ? sl[rl - 1] : sl[rl - 2], depth = adj_x ? sl[rl - 2] : sl[rl - 1];
  const int32_t cols = adj_y ? sr[rr - 2] : sr[rr - 1];
  const std::vector<int32_t> bl(sl.begin(), sl.end() - 2), br(sr.begin(), sr.end() - 2);
  std::vector<int32_t> batch(std::max(bl.size(), br.size()));
  for (size_t k = 0; k < batch.size(); ++k) {
    const int32_t a = k + bl.size() < batch.size() ? 1 : bl[k + bl.size() - batch.size()];
    const int32_t b = k + br.size() < batch.size() ? 1 : br[k + br.size() - batch.size()];
    batch[k] = a == 1 ? b : a;
  }
  const size_t batches = count(batch), lhs_matrix = static_cast<size_t>(rows * depth),
               rhs_matrix = static_cast<size_t>(depth * cols);
  std::vector<int8_t> out(batches * static_cast<size_t>(rows * cols));
  for (size_t g = 0; g < batches; ++g) {
    const int8_t* l = lhs.data() + broadcast_source(g, bl, batch) * lhs_matrix;
    const int8_t* r = rhs.data() + broadcast_source(g, br, batch) * rhs_matrix;
    for (int32_t i = 0; i < rows; ++i) {
      for (int32_t j = 0; j < cols; ++j) {
        int32_t acc = 0;
        for (int32_t k = 0; k < depth; ++k) {
          const int32_t x = adj_x ? l[k * rows + i] : l[i * depth + k];
          const int32_t y = adj_y ? r[j * depth + k] : r[k * cols + j];
          acc += (x - zp_l) * (y - zp_r);
        }
        out[g * static_cast<size_t>(rows * cols) + static_cast<size_t>(i * cols + j)] =
            clamp8(multiply(acc, m) + zp_out, -128, 127);
      }
    }
  }
  return out;
}

// ---- quantize.h, dequantize.h ----

// AffineQuantize, float to int8: round(x / s) with the division in float32
// and halves away from zero, plus the zero point, clamped.
inline std::vector<int8_t> quantize(const std::vector<float>& in, float scale, int32_t zero_point) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = clamp8(static_cast<int32_t>(std::round(in[i] / scale)) + zero_point, -128, 127);
  }
  return out;
}

// Dequantize: float32 scale times (q - zp).
inline std::vector<float> dequantize(const std::vector<int8_t>& in, float scale, int32_t zero_point) {
  std::vector<float> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = scale * static_cast<float>(in[i] - zero_point);
  return out;
}

// ---- leaky_relu_common.cc (Prepare), reference/leaky_relu.h ----

struct LeakyRelu {
  int32_t zp_in = 0, zp_out = 0;
  Multiplier alpha;     // x < 0
  Multiplier identity;  // x >= 0
};

// Prepare: both factors from double(s_in) over double(s_out), alpha's with the
// float alpha in double; a negative alpha gives QuantizeMultiplier a negative
// factor, which it takes as it comes (quantize_multiplier above).
inline LeakyRelu leaky_relu_params(float s_in, int32_t zp_in, float s_out, int32_t zp_out, float alpha) {
  LeakyRelu p;
  p.zp_in = zp_in;
  p.zp_out = zp_out;
  p.alpha = quantize_multiplier(static_cast<double>(s_in) * static_cast<double>(alpha) / static_cast<double>(s_out));
  p.identity = quantize_multiplier(static_cast<double>(s_in) / static_cast<double>(s_out));
  return p;
}

// QuantizeLeakyRelu for int8: the sign of q - zp_in picks the factor (0 takes
// the identity), the output offset is added, then int8's clamp.
inline std::vector<int8_t> leaky_relu(const LeakyRelu& p, const std::vector<int8_t>& in) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int32_t x = in[i] - p.zp_in;
    out[i] = clamp8(p.zp_out + multiply(x, x >= 0 ? p.identity : p.alpha), -128, 127);
  }
  return out;
}

// ---- int8 activations: activations_common.cc (RELU, RELU6), TFLite's
// activations.cc (RELU_N1_TO_1, which TFLM does not register),
// hard_swish_common.cc + reference/hard_swish.h, logistic_common.cc / tanh.cc
// + reference/integer_ops/logistic.h, tanh.h, quantize_common.cc +
// reference/requantize.h ----

// ReluX: the factor, then the clamp to [lo, hi] on the output grid.
struct ReluX {
  int32_t zp_in = 0, zp_out = 0;
  Multiplier factor;
  int32_t lo = -128, hi = 127;
};

// RELU (TFLM): factor double(s_in) / double(s_out); lo = max(-128, zp_out +
// roundf(0 / s_out)), hi = 127.
inline ReluX relu_params(float s_in, int32_t zp_in, float s_out, int32_t zp_out) {
  ReluX p;
  p.zp_in = zp_in;
  p.zp_out = zp_out;
  p.factor = quantize_multiplier(static_cast<double>(s_in) / static_cast<double>(s_out));
  p.lo = std::max(-128, zp_out + static_cast<int32_t>(std::roundf(0.0F / s_out)));
  return p;
}

// RELU_N1_TO_1 (TFLite): factor from the float32 quotient s_in / s_out; the
// bounds -1 and 1 rounded on the output grid in float.
inline ReluX relu_n1_to_1_params(float s_in, int32_t zp_in, float s_out, int32_t zp_out) {
  ReluX p;
  p.zp_in = zp_in;
  p.zp_out = zp_out;
  const float quotient = s_in / s_out;
  p.factor = quantize_multiplier(static_cast<double>(quotient));
  p.lo = std::max(-128, zp_out + static_cast<int32_t>(std::roundf(-1.0F / s_out)));
  p.hi = std::min(127, zp_out + static_cast<int32_t>(std::roundf(1.0F / s_out)));
  return p;
}

inline std::vector<int8_t> relu_x(const ReluX& p, const std::vector<int8_t>& in) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = clamp8(p.zp_out + multiply(in[i] - p.zp_in, p.factor), p.lo, p.hi);
  }
  return out;
}

// RELU6 (TFLM): the input byte clamped to [zp_in, zp_in + round(6 / s_in)]
// (FloatToQuantizedType, clamped to int8); the output grid is not read.
inline std::vector<int8_t> relu6(float s_in, int32_t zp_in, const std::vector<int8_t>& in) {
  const int32_t six = std::min(127, std::max(-128, static_cast<int32_t>(std::round(6.0F / s_in)) + zp_in));
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = static_cast<int8_t>(std::min(six, std::max(zp_in, int32_t{in[i]})));
  return out;
}

// QUANTIZE int8 -> int8 (Requantize): factor double(s_in) / double(s_out).
inline std::vector<int8_t> requantize(float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                                      const std::vector<int8_t>& in) {
  const Multiplier m = quantize_multiplier(static_cast<double>(s_in) / static_cast<double>(s_out));
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = clamp8(multiply(in[i] - zp_in, m) + zp_out, -128, 127);
  return out;
}

// HARD_SWISH: every step on int16 values, as reference/hard_swish.h.
struct HardSwish {
  int32_t zp_in = 0, zp_out = 0;
  int16_t out_m = 0, reluish_m = 0;
  int out_e = 0, reluish_e = 0;
};

// DownScaleInt32ToInt16Multiplier.
inline int16_t to_q15(int32_t m) {
  if (m >= std::numeric_limits<int32_t>::max() - (1 << 15)) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((m + (1 << 15)) / (1 << 16));
}

// Prepare: float32 quotients widened to double; TFLM refuses out_e > 0
// (checked by the caller's expectations).
inline HardSwish hard_swish_params(float s_in, int32_t zp_in, float s_out, int32_t zp_out) {
  HardSwish p;
  p.zp_in = zp_in;
  p.zp_out = zp_out;
  const float hires = s_in / 128.0F;
  const Multiplier o = quantize_multiplier(static_cast<double>(hires / s_out));
  const Multiplier r = quantize_multiplier(static_cast<double>(hires / (3.0F / 32768.0F)));
  p.out_m = to_q15(o.multiplier);
  p.out_e = o.shift;
  p.reluish_m = to_q15(r.multiplier);
  p.reluish_e = r.shift;
  return p;
}

inline int16_t sat16(int64_t v) {
  return static_cast<int16_t>(std::min<int64_t>(32767, std::max<int64_t>(-32768, v)));
}

// gemmlowp RoundingDivideByPOT on int16 (the mask narrowed to 16 bits).
inline int16_t divide_by_pot16(int16_t x, int e) {
  const auto mask = static_cast<int16_t>((int64_t{1} << e) - 1);
  const int threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int16_t>((x >> e) + ((x & mask) > threshold ? 1 : 0));
}

inline std::vector<int8_t> hard_swish(const HardSwish& p, const std::vector<int8_t>& in) {
  const auto round_mul = [](int16_t a, int16_t b) -> int16_t {
    if (a == -32768 && b == -32768) return 32767;
    const int32_t ab = a * b;
    return static_cast<int16_t>((ab + (ab >= 0 ? 16384 : -16383)) / 32768);
  };
  const auto trunc_mul = [](int16_t a, int16_t b) -> int16_t {
    if (a == -32768 && b == -32768) return 32767;
    return static_cast<int16_t>((a * b) / 32768);
  };
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto hires = static_cast<int16_t>((in[i] - p.zp_in) * 128);
    const int16_t scaled = round_mul(hires, p.out_m);
    int16_t r = hires;
    if (p.reluish_e > 0) r = sat16(int64_t{r} * (int64_t{1} << (p.reluish_e - 1)));
    r = round_mul(r, p.reluish_m);
    if (p.reluish_e > 0) r = sat16(int64_t{r} * 2);
    if (p.reluish_e < 0) r = divide_by_pot16(r, -p.reluish_e);
    r = static_cast<int16_t>((r + 32768) / 2);
    const int16_t y = divide_by_pot16(trunc_mul(r, scaled), -p.out_e);
    out[i] = clamp8(static_cast<int16_t>(y + p.zp_out), -128, 127);
  }
  return out;
}

// LOGISTIC and TANH: the input rescaled to 4 integer bits (frexp of s_in *
// 2^27), codes at or past CalculateInputRadius saturate.
struct Sigmoid {
  int32_t zp_in = 0;
  Multiplier input;
  int32_t radius = 0;
};

inline Sigmoid sigmoid_params(float s_in, int32_t zp_in) {
  Sigmoid p;
  p.zp_in = zp_in;
  int e = 0;
  const double m = std::frexp(static_cast<double>(s_in) * 134217728.0, &e);
  p.input = {static_cast<int32_t>(std::llround(m * 2147483648.0)), e};
  p.radius = static_cast<int32_t>(std::floor(15.0 * 134217728.0 / std::ldexp(1.0, e)));
  return p;
}

// (1 - f) / (1 + f) for f in [0, 1): the Newton steps of inverse_of_one_plus,
// ending in x - 1 (2 integer bits) instead of x / 2.
inline int32_t one_minus_over_one_plus(int32_t fraction) {
  const int64_t sum = int64_t{fraction} + std::numeric_limits<int32_t>::max();
  const auto half_divisor = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  int32_t estimate = 1515870810 + doubling_high_mul(half_divisor, -1010580540);
  for (int step = 0; step < 3; ++step) {
    const int32_t shortfall = (1 << 29) - doubling_high_mul(half_divisor, estimate);
    estimate = estimate + multiply_by_pot(doubling_high_mul(estimate, shortfall), 2);
  }
  return multiply_by_pot(estimate - (1 << 29), 2);
}

// gemmlowp logistic with 4 integer bits: 1 / (1 + e^-|v|), mirrored for v < 0.
inline int32_t logistic_q31(int32_t v) {
  if (v == 0) return 1 << 30;
  const int32_t positive = inverse_of_one_plus(exp_of_negative(v > 0 ? -v : v, 4));
  return v > 0 ? positive : std::numeric_limits<int32_t>::max() - positive;
}

// gemmlowp tanh with 4 integer bits: (1 - e^(-2|v|)) / (1 + e^(-2|v|)), the
// doubling taken as one more integer bit on the same raw value.
inline int32_t tanh_q31(int32_t v) {
  if (v == 0) return 0;
  const int32_t t = one_minus_over_one_plus(exp_of_negative(v < 0 ? v : -v, 5));
  return v < 0 ? -t : t;
}

inline std::vector<int8_t> logistic(const Sigmoid& p, const std::vector<int8_t>& in) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int32_t x = in[i] - p.zp_in;
    if (x <= -p.radius) {
      out[i] = -128;
    } else if (x >= p.radius) {
      out[i] = 127;
    } else {
      out[i] = clamp8(divide_by_pot(logistic_q31(multiply(x, p.input)), 23) - 128, -128, 127);
    }
  }
  return out;
}

inline std::vector<int8_t> tanh(const Sigmoid& p, const std::vector<int8_t>& in) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int32_t x = in[i] - p.zp_in;
    if (x <= -p.radius) {
      out[i] = -128;
    } else if (x >= p.radius) {
      out[i] = 127;
    } else {
      out[i] = clamp8(divide_by_pot(tanh_q31(multiply(x, p.input)), 24), -128, 127);
    }
  }
  return out;
}

// ---- strided_slice_common.cc, reference/strided_slice.h, pack.cc ----

struct StridedSlice {
  std::vector<int32_t> begin, end, strides;  // one per input axis
  int32_t begin_mask = 0, end_mask = 0, shrink_axis_mask = 0;
};

// Prepare's CheckOutputSize: StartForAxis/StopForAxis (the masks swap the
// index for INT_MIN or INT_MAX before the wrap and the clamp), then
// ceil((stop - start) / float(stride)), negative taken as 0; shrunk axes
// leave the shape.
inline std::vector<int32_t> strided_slice_shape(const std::vector<int32_t>& in, const StridedSlice& p) {
  std::vector<int32_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t n = in[i];
    const bool forward = p.strides[i] > 0;
    int64_t start = (p.begin_mask >> i & 1) ? (forward ? INT32_MIN : INT32_MAX) : p.begin[i];
    if (start < 0) start += n;
    start = forward ? std::clamp<int64_t>(start, 0, n) : std::clamp<int64_t>(start, -1, n - 1);
    if (p.shrink_axis_mask >> i & 1) continue;
    int64_t stop = (p.end_mask >> i & 1) ? (forward ? INT32_MAX : INT32_MIN) : p.end[i];
    if (stop < 0) stop += n;
    stop = forward ? std::clamp<int64_t>(stop, 0, n) : std::clamp<int64_t>(stop, -1, n - 1);
    const auto dim = static_cast<int32_t>(std::ceil(static_cast<float>(stop - start) / static_cast<float>(p.strides[i])));
    out.push_back(dim < 0 ? 0 : dim);
  }
  return out;
}

// Eval: the parameters padded at the front to five axes (begin 0, end 1,
// stride 1, both masks set there), StridedSliceStartForAxis and
// StridedSliceEndForAxis per axis (wrap, clamp, then the mask; a shrunk axis
// ends at start + 1, or at start when start is past the axis), and five
// nested loops writing elements in order. What it writes may be fewer than
// the output shape holds.
template <typename T>
std::vector<T> strided_slice(const std::vector<int32_t>& in_shape, const std::vector<T>& x, const StridedSlice& p) {
  const size_t pad = 5 - in_shape.size();
  int32_t shape[5], first[5], last[5], step[5];
  for (size_t a = 0; a < 5; ++a) {
    const bool real = a >= pad;
    const size_t i = a - pad;
    shape[a] = real ? in_shape[i] : 1;
    step[a] = real ? p.strides[i] : 1;
    const int32_t begin = real ? p.begin[i] : 0, end = real ? p.end[i] : 1;
    const bool begin_mask = real ? (p.begin_mask >> i & 1) != 0 : true;
    const bool end_mask = real ? (p.end_mask >> i & 1) != 0 : true;
    const bool shrink = real && (p.shrink_axis_mask >> i & 1) != 0;
    int32_t s = begin < 0 ? begin + shape[a] : begin;
    s = step[a] > 0 ? std::clamp(s, 0, shape[a]) : std::clamp(s, -1, shape[a] - 1);
    if (begin_mask) s = step[a] > 0 ? 0 : shape[a] - 1;
    first[a] = s;
    if (shrink) {
      last[a] = s >= shape[a] ? s : s + 1;
      continue;
    }
    int32_t e = end < 0 ? end + shape[a] : end;
    e = step[a] > 0 ? std::clamp(e, 0, shape[a]) : std::clamp(e, -1, shape[a] - 1);
    if (end_mask) e = step[a] > 0 ? shape[a] : -1;
    last[a] = e;
  }
  const auto more = [&](int a, int32_t v) { return step[a] > 0 ? v < last[a] : v > last[a]; };
  std::vector<T> out;
  for (int32_t i0 = first[0]; more(0, i0); i0 += step[0]) {
    for (int32_t i1 = first[1]; more(1, i1); i1 += step[1]) {
      for (int32_t i2 = first[2]; more(2, i2); i2 += step[2]) {
        for (int32_t i3 = first[3]; more(3, i3); i3 += step[3]) {
          for (int32_t i4 = first[4]; more(4, i4); i4 += step[4]) {
            const int64_t index =
                (((static_cast<int64_t>(i0) * shape[1] + i1) * shape[2] + i2) * shape[3] + i3) * shape[4] + i4;
            out.push_back(x[static_cast<size_t>(index)]);
          }
        }
      }
    }
  }
  return out;
}

// pack.cc: the output's axis (negative counts from the end) splits it into
// outer rows and inner blocks; input i's row k lands at row k, slot i.
template <typename T>
std::vector<T> pack(const std::vector<std::vector<T>>& inputs, const std::vector<int32_t>& out_shape, int axis) {
  if (axis < 0) axis += static_cast<int>(out_shape.size());
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(out_shape[static_cast<size_t>(d)]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < out_shape.size(); ++d) inner *= static_cast<size_t>(out_shape[d]);
  std::vector<T> out(outer * inputs.size() * inner);
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (size_t k = 0; k < outer; ++k) {
      for (size_t j = 0; j < inner; ++j) out[(k * inputs.size() + i) * inner + j] = inputs[i][k * inner + j];
    }
  }
  return out;
}

// expand_dims.cc VerifyTensorDim: a negative axis counts from rank + 1; the
// output is the input's shape with a 1 there (the bytes are copied as they are).
inline std::vector<int32_t> expand_dims_shape(const std::vector<int32_t>& in, int32_t axis) {
  const auto rank = static_cast<int32_t>(in.size());
  if (axis < 0) axis = rank + 1 + axis;
  std::vector<int32_t> out;
  for (int32_t i = 0; i <= rank; ++i) {
    if (i < axis) out.push_back(in[static_cast<size_t>(i)]);
    else if (i == axis) out.push_back(1);
    else out.push_back(in[static_cast<size_t>(i - 1)]);
  }
  return out;
}

// reference/concatenation.h: the output's axis (negative counts from its
// end) splits it into outer rows; row k holds each input's row k in turn
// (input i's row is its own size along the axis times the inner block). The
// codes are copied: TFLM's int8 Eval ignores the input scales.
template <typename T>
std::vector<T> concatenation(const std::vector<std::vector<T>>& inputs,
                             const std::vector<std::vector<int32_t>>& shapes, int axis) {
  const int rank = static_cast<int>(shapes[0].size());
  if (axis < 0) axis += rank;
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(shapes[0][static_cast<size_t>(d)]);
  for (int d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(shapes[0][static_cast<size_t>(d)]);
  std::vector<T> out;
  for (size_t k = 0; k < outer; ++k) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const size_t row = static_cast<size_t>(shapes[i][static_cast<size_t>(axis)]) * inner;
      for (size_t j = 0; j < row; ++j) out.push_back(inputs[i][k * row + j]);
    }
  }
  return out;
}

// ---- slice.cc (reference/slice.h), split.cc, split_v.cc, unpack.cc ----

// reference/slice.h: the shape padded at the front to five axes (begin 0,
// size 1), a size of -1 running to the axis's end, five nested loops
// writing the window in order.
template <typename T>
std::vector<T> slice(const std::vector<int32_t>& in_shape, const std::vector<T>& x, const std::vector<int64_t>& begin,
                     const std::vector<int64_t>& size) {
  const size_t pad = 5 - in_shape.size();
  int64_t shape[5], start[5], stop[5];
  for (size_t a = 0; a < 5; ++a) {
    const bool real = a >= pad;
    shape[a] = real ? in_shape[a - pad] : 1;
    start[a] = real ? begin[a - pad] : 0;
    const int64_t n = real ? size[a - pad] : 1;
    stop[a] = n == -1 ? shape[a] : start[a] + n;
  }
  std::vector<T> out;
  for (int64_t i0 = start[0]; i0 < stop[0]; ++i0) {
    for (int64_t i1 = start[1]; i1 < stop[1]; ++i1) {
      for (int64_t i2 = start[2]; i2 < stop[2]; ++i2) {
        for (int64_t i3 = start[3]; i3 < stop[3]; ++i3) {
          for (int64_t i4 = start[4]; i4 < stop[4]; ++i4) {
            out.push_back(x[static_cast<size_t>((((i0 * shape[1] + i1) * shape[2] + i2) * shape[3] + i3) * shape[4] + i4)]);
          }
        }
      }
    }
  }
  return out;
}

// SplitImpl (split.cc, split_v.cc): the axis (negative counts from the
// rank) splits the input into outer rows; each row hands every output in
// turn its `sizes[i]` times the inner block.
template <typename T>
std::vector<std::vector<T>> split(const std::vector<int32_t>& in_shape, const std::vector<T>& x, int axis,
                                  const std::vector<int32_t>& sizes) {
  if (axis < 0) axis += static_cast<int>(in_shape.size());
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(in_shape[static_cast<size_t>(d)]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < in_shape.size(); ++d) inner *= static_cast<size_t>(in_shape[d]);
  std::vector<std::vector<T>> out(sizes.size());
  size_t at = 0;
  for (size_t k = 0; k < outer; ++k) {
    for (size_t i = 0; i < sizes.size(); ++i) {
      const size_t n = static_cast<size_t>(sizes[i]) * inner;
      out[i].insert(out[i].end(), x.begin() + static_cast<std::ptrdiff_t>(at),
                    x.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
    }
  }
  return out;
}

// UnpackImpl (unpack.cc): output i's row k is the inner block at
// k * num * inner + i * inner of the input, num the axis's size.
template <typename T>
std::vector<std::vector<T>> unpack(const std::vector<int32_t>& in_shape, const std::vector<T>& x, int axis) {
  if (axis < 0) axis += static_cast<int>(in_shape.size());
  const auto num = static_cast<size_t>(in_shape[static_cast<size_t>(axis)]);
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(in_shape[static_cast<size_t>(d)]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < in_shape.size(); ++d) inner *= static_cast<size_t>(in_shape[d]);
  std::vector<std::vector<T>> out(num);
  for (size_t i = 0; i < num; ++i) {
    for (size_t k = 0; k < outer; ++k) {
      for (size_t j = 0; j < inner; ++j) out[i].push_back(x[k * num * inner + i * inner + j]);
    }
  }
  return out;
}

// ---- reduce_common.cc, reference/reduce.h: int8 MEAN, SUM, REDUCE_MAX ----

// ResolveAxis: negative axes count from the end, repeats dropped.
inline std::vector<int> resolve_reduce_axes(const std::vector<int32_t>& axes, int rank) {
  std::vector<int> out;
  for (const int32_t a : axes) {
    const int current = a < 0 ? a + rank : a;
    if (std::find(out.begin(), out.end(), current) == out.end()) out.push_back(current);
  }
  return out;
}

// Reduce: TFLM's walk over every input index (NextIndex), each element folded
// into the output at ReducedOutputOffset (the index with the reduced axes
// skipped). `fold(current, q)` is the reducer; `acc` starts at the init value.
template <typename Fold>
std::vector<int32_t> reduce_walk(const std::vector<int8_t>& x, const std::vector<int32_t>& shape,
                                 const std::vector<int>& axes, int32_t init, Fold fold) {
  const size_t rank = shape.size();
  size_t outputs = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (std::find(axes.begin(), axes.end(), static_cast<int>(d)) == axes.end()) outputs *= static_cast<size_t>(shape[d]);
  }
  std::vector<int32_t> acc(outputs, init);
  std::vector<int32_t> index(rank, 0);
  for (size_t flat = 0; flat < x.size(); ++flat) {
    size_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end()) continue;
      offset = offset * static_cast<size_t>(shape[d]) + static_cast<size_t>(index[d]);
    }
    acc[offset] = fold(acc[offset], x[flat]);
    for (size_t d = rank; d-- > 0;) {  // NextIndex: the last dim fastest
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return acc;
}

inline size_t reduce_count(const std::vector<int32_t>& shape, const std::vector<int>& axes) {
  size_t n = 1;
  for (const int a : axes) n *= static_cast<size_t>(shape[static_cast<size_t>(a)]);
  return n;
}

// EvalMeanHelper, int8: reference_ops::Mean (temp_sum / count in int32) when
// the grids are equal, else QuantizedMeanOrSum's float path (compute_sum false).
inline std::vector<int8_t> mean(const std::vector<int8_t>& x, const std::vector<int32_t>& shape,
                                const std::vector<int32_t>& axes, float s_in, int32_t zp_in, float s_out,
                                int32_t zp_out) {
  const std::vector<int> resolved = resolve_reduce_axes(axes, static_cast<int>(shape.size()));
  const std::vector<int32_t> temp_sum =
      reduce_walk(x, shape, resolved, 0, [](int32_t current, int8_t q) { return current + static_cast<int32_t>(q); });
  const size_t n = reduce_count(shape, resolved);
  std::vector<int8_t> out(temp_sum.size());
  if (zp_in == zp_out && s_in == s_out) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int8_t>(temp_sum[i] / static_cast<int32_t>(n));
    return out;
  }
  const float scale = s_in / s_out;
  const float bias = static_cast<float>(-zp_in) * scale;  // int * float: the int converts
  for (size_t i = 0; i < out.size(); ++i) {
    const float float_mean = static_cast<float>(temp_sum[i]) / static_cast<float>(n);
    float result = std::min(std::round(float_mean * scale + bias) + static_cast<float>(zp_out), 127.0F);
    result = std::max(result, -128.0F);
    out[i] = static_cast<int8_t>(result);
  }
  return out;
}

// EvalSumHelper, int8: QuantizedMeanOrSum with compute_sum, no clamp (the
// int32 is cast to int8).
inline std::vector<int8_t> sum(const std::vector<int8_t>& x, const std::vector<int32_t>& shape,
                               const std::vector<int32_t>& axes, float s_in, int32_t zp_in, float s_out,
                               int32_t zp_out) {
  const std::vector<int> resolved = resolve_reduce_axes(axes, static_cast<int>(shape.size()));
  const std::vector<int32_t> temp_sum =
      reduce_walk(x, shape, resolved, 0, [](int32_t current, int8_t q) { return current + static_cast<int32_t>(q); });
  const size_t n = reduce_count(shape, resolved);
  const float scale = s_in / s_out;
  const float bias = static_cast<float>(-zp_in) * scale * static_cast<float>(n);
  std::vector<int8_t> out(temp_sum.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t value = static_cast<int32_t>(std::round(static_cast<float>(temp_sum[i]) * scale + bias)) + zp_out;
    out[i] = static_cast<int8_t>(value);
  }
  return out;
}

// EvalMaxHelper, int8: ReduceGeneric from -128 with max.
inline std::vector<int8_t> reduce_max(const std::vector<int8_t>& x, const std::vector<int32_t>& shape,
                                      const std::vector<int32_t>& axes) {
  const std::vector<int> resolved = resolve_reduce_axes(axes, static_cast<int>(shape.size()));
  const std::vector<int32_t> best = reduce_walk(
      x, shape, resolved, -128, [](int32_t current, int8_t q) { return q > current ? static_cast<int32_t>(q) : current; });
  return std::vector<int8_t>(best.begin(), best.end());
}

// ---- space_to_depth.h, depth_to_space.h ----

// SpaceToDepth: input pixel (h, w) lands in output pixel (h / b, w / b) at
// depth ((h % b) * b + w % b) * C + d.
inline std::vector<int8_t> space_to_depth(const std::vector<int8_t>& in, const std::vector<int32_t>& is, int32_t b) {
  const std::vector<int32_t> os = {is[0], is[1] / b, is[2] / b, is[3] * b * b};
  std::vector<int8_t> out(count(os));
  for (int32_t n = 0; n < is[0]; ++n) {
    for (int32_t h = 0; h < is[1]; ++h) {
      for (int32_t w = 0; w < is[2]; ++w) {
        const int32_t offset_d = ((h % b) * b + w % b) * is[3];
        for (int32_t d = 0; d < is[3]; ++d) out[offset4(os, n, h / b, w / b, offset_d + d)] = in[offset4(is, n, h, w, d)];
      }
    }
  }
  return out;
}

// DepthToSpace: output pixel (h, w), channel d reads input pixel (h / b,
// w / b) at depth ((h % b) * b + w % b) * C_out + d.
inline std::vector<int8_t> depth_to_space(const std::vector<int8_t>& in, const std::vector<int32_t>& is, int32_t b) {
  const std::vector<int32_t> os = {is[0], is[1] * b, is[2] * b, is[3] / (b * b)};
  std::vector<int8_t> out(count(os));
  for (int32_t n = 0; n < os[0]; ++n) {
    for (int32_t h = 0; h < os[1]; ++h) {
      for (int32_t w = 0; w < os[2]; ++w) {
        const int32_t offset_d = ((h % b) * b + w % b) * os[3];
        for (int32_t d = 0; d < os[3]; ++d) out[offset4(os, n, h, w, d)] = in[offset4(is, n, h / b, w / b, offset_d + d)];
      }
    }
  }
  return out;
}

// ---- resize_nearest_neighbor.h ----

// ResizeNearestNeighbor: every output pixel (y, x) copies input pixel
// (GetNearestNeighbor(y), GetNearestNeighbor(x)), whose arithmetic is float32.
inline int32_t nearest_source(int32_t i, int32_t in_size, int32_t out_size, bool align_corners, bool half_pixel) {
  float scale = static_cast<float>(in_size) / static_cast<float>(out_size);
  if (align_corners && out_size > 1) scale = static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1);
  const float at = (static_cast<float>(i) + (half_pixel ? 0.5F : 0.0F)) * scale;
  int32_t v = static_cast<int32_t>(align_corners ? std::round(at) : std::floor(at));
  if (v > in_size - 1) v = in_size - 1;
  if (half_pixel && v < 0) v = 0;
  return v;
}

inline std::vector<int8_t> resize_nearest_neighbor(const std::vector<int8_t>& in, const std::vector<int32_t>& is,
                                                   int32_t out_h, int32_t out_w, bool align_corners, bool half_pixel) {
  const std::vector<int32_t> os = {is[0], out_h, out_w, is[3]};
  std::vector<int8_t> out(count(os));
  for (int32_t n = 0; n < os[0]; ++n) {
    for (int32_t y = 0; y < out_h; ++y) {
      const int32_t sy = nearest_source(y, is[1], out_h, align_corners, half_pixel);
      for (int32_t x = 0; x < out_w; ++x) {
        const int32_t sx = nearest_source(x, is[2], out_w, align_corners, half_pixel);
        for (int32_t d = 0; d < os[3]; ++d) out[offset4(os, n, y, x, d)] = in[offset4(is, n, sy, sx, d)];
      }
    }
  }
  return out;
}

// ---- resize_bilinear.h (ResizeBilinearInteger) ----

// int8 bilinear resize with 10 fractional bits: the scale
// ((1 << 10) * in + out / 2) / out (align_corners with out > 1: in - 1 over
// out - 1), each position i * scale (+ scale / 2 - 512 with half-pixel
// centres), its lower index max(pos / 1024, 0) and upper
// min((pos + 1023) / 1024, in - 1); the four products summed in int64 and
// divided by 2^20 rounding half away from zero (TFLITE_SINGLE_ROUNDING off),
// then cast to int8.
inline std::vector<int8_t> resize_bilinear(const std::vector<int8_t>& in, const std::vector<int32_t>& is,
                                           int32_t out_h, int32_t out_w, bool align_corners, bool half_pixel) {
  const auto scale_of = [&](int32_t in_size, int32_t out_size) {
    if (align_corners && out_size > 1) return ((1 << 10) * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
    return ((1 << 10) * in_size + out_size / 2) / out_size;
  };
  struct Position {
    int32_t at, lo, hi;
  };
  const auto position = [&](int32_t i, int32_t scale, int32_t in_size) {
    const int32_t at = half_pixel ? i * scale + scale / 2 - (1 << 9) : i * scale;
    return Position{at, std::max(at / (1 << 10), 0), std::min((at + (1 << 10) - 1) / (1 << 10), in_size - 1)};
  };
  const int32_t sh = scale_of(is[1], out_h), sw = scale_of(is[2], out_w);
  const std::vector<int32_t> os = {is[0], out_h, out_w, is[3]};
  std::vector<int8_t> out(count(os));
  for (int32_t n = 0; n < os[0]; ++n) {
    for (int32_t y = 0; y < out_h; ++y) {
      const Position py = position(y, sh, is[1]);
      const int64_t dy = py.at - (1 << 10) * py.lo;
      for (int32_t x = 0; x < out_w; ++x) {
        const Position px = position(x, sw, is[2]);
        const int64_t dx = px.at - (1 << 10) * px.lo;
        for (int32_t d = 0; d < os[3]; ++d) {
          const int64_t sum = in[offset4(is, n, py.lo, px.lo, d)] * ((1 << 10) - dy) * ((1 << 10) - dx) +
                              in[offset4(is, n, py.hi, px.lo, d)] * dy * ((1 << 10) - dx) +
                              in[offset4(is, n, py.lo, px.hi, d)] * ((1 << 10) - dy) * dx +
                              in[offset4(is, n, py.hi, px.hi, d)] * dy * dx;
          const int64_t round = sum > 0 ? (1 << 19) : -(1 << 19);
          out[offset4(os, n, y, x, d)] = static_cast<int8_t>((sum + round) / (1 << 20));
        }
      }
    }
  }
  return out;
}

// ---- prelu.h ----

// BroadcastPrelu4DSlow for int8: alpha broadcast onto the input; x = q -
// zp_in; x >= 0 scaled by s_in / s_out, else x * (a - zp_alpha) by
// s_in * s_alpha / s_out (both factors from doubles); plus zp_out, clamped.
inline std::vector<int8_t> prelu(const std::vector<int8_t>& in, const std::vector<int32_t>& shape, float s_in,
                                 int32_t zp_in, const std::vector<int8_t>& alpha,
                                 const std::vector<int32_t>& alpha_shape, float s_alpha, int32_t zp_alpha,
                                 float s_out, int32_t zp_out) {
  const Multiplier m1 = quantize_multiplier(static_cast<double>(s_in) / static_cast<double>(s_out));
  const Multiplier m2 = quantize_multiplier(static_cast<double>(s_in) * static_cast<double>(s_alpha) /
                                            static_cast<double>(s_out));
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int32_t x = int32_t{in[i]} - zp_in;
    const int32_t a = int32_t{alpha[broadcast_source(i, alpha_shape, shape)]} - zp_alpha;
    const int32_t v = (x >= 0 ? multiply(x, m1) : multiply(x * a, m2)) + zp_out;
    out[i] = clamp8(v, -128, 127);
  }
  return out;
}

// ---- squared_difference.cc ----

struct SquaredDifference {
  int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;
  Multiplier input1, input2, output;
};

// PrepareQuantized for int8: left shift 7; m = 2 max(s1, s2) in double,
// input k's factor s_k / m (QuantizeMultiplierSmallerThanOneExp), the
// square's m * m / ((1 << 14) * s_out), that product a float32 one.
inline SquaredDifference squared_difference_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out,
                                                   int32_t zp_out) {
  SquaredDifference p;
  p.input1_offset = -zp1;
  p.input2_offset = -zp2;
  p.output_offset = zp_out;
  const double twice_max = 2.0 * static_cast<double>(std::max(s1, s2));
  p.input1 = quantize_multiplier(static_cast<double>(s1) / twice_max);
  p.input2 = quantize_multiplier(static_cast<double>(s2) / twice_max);
  const float fine = (1 << 14) * s_out;
  p.output = quantize_multiplier(twice_max * twice_max / static_cast<double>(fine));
  return p;
}

// MultiplyByQuantizedMultiplierSmallerThanOneExp: the high multiply, then
// a rounding right shift by -shift (shift <= 0).
inline int32_t multiply_smaller_than_one(int32_t x, const Multiplier& m) {
  return divide_by_pot(doubling_high_mul(x, m.multiplier), -m.shift);
}

// The int8 SquaredDifference element over BroadcastBinaryFunction6DSlow's
// walk (ElementWise for equal shapes is the same walk): both inputs offset
// and shifted left by 7, scaled, differenced, squared, scaled onto out's
// grid, clamped to int8 (no activation).
inline std::vector<int8_t> squared_difference(const SquaredDifference& p, const std::vector<int8_t>& a,
                                              const std::vector<int32_t>& sa, const std::vector<int8_t>& b,
                                              const std::vector<int32_t>& sb,
                                              const std::vector<int32_t>& out_shape) {
  std::vector<int8_t> out(count(out_shape));
  for (size_t i = 0; i < out.size(); ++i) {
    const int32_t x = (p.input1_offset + a[broadcast_source(i, sa, out_shape)]) * (1 << 7);
    const int32_t y = (p.input2_offset + b[broadcast_source(i, sb, out_shape)]) * (1 << 7);
    const int32_t diff = multiply_smaller_than_one(x, p.input1) - multiply_smaller_than_one(y, p.input2);
    out[i] = clamp8(multiply(diff * diff, p.output) + p.output_offset, -128, 127);
  }
  return out;
}

// ---- gather.cc (Gather<InputT, int32_t>) ----

// axis negative from params' rank, batch_dims negative from positions' rank;
// output shape params[:axis] + positions[batch_dims:] + params[axis + 1:].
// For each batch, outer index (dims batch_dims to axis) and coordinate (the
// positions' dims after batch_dims) one inner run is copied from the position
// read at batch * coord_size + coord; a position outside [0, axis size) makes
// Eval return kTfLiteError (here: *ok = false and nothing returned).
template <typename T>
std::vector<T> gather(const std::vector<T>& params, const std::vector<int32_t>& ps, const std::vector<int32_t>& positions,
                      const std::vector<int32_t>& is, int32_t axis, int32_t batch_dims, bool* ok = nullptr) {
  const auto rank = static_cast<int32_t>(ps.size());
  if (axis < 0) axis += rank;
  if (batch_dims < 0) batch_dims += static_cast<int32_t>(is.size());
  int32_t batch_size = 1, outer_size = 1, inner_size = 1, coord_size = 1;
  for (int32_t i = 0; i < batch_dims; ++i) batch_size *= ps[static_cast<size_t>(i)];
  for (int32_t i = batch_dims; i < axis; ++i) outer_size *= ps[static_cast<size_t>(i)];
  for (int32_t i = axis + 1; i < rank; ++i) inner_size *= ps[static_cast<size_t>(i)];
  for (size_t i = static_cast<size_t>(batch_dims); i < is.size(); ++i) coord_size *= is[i];
  const int32_t axis_size = ps[static_cast<size_t>(axis)];
  std::vector<T> out(static_cast<size_t>(batch_size) * static_cast<size_t>(outer_size) *
                     static_cast<size_t>(coord_size) * static_cast<size_t>(inner_size));
  if (ok != nullptr) *ok = true;
  for (int32_t batch = 0; batch < batch_size; ++batch) {
    for (int32_t outer = 0; outer < outer_size; ++outer) {
      for (int32_t coord = 0; coord < coord_size; ++coord) {
        const int32_t v = positions[static_cast<size_t>(batch * coord_size + coord)];
        if (v < 0 || v >= axis_size) {
          if (ok != nullptr) *ok = false;
          return {};
        }
        const size_t to = static_cast<size_t>(((batch * outer_size + outer) * coord_size + coord) * inner_size);
        const size_t from = static_cast<size_t>(((batch * outer_size + outer) * axis_size + v) * inner_size);
        for (int32_t k = 0; k < inner_size; ++k) out[to + static_cast<size_t>(k)] = params[from + static_cast<size_t>(k)];
      }
    }
  }
  return out;
}

// ---- space_to_batch_nd.h, batch_to_space_nd.h ----

// SpaceToBatchND on NHWC (NHC as NH1C with block width 1): output batch b
// takes input batch b % N at block offset (b / N / bw, b / N % bw); pixel
// (h, w) reads padded pixel (h * bh + dy, w * bw + dx), the pad value
// (TFLite's output zero point) outside the input. block = {bh, bw},
// pads = {top, bottom, left, right}.
inline std::vector<int8_t> space_to_batch_nd(const std::vector<int8_t>& in, const std::vector<int32_t>& is,
                                             const std::vector<int32_t>& block, const std::vector<int32_t>& pads,
                                             int8_t pad_value) {
  const int32_t bh = block[0], bw = block[1];
  const std::vector<int32_t> os = {is[0] * bh * bw, (is[1] + pads[0] + pads[1]) / bh, (is[2] + pads[2] + pads[3]) / bw,
                                   is[3]};
  std::vector<int8_t> out(count(os));
  for (int32_t b = 0; b < os[0]; ++b) {
    const int32_t n = b % is[0], dy = b / is[0] / bw, dx = b / is[0] % bw;
    for (int32_t h = 0; h < os[1]; ++h) {
      for (int32_t w = 0; w < os[2]; ++w) {
        const int32_t ih = h * bh + dy - pads[0], iw = w * bw + dx - pads[2];
        const bool inside = ih >= 0 && ih < is[1] && iw >= 0 && iw < is[2];
        for (int32_t d = 0; d < is[3]; ++d) {
          out[offset4(os, b, h, w, d)] = inside ? in[offset4(is, n, ih, iw, d)] : pad_value;
        }
      }
    }
  }
  return out;
}

// BatchToSpaceND: input batch b goes to output batch b % N' (N' = N / (bh *
// bw)) at block offset (b / N' / bw, b / N' % bw); input pixel (h, w) lands
// at (h * bh + dy - crop top, w * bw + dx - crop left) when that is inside.
// crops = {top, bottom, left, right}.
inline std::vector<int8_t> batch_to_space_nd(const std::vector<int8_t>& in, const std::vector<int32_t>& is,
                                             const std::vector<int32_t>& block, const std::vector<int32_t>& crops) {
  const int32_t bh = block[0], bw = block[1];
  const std::vector<int32_t> os = {is[0] / (bh * bw), is[1] * bh - crops[0] - crops[1],
                                   is[2] * bw - crops[2] - crops[3], is[3]};
  std::vector<int8_t> out(count(os));
  for (int32_t b = 0; b < is[0]; ++b) {
    const int32_t n = b % os[0], dy = b / os[0] / bw, dx = b / os[0] % bw;
    for (int32_t h = 0; h < is[1]; ++h) {
      const int32_t oh = h * bh + dy - crops[0];
      if (oh < 0 || oh >= os[1]) continue;
      for (int32_t w = 0; w < is[2]; ++w) {
        const int32_t ow = w * bw + dx - crops[2];
        if (ow < 0 || ow >= os[2]) continue;
        for (int32_t d = 0; d < is[3]; ++d) out[offset4(os, n, oh, ow, d)] = in[offset4(is, b, h, w, d)];
      }
    }
  }
  return out;
}

// ARG_MAX / ARG_MIN (arg_min_max.cc -> reference_ops::ArgMinMax): for each
// (outer, inner) pair, the index along `axis` (negative from the end) of the
// largest (smallest) value; the running choice changes only on a strictly
// greater (less) value, so the earliest of tied extremes is returned.
inline std::vector<int32_t> arg_min_max(const std::vector<int8_t>& x, const std::vector<int32_t>& shape, int32_t axis,
                                        bool is_max) {
  const int32_t rank = static_cast<int32_t>(shape.size());
  if (axis < 0) axis += rank;
  int32_t outer_size = 1, inner_size = 1;
  for (int32_t d = 0; d < axis; ++d) outer_size *= shape[static_cast<size_t>(d)];
  for (int32_t d = axis + 1; d < rank; ++d) inner_size *= shape[static_cast<size_t>(d)];
  const int32_t axis_size = shape[static_cast<size_t>(axis)];
  std::vector<int32_t> out(static_cast<size_t>(outer_size) * static_cast<size_t>(inner_size));
  for (int32_t outer = 0; outer < outer_size; ++outer) {
    for (int32_t inner = 0; inner < inner_size; ++inner) {
      int8_t chosen = x[static_cast<size_t>(outer * axis_size * inner_size + inner)];
      int32_t chosen_index = 0;
      for (int32_t i = 1; i < axis_size; ++i) {
        const int8_t candidate = x[static_cast<size_t>((outer * axis_size + i) * inner_size + inner)];
        const bool better = is_max ? candidate > chosen : candidate < chosen;
        if (better) {
          chosen = candidate;
          chosen_index = i;
        }
      }
      out[static_cast<size_t>(outer * inner_size + inner)] = chosen_index;
    }
  }
  return out;
}

}  // namespace etns::testing::tflm
