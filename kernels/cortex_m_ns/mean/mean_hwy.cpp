#include <algorithm>

#include "kernels/cortex_m_ns/mean/mean.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m_ns/mean/mean_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m_ns::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::LaneRequant;

// The sums are formed as sum(q) - count * in_zero_point: the same int32 as
// the reference's running sum of (q - in_zero_point), since prepare bounds
// the count by 2^31 / 255 so neither form overflows.

// One output from its sum, as the reference.
int8_t Finish(const MeanParams& p, int32_t acc) {
  const int64_t y = int64_t{kernels::requantize(acc, p.out)} + p.out_zero_point;
  return static_cast<int8_t>(std::clamp<int64_t>(y, -128, 127));
}

// sum(run[0..n)), n contiguous codes: bytes biased to unsigned (q + 128)
// summed eight at a time into uint64 lanes (SumsOf8), the bias removed at the end.
int64_t SumRun(const int8_t* run, size_t n) {
  int64_t total = 0;
  size_t s = 0;
#if HWY_TARGET != HWY_SCALAR  // one byte lane has no eight to sum
  const hn::ScalableTag<uint8_t> d8;
  const hn::Repartition<uint64_t, decltype(d8)> d64;
  const size_t lanes = hn::Lanes(d8);
  const auto* bytes = reinterpret_cast<const uint8_t*>(run);
  const auto bias = hn::Set(d8, uint8_t{0x80});
  auto sums = hn::Zero(d64);
  for (; s + lanes <= n; s += lanes) {
    sums = hn::Add(sums, hn::SumsOf8(hn::Xor(hn::LoadU(d8, bytes + s), bias)));
  }
  total = static_cast<int64_t>(hn::GetLane(hn::SumOfLanes(d64, sums))) -
          128 * static_cast<int64_t>(s);
#endif
  for (; s < n; ++s) total += run[s];
  return total;
}

#if HWY_TARGET != HWY_SCALAR
// Channels that divide a whole vector of bytes (channels_last means: 16
// channels in 64-byte vectors): a [reduce, inner] block is contiguous, and
// byte j of it is channel j % inner, so whole vectors are summed in uint16
// lanes, at most 128 vectors before they are widened to int32, and the lanes
// folded onto their channels at the end. Each byte is biased to unsigned
// (x ^ 0x80 = x + 128); a uint16 lane then holds 256 * odd + even, so the
// lanes' plain sum and the sum of their high bytes (one shift, where
// sign-extending both halves took three: 512-bit shifts share one port) give
// both sums exactly: each is at most 128 * 255, below 2^16. `sums` receives
// inner values; the caller subtracts the zero point's share.
constexpr size_t kFoldMaxLanes = HWY_MAX_BYTES;

void FoldedColumnSums(const MeanGeometry& g, const int8_t* base, size_t block, int32_t* sums) {
  const hn::ScalableTag<uint16_t> d16;
  const hn::Repartition<uint8_t, decltype(d16)> d8;
  const hn::Repartition<int32_t, decltype(d16)> d32;
  const hn::Half<decltype(d16)> dh16;
  const size_t lanes = hn::Lanes(d8);
  const size_t half = hn::Lanes(d32);
  const size_t row = g.reduce * g.inner;
  const auto bias = hn::Set(d8, uint8_t{0x80});
  const auto* bytes = reinterpret_cast<const uint8_t*>(base);
  // Per uint16 lane l: the bytes 2l (even) and 2l + 1 (odd) of a vector.
  HWY_ALIGN int32_t even[kFoldMaxLanes / 2] = {};
  HWY_ALIGN int32_t odd[kFoldMaxLanes / 2] = {};
  // wide += v - 128 * count, v's halves widened to int32.
  const auto widen_into = [&](int32_t* wide, hn::Vec<decltype(d16)> v, size_t count) HWY_ATTR {
    const auto unbias = hn::Set(d32, static_cast<int32_t>(128 * count));
    const auto low = hn::BitCast(d32, hn::PromoteTo(hn::Rebind<uint32_t, decltype(dh16)>(), hn::LowerHalf(dh16, v)));
    const auto high = hn::BitCast(d32, hn::PromoteTo(hn::Rebind<uint32_t, decltype(dh16)>(), hn::UpperHalf(dh16, v)));
    hn::Store(hn::Add(hn::Load(d32, wide), hn::Sub(low, unbias)), d32, wide);
    hn::Store(hn::Add(hn::Load(d32, wide + half), hn::Sub(high, unbias)), d32, wide + half);
  };
  for (size_t c = 0; c < g.inner; ++c) sums[c] = 0;
  for (size_t r = 0; r < g.reduce_outer; ++r) {
    const uint8_t* run = bytes + r * block;
    size_t j = 0;
    while (j + lanes <= row) {
      const size_t count = std::min<size_t>(128, (row - j) / lanes);
      const uint8_t* at = run + j;
      // Two vectors a step into two pairs of sums: each add waits only for
      // its own chain.
      auto total = hn::Zero(d16);
      auto odd_sum = hn::Zero(d16);
      auto total2 = hn::Zero(d16);
      auto odd_sum2 = hn::Zero(d16);
      size_t k = 0;
      for (; k + 2 <= count; k += 2) {
        const auto v = hn::BitCast(d16, hn::Xor(hn::LoadU(d8, at + k * lanes), bias));
        const auto w = hn::BitCast(d16, hn::Xor(hn::LoadU(d8, at + (k + 1) * lanes), bias));
        total = hn::Add(total, v);
        odd_sum = hn::Add(odd_sum, hn::ShiftRight<8>(v));
        total2 = hn::Add(total2, w);
        odd_sum2 = hn::Add(odd_sum2, hn::ShiftRight<8>(w));
      }
      if (k < count) {
        const auto v = hn::BitCast(d16, hn::Xor(hn::LoadU(d8, at + k * lanes), bias));
        total = hn::Add(total, v);
        odd_sum = hn::Add(odd_sum, hn::ShiftRight<8>(v));
      }
      total = hn::Add(total, total2);
      odd_sum = hn::Add(odd_sum, odd_sum2);
      // Modulo 2^16: total - 256 * odd_sum is the even bytes' sum.
      widen_into(even, hn::Sub(total, hn::ShiftLeft<8>(odd_sum)), count);
      widen_into(odd, odd_sum, count);
      j += count * lanes;
    }
    // The last bytes (fewer than a vector) start at a multiple of inner.
    for (; j < row; ++j) sums[j % g.inner] += static_cast<int8_t>(run[j]);
  }
  // Byte b of a vector belongs to channel b % inner; inner divides the
  // vector's bytes, a power of two, so that is a mask, not a division.
  const size_t channel_mask = g.inner - 1;
  for (size_t l = 0; l < lanes / 2; ++l) {
    sums[(2 * l) & channel_mask] += even[l];
    sums[(2 * l + 1) & channel_mask] += odd[l];
  }
}
#endif

