#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/variant.h"
#include "kernels/testing/conv_family_tester.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

// The bench rows of the convolution family (kernel_bench.h): a layer's
// per-channel values as exporters write them, and one row measuring every
// variant. The allocations and Rng draws are in a fixed order, so a row's
// data, and so its M55 counts, do not depend on which operator builds it.
namespace etns::kernels::testing {

// Per-channel tensors of a bench row, in test memory.
struct ConvBenchChannels {
  int32_t* multipliers;
  int32_t* shifts;
  int32_t* bias;
};

// Multipliers in [2^30, multiplier_max], shifts in [shift_lo, shift_hi] and
// bias in [-2000, 2000], drawn per channel in that order.
inline ConvBenchChannels random_bench_channels(Rng& rng, int32_t channels, int32_t multiplier_max,
                                               int32_t shift_lo, int32_t shift_hi) {
  ConvBenchChannels c{ETNS_TEST_ARRAY(int32_t, channels), ETNS_TEST_ARRAY(int32_t, channels),
                      ETNS_TEST_ARRAY(int32_t, channels)};
  for (int32_t oc = 0; oc < channels; ++oc) {
    c.multipliers[oc] = rng.uniform32(1 << 30, multiplier_max);
    c.shifts[oc] = rng.uniform32(shift_lo, shift_hi);
    c.bias[oc] = rng.uniform32(-2000, 2000);
  }
  return c;
}

// One row: input and `weight_bytes` of weight random from rng (in that order),
// out and `scratch_bytes` (+ 16) of scratch in test memory, then every variant
// measured on p with `bias`.
template <typename Fn, size_t N, typename Params>
void measure_conv_variants(Bench& bench, const Variant<Fn> (&variants)[N], const Params& p,
                           const int32_t* bias, size_t weight_bytes, size_t scratch_bytes,
                           Rng& rng) {
  const size_t input_bytes = conv_input_bytes(p);
  int8_t* input = ETNS_TEST_ARRAY(int8_t, input_bytes);
  int8_t* weight = ETNS_TEST_ARRAY(int8_t, weight_bytes);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, conv_out_bytes(p));
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, scratch_bytes + 16);
  rng.fill_s8(input, input_bytes);
  rng.fill_s8(weight, weight_bytes);
  for (const auto& v : variants) {
    bench.measure(v.isa, [&] { v.fn(p, input, weight, bias, out, scratch); });
  }
}

}  // namespace etns::kernels::testing
