#pragma once

// What the two Helium depthwise variants share (depthwise_conv2d_mve.cpp, the
// general path; depthwise_conv2d_mve_mult.cpp, the multiplier path): the
// per-channel blocks of values each pass reads from scratch. Internal to
// kernels/cortex_m/depthwise_conv2d; the templates are static so that each
// variant's single call inlines them as before the split.
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

namespace etns::cortex_m::depthwise_mve {

// Channels per pass: 16 int8 lanes, widened into four int32x4 accumulators.
inline constexpr int32_t kLanes = 16;

// Scratch, from a 16-byte aligned base: one block of per-channel values per
// pass, in pass order (multiplier index m, then 16 input channels at a time),
// each block 4 x 16 int32 lanes so that a pass reads all it needs from one
// pointer with immediate offsets and without predication or gathers:
//   [0, 16)   bias + input_offset * sum of the channel's taps, per call
//   [16, 32)  the requantisation multiplier
//   [32, 48)  max(shift, 0)
//   [48, 64)  min(shift, 0)
// Lane l of block (m, b) is output channel (16 b + channel_of_lane(l)) * mult
// + m; lanes past the input channels hold zeros. Full blocks at multiplier 1
// are "paired": the fast path widens 8 channels to int16 and multiplies with
// VMULLB/VMULLT, whose four int32 results hold channels {0, 2, 4, 6},
// {1, 3, 5, 7}, {8, 10, 12, 14} and {9, 11, 13, 15}; other blocks are in
// channel order.
inline constexpr int32_t kBlockValues = 4 * kLanes;

inline int32_t blocks_per_multiplier(const DepthwiseConv2dParams& p) {
  return (p.input_c + kLanes - 1) / kLanes;
}

inline size_t blocks_bytes(const DepthwiseConv2dParams& p) {
  return static_cast<size_t>(p.depth_multiplier) *
         static_cast<size_t>(blocks_per_multiplier(p)) * kBlockValues * sizeof(int32_t);
}

#if ETNS_HAVE_MVE
// kAllPaired: every block paired, tails too (the multiplier path's blocks,
// whose 8-channel halves and tails use the paired lanes of their half).
template <bool kAllPaired>
static bool is_paired(const DepthwiseConv2dParams& p, int32_t first_channel) {
  return p.depth_multiplier == 1 && (kAllPaired || first_channel + kLanes <= p.input_c);
}

// The block lane 4 j + k of a paired block holds channel 8 (j / 2) + 2 k + j % 2.
inline int32_t channel_of_lane(bool paired, int32_t lane) {
  if (!paired) return lane;
  const int32_t j = lane / 4, k = lane % 4;
  return 8 * (j / 2) + 2 * k + j % 2;
}

inline int32_t* aligned_base(uint8_t* scratch) {
  return reinterpret_cast<int32_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                    ~uintptr_t{15});
}

// Fills the blocks. Raw int8 input times weight, the input offset folded in
// per channel: sum((x + io) * w) = sum(x * w) + io * sum(w), all mod 2^32 like
// the reference's int32 accumulator. Computed per call (about 2 instructions
// per weight byte), so the weights need not be constant.
template <bool kAllPaired>
static void fill_blocks(const DepthwiseConv2dParams& p, const int8_t* weight, const int32_t* bias,
                 int32_t* blocks) {
  const int32_t taps = p.filter_h * p.filter_w;
  const int32_t count = p.depth_multiplier * blocks_per_multiplier(p);
  for (int32_t block = 0; block < count; ++block) {
    const int32_t m = block / blocks_per_multiplier(p);
    const int32_t first = (block % blocks_per_multiplier(p)) * kLanes;
    int32_t* q = blocks + static_cast<size_t>(block) * kBlockValues;
    const bool paired = is_paired<kAllPaired>(p, first);
    for (int32_t lane = 0; lane < kLanes; ++lane) {
      const int32_t ic = first + channel_of_lane(paired, lane);
      if (ic >= p.input_c) {
        q[lane] = q[kLanes + lane] = q[2 * kLanes + lane] = q[3 * kLanes + lane] = 0;
        continue;
      }
      const int32_t oc = ic * p.depth_multiplier + m;
      uint32_t sum = 0;
      const int8_t* w = weight + oc;
      for (int32_t t = 0; t < taps; ++t, w += p.output_c) sum += static_cast<uint32_t>(*w);
      const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
      q[lane] = static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) * sum);
      const int32_t shift = p.shifts[oc];
      q[kLanes + lane] = p.multipliers[oc];
      q[2 * kLanes + lane] = shift > 0 ? shift : 0;
      q[3 * kLanes + lane] = shift < 0 ? shift : 0;
    }
  }
}
#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m::depthwise_mve
