#include "kernels/common/requantize.h"
#include "kernels/cortex_m/softmax/softmax.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/softmax/softmax_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::DoublingHighMultiply;
using kernels::HWY_NAMESPACE::RoundingDivideByPow2;

constexpr int32_t kAccumBits = 12;

// The reference's RDIV: 0 for exponents of 32 and more.
int32_t RoundingDivide(int32_t x, int32_t exponent) {
  return exponent >= 32 ? 0 : kernels::rounding_divide_by_pow2(x, exponent);
}

// One int32 lane per element: e(diff) gathered from exp_table by max - x
// (in [0, 255]; the table holds 0 below diff_min, as e is there), so the sum
// needs no mask. The row's sum wraps in uint32 lanes as the reference's.
void SoftmaxS8(const SoftmaxParams& p, const int8_t* input, int8_t* out) {
  const hn::ScalableTag<int32_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
  const size_t n = static_cast<size_t>(p.row_size);
  const auto diff_min = hn::Set(d, p.diff_min);
  const auto low = hn::Set(d, int32_t{INT8_MIN});
  const auto high = hn::Set(d, int32_t{INT8_MAX});
  for (int32_t row = 0; row < p.rows; ++row, input += n, out += n) {
    int32_t max = INT8_MIN;
    size_t j = 0;
    if (n >= lanes) {
      auto largest = hn::Set(d, int32_t{INT8_MIN});
      for (; j + lanes <= n; j += lanes) largest = hn::Max(largest, hn::PromoteTo(d, hn::LoadU(d8, input + j)));
      max = hn::GetLane(hn::MaxOfLanes(d, largest));
    }
    for (; j < n; ++j) max = input[j] > max ? input[j] : max;
    const auto row_max = hn::Set(d, max);

    auto sums = hn::Zero(du);
    j = 0;
    for (; j + lanes <= n; j += lanes) {
      const auto index = hn::Sub(row_max, hn::PromoteTo(d, hn::LoadU(d8, input + j)));
      const auto e = hn::GatherIndex(d, p.exp_table, index);
      sums = hn::Add(sums, hn::BitCast(du, RoundingDivideByPow2(d, e, kAccumBits)));
    }
    // Summed lane by lane in uint32, wrapping as the reference does: the
    // x86 horizontal add intrinsics finish in signed int, which overflows.
    HWY_ALIGN uint32_t lane_sums[HWY_MAX_BYTES / sizeof(uint32_t)];
    hn::Store(sums, du, lane_sums);
    uint32_t sum = 0;
    for (size_t lane = 0; lane < lanes; ++lane) sum += lane_sums[lane];
    for (; j < n; ++j) {
      sum += static_cast<uint32_t>(RoundingDivide(p.exp_table[max - input[j]], kAccumBits));
    }

    const SoftmaxRowScale row_scale = softmax_row_scale(sum);
    const auto scale = hn::Set(d, row_scale.scale);
    const int32_t bits = row_scale.bits_over_unit;
    j = 0;
    // DoublingHighMultiply is the reference's except for INT32_MIN * INT32_MIN;
    // e is never INT32_MIN (exp is in [0, 2^31)), but a row whose scale is
    // INT32_MIN goes one element at a time all the same.
    if (row_scale.scale != INT32_MIN) {
      for (; j + lanes <= n; j += lanes) {
        const auto diff = hn::Sub(hn::PromoteTo(d, hn::LoadU(d8, input + j)), row_max);
        const auto e = hn::GatherIndex(d, p.exp_table, hn::Neg(diff));
        const auto scaled = DoublingHighMultiply(d, e, scale);
        const auto divided = bits >= 32 ? hn::Zero(d) : RoundingDivideByPow2(d, scaled, bits);
        // Minus 128 wrapping, as the reference.
        const auto value = hn::BitCast(d, hn::Sub(hn::BitCast(du, divided), hn::Set(du, 128u)));
        const auto clamped = hn::Min(hn::Max(value, low), high);
        const auto y = hn::IfThenElse(hn::Lt(diff, diff_min), low, clamped);
        hn::StoreU(hn::DemoteTo(d8, y), d8, out + j);
      }
    }
    for (; j < n; ++j) {
      const int32_t diff = input[j] - max;
      if (diff < p.diff_min) {
        out[j] = INT8_MIN;
        continue;
      }
      const int32_t scaled = kernels::doubling_high_multiply(row_scale.scale, p.exp_table[-diff]);
      const int32_t value = static_cast<int32_t>(static_cast<uint32_t>(RoundingDivide(scaled, bits)) - 128u);
      out[j] = static_cast<int8_t>(kernels::clamp_s32(value, INT8_MIN, INT8_MAX));
    }
  }
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(SoftmaxS8);

void softmax_s8_hwy(const SoftmaxParams& p, const int8_t* input, int8_t* out) {
  HWY_DYNAMIC_DISPATCH(SoftmaxS8)(p, input, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