void MeanS8(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  const size_t row = g.reduce * g.inner;  // one [reduce, inner] block
  const size_t block = g.middle * row;    // one [middle, reduce, inner] block
  const int64_t offset = static_cast<int64_t>(g.count()) * p.in_zero_point;
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
  const LaneRequant<decltype(d)> out_rq(d, p.out);
  const auto lane_offset = hn::Set(d, static_cast<int32_t>(offset));
  const auto out_zero_point = hn::Set(d, p.out_zero_point);
  // clamp(y + zp, -128, 127) as clamp(y, -128 - zp, 127 - zp) + zp: exact,
  // and no int32 overflow for y near the ends.
  const auto low = hn::Set(d, -128 - p.out_zero_point);
  const auto high = hn::Set(d, 127 - p.out_zero_point);
  for (size_t o = 0; o < g.outer; ++o) {
    for (size_t m = 0; m < g.middle; ++m) {
      const int8_t* base = in + o * g.reduce_outer * block + m * row;
      if (g.inner == 1) {
        // Contiguous runs of `reduce` codes.
        int64_t sum = 0;
        for (size_t r = 0; r < g.reduce_outer; ++r) sum += SumRun(base + r * block, g.reduce);
        *out++ = Finish(p, static_cast<int32_t>(sum - offset));
        continue;
      }
#if HWY_TARGET != HWY_SCALAR
      if (hn::Lanes(hn::ScalableTag<int8_t>()) % g.inner == 0) {
        HWY_ALIGN int32_t sums[kFoldMaxLanes];
        FoldedColumnSums(g, base, block, sums);
        size_t i = 0;
        for (; i + lanes <= g.inner; i += lanes) {
          const auto y = out_rq(d, hn::Sub(hn::Load(d, sums + i), lane_offset));
          hn::StoreU(hn::DemoteTo(d8, hn::Add(hn::Min(hn::Max(y, low), high), out_zero_point)), d8, out + i);
        }
        for (; i < g.inner; ++i) out[i] = Finish(p, static_cast<int32_t>(sums[i] - offset));
        out += g.inner;
        continue;
      }
#endif
      // Columns: a vector of adjacent columns summed row by row in int32
      // lanes, requantised together; the last columns (fewer than a vector)
      // one at a time.
      size_t i = 0;
      for (; i + lanes <= g.inner; i += lanes) {
        auto acc = hn::Zero(d);
        for (size_t r = 0; r < g.reduce_outer; ++r) {
          const int8_t* column = base + r * block + i;
          for (size_t s = 0; s < g.reduce; ++s) {
            acc = hn::Add(acc, hn::PromoteTo(d, hn::LoadU(d8, column + s * g.inner)));
          }
        }
        const auto y = out_rq(d, hn::Sub(acc, lane_offset));
        hn::StoreU(hn::DemoteTo(d8, hn::Add(hn::Min(hn::Max(y, low), high), out_zero_point)), d8,
                   out + i);
      }
      for (; i < g.inner; ++i) {
        int32_t sum = 0;
        for (size_t r = 0; r < g.reduce_outer; ++r) {
          const int8_t* column = base + r * block + i;
          for (size_t s = 0; s < g.reduce; ++s) sum += column[s * g.inner];
        }
        out[i] = Finish(p, static_cast<int32_t>(sum - offset));
      }
      out += g.inner;
    }
  }
}

}  // namespace etns::cortex_m_ns::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m_ns {

HWY_EXPORT(MeanS8);

void mean_s8_hwy(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  HWY_DYNAMIC_DISPATCH(MeanS8)(p, g, in, out);
}

}  // namespace etns::cortex_m_ns
#endif  // HWY_ONCE
