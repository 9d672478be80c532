// Int8 dot products on int16 lanes for the host SIMD variants (Highway, host
// only): several weight rows against one window, the matrix-product core of
// conv2d and linear. Included by each *_hwy.cpp after hwy/foreach_target.h,
// so it is compiled once per target: the guard below toggles with
// HWY_TARGET_TOGGLE instead of #pragma once.
#if defined(ETNS_KERNELS_COMMON_DOT_HWY_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ETNS_KERNELS_COMMON_DOT_HWY_H_
#undef ETNS_KERNELS_COMMON_DOT_HWY_H_
#else
#define ETNS_KERNELS_COMMON_DOT_HWY_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

// AVX-512 VNNI functions (vpdpbusd, which Highway 1.0.3 has no operation
// for) add it to the target's own options; Highway's AVX3_DL target implies
// it, so only AVX3_DL code uses it.
#ifndef ETNS_VNNI_ATTR
#define ETNS_VNNI_ATTR __attribute__((target(HWY_TARGET_STR ",avx512vnni")))
#endif

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// sums[r] = window[0..n) . rows[r][0..n) for `count` (1 to 4) weight rows
// `stride` bytes apart: int16 lanes multiplied and added in pairs into int32
// lanes (d32's pairs), one window load shared by the rows. The window is 0
// past n up to a whole vector, so the last vector may read the next weight
// bytes (times 0) when `room` (the weight bytes from the last row on) has
// them; else the last elements go one at a time. The caller bounds n so the
// int32 sums cannot overflow.
template <class D32>
HWY_INLINE void DotRows(D32 d32, const int16_t* window, const int8_t* rows, size_t stride, size_t n,
                        int count, size_t room, int32_t* sums) {
  const int8_t* row[4] = {rows, rows + (count > 1 ? stride : 0), rows + (count > 2 ? 2 * stride : 0),
                          rows + (count > 3 ? 3 * stride : 0)};
  int32_t s[4] = {0, 0, 0, 0};
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR  // one lane has no int16 pair to widen into int32
  const hn::Repartition<int16_t, D32> d16;
  const hn::Rebind<int8_t, decltype(d16)> d8;
  const size_t lanes = hn::Lanes(d16);
  const size_t whole = (n + lanes - 1) / lanes * lanes;
  const size_t end = whole <= room ? whole : n / lanes * lanes;
  auto a0 = hn::Zero(d32), b0 = hn::Zero(d32), a1 = hn::Zero(d32), b1 = hn::Zero(d32);
  auto a2 = hn::Zero(d32), b2 = hn::Zero(d32), a3 = hn::Zero(d32), b3 = hn::Zero(d32);
  for (; i < end; i += lanes) {
    const auto x = hn::LoadU(d16, window + i);
    // Rows past `count` repeat row 0 (in bounds); their sums are dropped.
    a0 = hn::ReorderWidenMulAccumulate(d32, x, hn::PromoteTo(d16, hn::LoadU(d8, row[0] + i)), a0, b0);
    a1 = hn::ReorderWidenMulAccumulate(d32, x, hn::PromoteTo(d16, hn::LoadU(d8, row[1] + i)), a1, b1);
    a2 = hn::ReorderWidenMulAccumulate(d32, x, hn::PromoteTo(d16, hn::LoadU(d8, row[2] + i)), a2, b2);
    a3 = hn::ReorderWidenMulAccumulate(d32, x, hn::PromoteTo(d16, hn::LoadU(d8, row[3] + i)), a3, b3);
  }
  s[0] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a0, b0)));
  s[1] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a1, b1)));
  s[2] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a2, b2)));
  s[3] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a3, b3)));
#else
  (void)d32;
  (void)room;
#endif
  for (; i < n; ++i) {
    for (int r = 0; r < count; ++r) s[r] += window[i] * row[r][i];
  }
  for (int r = 0; r < count; ++r) sums[r] = s[r];
}

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ETNS_KERNELS_COMMON_DOT_HWY_H_
