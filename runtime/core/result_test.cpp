#include "runtime/core/result.h"

#include <gtest/gtest.h>

namespace etns::runtime {
namespace {

Result<int> half(int value) {
  if (value % 2 != 0) return Error::InvalidArgument;
  return value / 2;
}

Result<int> quarter(int value) {
  ETNS_ASSIGN_OR_RETURN(const int h, half(value));
  return half(h);
}

Error check_even(int value) {
  ETNS_TRY(half(value).ok() ? Error::Ok : Error::InvalidArgument);
  return Error::Ok;
}

TEST(Result, HoldsValueOrError) {
  Result<int> ok = half(8);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 4);
  Result<int> bad = half(3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), Error::InvalidArgument);
}

TEST(Result, OkAsErrorBecomesInternal) {
  Result<int> broken(Error::Ok);
  EXPECT_FALSE(broken.ok());
  EXPECT_EQ(broken.error(), Error::Internal);
}

TEST(Result, MacrosPropagate) {
  EXPECT_EQ(*quarter(8), 2);
  EXPECT_EQ(quarter(6).error(), Error::InvalidArgument);
  EXPECT_EQ(check_even(2), Error::Ok);
  EXPECT_EQ(check_even(3), Error::InvalidArgument);
}

TEST(Error, NamesEveryCode) {
  EXPECT_STREQ(to_string(Error::OperatorMissing), "OperatorMissing");
  EXPECT_STREQ(to_string(Error::InvalidProgram), "InvalidProgram");
}

}  // namespace
}  // namespace etns::runtime
