#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

// The one variant tester of the convolution family (quantized_conv2d and its
// 3x3 and GEMM shapes, quantized_depthwise_conv2d, quantized_transpose_conv2d):
// a case, its random per-channel requantisation, offsets and extents, and the
// check of every variant against the reference. Each operator's Params has
// the same names for what they share (batches, input_h, ..., multipliers,
// shifts); each test keeps its shapes and its description of a case. The draws
// from Rng are in a fixed order, so a seed gives the same cases as before the
// family shared them.
namespace etns::kernels::testing {

// One case: parameters plus per-channel multipliers, shifts and bias, and the
// input and weight bytes, all in test memory.
template <typename Params>
struct ConvCase {
  Params p;
  int32_t* multipliers = nullptr;
  int32_t* shifts = nullptr;
  int32_t* bias = nullptr;  // nullptr: no bias
  int8_t* input = nullptr;
  int8_t* weight = nullptr;
};

template <typename Params>
size_t conv_input_bytes(const Params& p) {
  return static_cast<size_t>(p.batches) * p.input_h * p.input_w * p.input_c;
}
template <typename Params>
size_t conv_out_bytes(const Params& p) {
  return static_cast<size_t>(p.batches) * p.output_h * p.output_w * p.output_c;
}

// Which shifts random_conv_requantization draws from.
enum class ConvShifts : uint8_t {
  Any,          // the corners prepare accepts and random values
  AnyOrRight,   // Any, also drawing the Right list (the 3x3 tests' sequence)
  Right,        // every shift negative: the exporters' factors below 1
};

// Allocates and fills c's per-channel tensors for c.p.output_c channels:
// requantisation from the extremes prepare accepts (and random values), bias
// over all of int32, and points c.p at them.
template <typename Params>
void random_conv_requantization(Rng& rng, ConvCase<Params>& c, bool with_bias,
                                ConvShifts draw = ConvShifts::Any) {
  const int32_t channels = c.p.output_c;
  c.multipliers = ETNS_TEST_ARRAY(int32_t, channels);
  c.shifts = ETNS_TEST_ARRAY(int32_t, channels);
  c.bias = with_bias ? ETNS_TEST_ARRAY(int32_t, channels) : nullptr;
  for (int32_t oc = 0; oc < channels; ++oc) {
    const int32_t multipliers[] = {0,
                                   1,
                                   1 << 30,
                                   INT32_MAX,
                                   rng.uniform32(1 << 30, INT32_MAX),
                                   rng.uniform32(1 << 30, INT32_MAX),
                                   rng.uniform32(0, INT32_MAX)};
    const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-12, 0), rng.uniform32(-12, 0),
                              rng.uniform32(-31, 30)};
    int32_t right_shifts[4] = {-31, -1, -1, -1};
    if (draw != ConvShifts::Any) {
      right_shifts[2] = rng.uniform32(-12, -1);
      right_shifts[3] = rng.uniform32(-31, -1);
    }
    c.multipliers[oc] = rng.pick(multipliers);
    c.shifts[oc] = draw == ConvShifts::Right ? rng.pick(right_shifts) : rng.pick(shifts);
    if (with_bias) {
      const int32_t biases[] = {0, rng.uniform32(-5000, 5000), rng.uniform32(INT32_MIN, INT32_MAX)};
      c.bias[oc] = rng.pick(biases);
    }
  }
  c.p.multipliers = c.multipliers;
  c.p.shifts = c.shifts;
}

// Allocates and fills c's input and `weight_bytes` of weight with random
// bytes; `slack` bytes more of each are allocated (and left unfilled).
template <typename Params>
void random_conv_data(Rng& rng, ConvCase<Params>& c, size_t weight_bytes, size_t slack = 1) {
  c.input = ETNS_TEST_ARRAY(int8_t, conv_input_bytes(c.p) + slack);
  c.weight = ETNS_TEST_ARRAY(int8_t, weight_bytes + slack);
  rng.fill_s8(c.input, conv_input_bytes(c.p));
  rng.fill_s8(c.weight, weight_bytes);
}

