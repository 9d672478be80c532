// What the conv2d Highway files share (host only): the output stage of a
// block of output channels, and the x86 paths' entry points, each defined in
// its own file (conv2d_hwy_vnni.cpp, conv2d_hwy_pairs.cpp) and called by
// conv2d_hwy.cpp's Conv2dS8. Included after hwy/foreach_target.h, so it is
// compiled once per target: the guard below toggles with HWY_TARGET_TOGGLE
// instead of #pragma once.
#if defined(ETNS_KERNELS_CORTEX_M_CONV2D_CONV2D_HWY_BLOCK_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ETNS_KERNELS_CORTEX_M_CONV2D_CONV2D_HWY_BLOCK_H_
#undef ETNS_KERNELS_CORTEX_M_CONV2D_CONV2D_HWY_BLOCK_H_
#else
#define ETNS_KERNELS_CORTEX_M_CONV2D_CONV2D_HWY_BLOCK_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "kernels/common/requantize_hwy.h"
#include "kernels/cortex_m/conv2d/conv2d.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::RequantPerLane;
using kernels::HWY_NAMESPACE::WrappingAdd;

// The output stage of one block of output channels [oc0, oc0 + count), at
// most kMaxLanes, for the paths that sum whole vectors of channels: each
// pixel's int32 sums requantised with the channels' factors (copied once, 0
// past count), offset, clamped and stored. Whole vectors are stored in place;
// the last count % lanes bytes go through `bytes` (a library memcpy per pixel
// cost more than the requantisation).
template <size_t kMaxLanes>
struct BlockOutput {
  BlockOutput(const Conv2dParams& p, int32_t first, int32_t channels) : oc0(first), count(channels) {
    std::copy_n(p.multipliers + oc0, count, multipliers);
    std::copy_n(p.shifts + oc0, count, shifts);
  }

  // `sums`: the pixel's kVectors vectors, ceil(count / lanes); `pixel`: its
  // output. The vector count is a constant so the loop unrolls.
  template <int kVectors>
  HWY_INLINE void Store(const Conv2dParams& p, const int32_t* sums, int8_t* pixel) {
    const hn::ScalableTag<int32_t> d32;
    const hn::Rebind<int8_t, decltype(d32)> d8;
    const size_t lanes = hn::Lanes(d32);
    const size_t n = static_cast<size_t>(count);
    const size_t whole = n / lanes * lanes;
    const auto output_offset = hn::Set(d32, p.output_offset);
    const auto low = hn::Set(d32, p.activation_min);
    const auto high = hn::Set(d32, p.activation_max);
    int8_t* dst = pixel + oc0;
    for (int v = 0; v < kVectors; ++v) {
      const size_t lane = static_cast<size_t>(v) * lanes;
      const auto y = RequantPerLane(d32, hn::Load(d32, sums + lane), hn::Load(d32, multipliers + lane),
                                    hn::Load(d32, shifts + lane));
      const auto clamped = hn::Min(hn::Max(WrappingAdd(d32, y, output_offset), low), high);
      if (lane < whole) {
        hn::StoreU(hn::DemoteTo(d8, clamped), d8, dst + lane);
      } else {
        hn::Store(hn::DemoteTo(d8, clamped), d8, bytes + lane);
      }
    }
    if (whole < n) std::memcpy(dst + whole, bytes + whole, n - whole);
  }

  int32_t oc0, count;
  HWY_ALIGN int32_t multipliers[kMaxLanes] = {};
  HWY_ALIGN int32_t shifts[kMaxLanes] = {};
  HWY_ALIGN int8_t bytes[kMaxLanes];
};

#if HWY_TARGET == HWY_AVX3_DL
// AVX-512 VNNI byte dot products (conv2d_hwy_vnni.cpp). Returns false, doing
// nothing, for a shape that path does not take.
bool Conv2dS8Vnni(const Conv2dParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
                  int8_t* out);
#endif
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
// Int16 pairs on the x86 targets without VNNI (conv2d_hwy_pairs.cpp).
// Returns false, doing nothing, for a shape that path does not take.
bool Conv2dS8Pairs(const Conv2dParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
                   int8_t* out);
#endif

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ETNS_KERNELS_CORTEX_M_CONV2D_CONV2D_HWY_BLOCK_H_
