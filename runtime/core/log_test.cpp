#include "runtime/core/log.h"

#include <gtest/gtest.h>

namespace etns::runtime {
namespace {

TEST(Dcheck, PassesATrueCondition) { ETNS_DCHECK(1 + 1 == 2); }

#ifdef NDEBUG
TEST(Dcheck, DoesNotEvaluateTheConditionInRelease) {
  int calls = 0;
  ETNS_DCHECK(++calls == 0);
  EXPECT_EQ(calls, 0);
}
#else
TEST(DcheckDeathTest, LogsTheConditionAndAbortsInDebug) {
  EXPECT_DEATH(ETNS_DCHECK(1 + 1 == 3), "log_test.cpp:[0-9]+: DCHECK failed: 1 \\+ 1 == 3");
}
#endif

}  // namespace
}  // namespace etns::runtime