// Both of the above: the whole case for c.p.
template <typename Params>
void fill_conv_case(Rng& rng, ConvCase<Params>& c, bool with_bias, size_t weight_bytes,
                    ConvShifts draw = ConvShifts::Any) {
  random_conv_requantization(rng, c, with_bias, draw);
  random_conv_data(rng, c, weight_bytes);
}

// Input and weights of only -128 and 127: the largest products and sums.
template <typename Params>
void fill_conv_int8_extremes(Rng& rng, ConvCase<Params>& c, size_t weight_bytes) {
  for (size_t k = 0; k < conv_input_bytes(c.p); ++k) c.input[k] = rng.coin() ? -128 : 127;
  for (size_t k = 0; k < weight_bytes; ++k) c.weight[k] = rng.coin() ? -128 : 127;
}

// out's extent along one dim: PyTorch's symmetric formula, TF SAME's
// ceil(in / stride) (extra padding on the far side), or a bit more; >= 1.
inline int32_t random_out_extent(Rng& rng, int32_t in, int32_t kernel, int32_t stride,
                                 int32_t pad, int32_t dilation) {
  const int32_t span = dilation * (kernel - 1) + 1;
  const int32_t symmetric = (in + 2 * pad - span) / stride + 1;
  const int32_t same = (in + stride - 1) / stride;
  int32_t out = 0;
  switch (rng.uniform(0, 3)) {
    case 0:
    case 1:
      out = in + 2 * pad >= span ? symmetric : same;
      break;
    case 2:
      out = same;
      break;
    default:
      out = (in + 2 * pad >= span ? symmetric : same) + rng.uniform32(1, 3);
      break;
  }
  return out < 1 ? 1 : out;
}

// Offsets at their extremes, 0 or random; the activation range whole or random.
template <typename Params>
void random_conv_offsets(Rng& rng, Params& p) {
  const int32_t input_offsets[] = {-127, 128, 0, rng.uniform32(-127, 128)};
  p.input_offset = rng.pick(input_offsets);
  p.output_offset = rng.uniform32(-128, 127);
  if (rng.coin()) {
    p.activation_min = -128;
    p.activation_max = 127;
  } else {
    p.activation_min = rng.uniform32(-128, 127);
    p.activation_max = rng.uniform32(p.activation_min, 127);
  }
}

// check_variants on a conv-family case: each variant gets c's tensors and a
// scratch buffer of `scratch_bytes` (+ `slack`).
template <typename Fn, size_t N, typename Params>
void check_conv_variants(const Variant<Fn> (&variants)[N], const ConvCase<Params>& c,
                         size_t scratch_bytes, size_t slack, const char* what, const char* file,
                         int line) {
  uint8_t* scratch = test_array_at<uint8_t>(scratch_bytes + slack, file, line);
  check_variants(
      variants, conv_out_bytes(c.p),
      [&](Fn fn, void* out) {
        fn(c.p, c.input, c.weight, c.bias, static_cast<int8_t*>(out), scratch);
      },
      what, file, line);
}

}  // namespace etns::kernels::testing

// Checks every variant against the reference on a ConvCase, with a scratch
// buffer of scratch_bytes + slack, and returns from the calling function when
// one differs; the trailing arguments describe the case (printf-style).
#define ETNS_CHECK_CONV_VARIANTS(variants, c, scratch_bytes, slack, ...)               \
  do {                                                                                 \
    ::etns::kernels::testing::check_conv_variants(                                     \
        (variants), (c), (scratch_bytes), (slack),                                     \
        ::etns::kernels::testing::case_text(__VA_ARGS__).text, __FILE__, __LINE__);    \
    ETNS_RETURN_IF_FAILED();                                                           \
  } while (0)
