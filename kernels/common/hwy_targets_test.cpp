// Host only (built with Highway): forcing a target really moves dynamic
// dispatch there, and check_variants runs a "hwy" variant on every target.
#include "kernels/common/hwy_targets.h"

#include <gtest/gtest.h>

#include "kernels/testing/variant_check.h"

namespace etns::kernels {
namespace {

TEST(HwyTargets, EverySupportedTargetIsDispatchedWhenForced) {
  const int64_t supported = hwy_supported_targets();
  ASSERT_NE(supported, 0) << "no compiled Highway target runs on this CPU";
  EXPECT_EQ(supported & ~hwy_compiled_targets(), 0);
  int64_t visited = 0;
  const bool all = for_each_hwy_target([&](int64_t target, const char* name) {
    EXPECT_EQ(hwy_dispatched_target(), target) << "forcing " << name;
    visited |= target;
    return true;
  });
  EXPECT_TRUE(all);
  EXPECT_EQ(visited, supported);
  // Restored: dispatch is the CPU's own best target again.
  EXPECT_EQ(hwy_dispatched_target(), supported & -supported);
}

// A variant list whose "hwy" entry records the target dispatch picks.
using FillFn = void (*)(uint8_t* out);
int64_t targets_dispatched = 0;
void fill_ref(uint8_t* out) { out[0] = 1; }
void fill_recording(uint8_t* out) {
  targets_dispatched |= hwy_dispatched_target();
  out[0] = 1;
}
constexpr Variant<FillFn> kFillVariants[] = {{"ref", &fill_ref}, {"hwy", &fill_recording}};

TEST(HwyTargets, VariantCheckRunsHwyOnEverySupportedTarget) {
  targets_dispatched = 0;
  testing::check_variants(
      kFillVariants, 1, [](FillFn fn, void* out) { fn(static_cast<uint8_t*>(out)); }, "fill",
      __FILE__, __LINE__);
  EXPECT_NE(targets_dispatched, 0) << "ETNS_HAVE_HWY is set but no Highway target ran";
  EXPECT_EQ(targets_dispatched, hwy_supported_targets());
}

}  // namespace
}  // namespace etns::kernels
