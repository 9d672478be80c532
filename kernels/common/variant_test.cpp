// The host's run-time choice between each operator's fastest variant and its
// reference (program benchmarks time both in one run).
#include "kernels/common/variant.h"

#include <gtest/gtest.h>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m_ns/sub/sub.h"

namespace etns::kernels {
namespace {

template <typename Fn, size_t N>
Fn last(const Variant<Fn> (&variants)[N]) {
  return variants[N - 1].fn;
}

#if !(ETNS_HAVE_MVE || defined(ETNS_REFERENCE_KERNELS))
TEST(Variants, TheHostRunsTheReferencesWhenAsked) {
  ASSERT_FALSE(reference_kernels());
  EXPECT_EQ(fastest(kConv2dVariants), last(kConv2dVariants));
  EXPECT_EQ(fastest(kSubVariants), last(kSubVariants));
  set_reference_kernels(true);
  EXPECT_EQ(fastest(kConv2dVariants), kConv2dVariants[0].fn);
  EXPECT_EQ(fastest(kSubVariants), kSubVariants[0].fn);
  set_reference_kernels(false);
  EXPECT_EQ(fastest(kConv2dVariants), last(kConv2dVariants));
}
#endif

}  // namespace
}  // namespace etns::kernels
