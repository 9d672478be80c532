// The Cortex-M55 harness of the kernel tests written with kernel_test.h: runs
// every test in the image under QEMU, prints GoogleTest-like lines and a
// closing "N passed, N failed" on the console, and exits non-zero when any
// test failed, so CTest judges the run by its exit status.
#include <cstdarg>
#include <cstddef>
#include <cstring>

#include "firmware/port.h"
#include "kernels/common/isa.h"
#include "kernels/testing/kernel_test.h"
#include "runtime/core/format.h"

namespace {

namespace port = etns::firmware::port;
using etns::kernels::testing::TestCase;

void print(const char* format, ...) __attribute__((format(printf, 1, 2)));
void print(const char* format, ...) {
  char line[600];
  va_list args;
  va_start(args, format);
  const size_t length = etns::runtime::format_text_v(line, sizeof(line), format, args);
  va_end(args);
  port::console_write(line, length < sizeof(line) ? length : sizeof(line) - 1);
}

void report_to_console(const char* file, int line, const char* message) {
  print("%s:%d: Failure\n%s\n", file, line, message);
}

}  // namespace

extern "C" int etns_firmware_main() {
  etns::kernels::testing::set_test_memory(port::planned_memory(), port::planned_memory_bytes());
  etns::kernels::testing::set_failure_sink(report_to_console);
  print("kernel tests on %s (MVE variants %s)\n", port::board_name(),
        ETNS_HAVE_MVE ? "compiled" : "not compiled");
  unsigned passed = 0;
  unsigned failed = 0;
  for (const TestCase* test = etns::kernels::testing::first_test(); test != nullptr;
       test = test->next) {
    print("[ RUN      ] %s.%s\n", test->suite, test->name);
    if (etns::kernels::testing::run_test(*test)) {
      ++passed;
      print("[       OK ] %s.%s\n", test->suite, test->name);
    } else {
      ++failed;
      print("[  FAILED  ] %s.%s\n", test->suite, test->name);
    }
  }
  print("%u passed, %u failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
