// The host harness of the kernel tests written with kernel_test.h: each one
// becomes a GoogleTest test, so filters, repeats and reports work as usual.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/common/hwy_targets.h"
#include "kernels/testing/kernel_test.h"

namespace {

using etns::kernels::testing::TestCase;

void report_to_gtest(const char* file, int line, const char* message) {
  ADD_FAILURE_AT(file, line) << message;
}

class KernelTest : public ::testing::Test {
 public:
  explicit KernelTest(const TestCase* test) : test_(test) {}
  void TestBody() override { etns::kernels::testing::run_test(*test_); }

 private:
  const TestCase* test_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // As much as the M55 image gets (its planned-memory region), so a test
  // that fits here fits there.
  static std::vector<uint8_t> memory(4u << 20);
  etns::kernels::testing::set_test_memory(memory.data(), memory.size());
  etns::kernels::testing::set_failure_sink(report_to_gtest);
  for (TestCase* test = etns::kernels::testing::first_test(); test != nullptr; test = test->next) {
    ::testing::RegisterTest(test->suite, test->name, nullptr, nullptr, test->file, test->line,
                            [test]() -> ::testing::Test* { return new KernelTest(test); });
  }
  const int result = RUN_ALL_TESTS();
#if ETNS_HAVE_HWY
  // Which instruction sets the "hwy" variants were checked on (variant_check.h).
  char targets[256];
  etns::kernels::describe_hwy_targets_run(targets, sizeof targets);
  std::printf("%s\n", targets);
#endif
  return result;
}
