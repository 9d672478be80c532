#include "kernels/cortex_m/minimum/minimum.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/minimum/minimum_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/broadcast_walk.h"
#include "kernels/common/broadcast_walk_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {

void MinimumS8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  using Rows = kernels::HWY_NAMESPACE::BinaryRowsS8<kernels::HWY_NAMESPACE::MinOp>;
  if (!kernels::broadcast_walk_rows<Rows>(p, self, other, out)) minimum_s8_ref(p, self, other, out);
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(MinimumS8);

void minimum_s8_hwy(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  HWY_DYNAMIC_DISPATCH(MinimumS8)(p, self, other, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
