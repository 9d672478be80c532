// Host only (built with Highway): forcing a target really moves dynamic
// dispatch there, and check_variants runs a "hwy" variant on every target.
#include "kernels/common/hwy_targets.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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

TEST(HwyTargets, ForcingByNameMovesDispatchUntilReset) {
  const int64_t supported = hwy_supported_targets();
  int64_t last = 0;
  for (int64_t left = supported; left != 0; left &= left - 1) {
    last = left & -left;
    ASSERT_TRUE(force_hwy_target(hwy_target_name(last))) << hwy_target_name(last);
    EXPECT_EQ(hwy_dispatched_target(), last) << hwy_target_name(last);
  }
  EXPECT_FALSE(force_hwy_target("NOT_A_TARGET"));
  EXPECT_FALSE(force_hwy_target(""));
  EXPECT_EQ(hwy_dispatched_target(), last);  // a refused name changes nothing
  for_each_hwy_target([](int64_t, const char*) { return true; });  // resets dispatch to the CPU's choice
  EXPECT_EQ(hwy_dispatched_target(), supported & -supported);
}

TEST(HwyTargets, TheEnvironmentNamesTheTargetOrTheError) {
  char error[512] = "";
  ASSERT_EQ(setenv("ETNS_HWY_TARGET", "", 1), 0);
  EXPECT_TRUE(apply_hwy_target_from_environment(error, sizeof(error)));
  ASSERT_EQ(setenv("ETNS_HWY_TARGET", "PENTIUM", 1), 0);
  EXPECT_FALSE(apply_hwy_target_from_environment(error, sizeof(error)));
  const std::string expected = "ETNS_HWY_TARGET=PENTIUM: not a target this CPU runs (it runs: ";
  EXPECT_EQ(std::string(error).substr(0, expected.size()), expected) << error;
  const int64_t supported = hwy_supported_targets();
  const int64_t worst = int64_t{1} << (63 - __builtin_clzll(static_cast<unsigned long long>(supported)));
  ASSERT_EQ(setenv("ETNS_HWY_TARGET", hwy_target_name(worst), 1), 0);
  EXPECT_TRUE(apply_hwy_target_from_environment(error, sizeof(error)));
  EXPECT_EQ(hwy_dispatched_target(), worst);
  unsetenv("ETNS_HWY_TARGET");
  for_each_hwy_target([](int64_t, const char*) { return true; });
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
