// The Cortex-M55 harness of the kernel tests written with kernel_test.h: runs
// every test in the image under QEMU, prints GoogleTest-like lines and a
// closing "N passed, N failed" on the console, and exits non-zero when any
// test failed, so CTest judges the run by its exit status.
#include <cstddef>
#include <cstring>

#include "firmware/port.h"
#include "firmware/tests/console.h"
#include "kernels/common/isa.h"
#include "kernels/testing/kernel_test.h"

namespace {

namespace port = etns::firmware::port;
using etns::firmware::console_print;
using etns::kernels::testing::TestCase;

void report_to_console(const char* file, int line, const char* message) {
  console_print("%s:%d: Failure\n%s\n", file, line, message);
}

}  // namespace

extern "C" int etns_firmware_main() {
  etns::kernels::testing::set_test_memory(port::planned_memory(), port::planned_memory_bytes());
  etns::kernels::testing::set_failure_sink(report_to_console);
  console_print("kernel tests on %s (MVE variants %s)\n", port::board_name(),
        ETNS_HAVE_MVE ? "compiled" : "not compiled");
  unsigned passed = 0;
  unsigned failed = 0;
  for (const TestCase* test = etns::kernels::testing::first_test(); test != nullptr;
       test = test->next) {
    console_print("[ RUN      ] %s.%s\n", test->suite, test->name);
    if (etns::kernels::testing::run_test(*test)) {
      ++passed;
      console_print("[       OK ] %s.%s\n", test->suite, test->name);
    } else {
      ++failed;
      console_print("[  FAILED  ] %s.%s\n", test->suite, test->name);
    }
  }
  console_print("%u passed, %u failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
