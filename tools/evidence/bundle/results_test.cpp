#include "tools/evidence/bundle/results.h"

#include <gtest/gtest.h>

namespace etns::tools {
namespace {

TEST(Aggregate, MedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(aggregate({5, 1, 3}, "median"), 3.0);
  EXPECT_EQ(aggregate({4, 1, 3, 2}, "median"), 2.5);
  EXPECT_EQ(aggregate({7}, "median"), 7.0);
  EXPECT_EQ(aggregate({}, "median"), 0.0);
}

TEST(Aggregate, TrimmedDropsOneLowestAndOneHighest) {
  EXPECT_EQ(aggregate({1, 2, 3, 100}, "trimmed"), 2.5);
  EXPECT_EQ(aggregate({1, 100}, "trimmed"), 50.5) << "below 3 samples: the plain mean";
  EXPECT_EQ(aggregate({1, 2, 6}, "mean"), 3.0);
}

TEST(Aggregate, LargeCountsKeepTheirPrecision) {
  const uint64_t big = (uint64_t{1} << 53) + 2;  // beyond double's integers: summed in long double
  EXPECT_EQ(aggregate({big, big, big}, "mean"), static_cast<double>(big));
}

TEST(Summarize, MedianMeanMinMax) {
  const Stats stats = summarize({9, 1, 5, 3});
  EXPECT_EQ(stats.median, 4.0);
  EXPECT_EQ(stats.mean, 4.5);
  EXPECT_EQ(stats.min, 1.0);
  EXPECT_EQ(stats.max, 9.0);
  EXPECT_EQ(stats.mad, 2.0);  // deviations 5, 1, 1, 3
  EXPECT_EQ(summarize({10, 11, 9, 10, 1000}).mad, 1.0) << "an outlier does not widen it";
}

TEST(Validity, AnyErrorIsInvalidAnyWarningDegraded) {
  EXPECT_EQ(validity_of({}), "valid");
  EXPECT_EQ(validity_of({{"counters.frozen", "warning", "m"}}), "degraded");
  EXPECT_EQ(validity_of({{"counters.frozen", "warning", "m"}, {"run.fault", "error", "m"}}), "invalid");
}

}  // namespace
}  // namespace etns::tools
