#pragma once

#include <cstddef>
#include <cstdint>

// A small test framework for kernel tests that must run where the code runs:
// the same test sources build into a GoogleTest binary on the host
// (gtest_main.cpp registers every test with GoogleTest) and into a Cortex-M55
// test image run under QEMU (firmware/tests/kernel_tests_main.cpp). It is
// device code: no heap, no exceptions; buffers come from ETNS_TEST_ARRAY, whose
// memory is reset before every test.
//
//   ETNS_KERNEL_TEST(SubS8, VariantsMatchReference) {
//     int8_t* a = ETNS_TEST_ARRAY(int8_t, n);
//     ...
//     ETNS_CHECK(got == want, "n = %zu: got %d, want %d", n, got, want);
//   }
//
// A failed check records one message (file:line: text) and returns from the
// function it is in; helpers that check call ETNS_RETURN_IF_FAILED() after
// each helper call that may fail.
namespace etns::kernels::testing {

using TestBody = void (*)();

struct TestCase {
  const char* suite;
  const char* name;
  TestBody body;
  const char* file;
  int line;
  TestCase* next = nullptr;
};

// Links a test into the list at static-initialisation time (the firmware's
// start-up code runs constructors before main).
class TestRegistrar {
 public:
  explicit TestRegistrar(TestCase* test);
};

// Every registered test, in registration order; nullptr-terminated list.
TestCase* first_test();

// Where failure messages go: GoogleTest on the host, the console on the M55.
using FailureSink = void (*)(const char* file, int line, const char* message);
void set_failure_sink(FailureSink sink);

// The memory ETNS_TEST_ARRAY hands out. The harness sets it once.
void set_test_memory(uint8_t* memory, size_t size_bytes);

// Runs one test: resets the failure flag and the test memory, calls the body.
// Returns true when no check failed.
bool run_test(const TestCase& test);

// Whether a check failed in the running test.
bool test_failed();

// Records a failure of the running test: "file:line: message".
void fail(const char* file, int line, const char* format, ...) __attribute__((format(printf, 3, 4)));

// Zero-filled memory for the running test, 16-byte aligned. A request that
// does not fit is a broken test: it reports and stops the whole run.
void* test_alloc(size_t size_bytes, const char* file, int line);

// Memory handed out after mark() is given back by release(mark); tests that
// loop over many cases keep their footprint flat with a TestMemoryScope.
size_t test_memory_mark();
void test_memory_release(size_t mark);

class TestMemoryScope {
 public:
  TestMemoryScope() : mark_(test_memory_mark()) {}
  ~TestMemoryScope() { test_memory_release(mark_); }
  TestMemoryScope(const TestMemoryScope&) = delete;
  TestMemoryScope& operator=(const TestMemoryScope&) = delete;

 private:
  size_t mark_;
};

template <typename T>
T* test_array_at(size_t count, const char* file, int line) {
  return static_cast<T*>(test_alloc(count * sizeof(T), file, line));
}

}  // namespace etns::kernels::testing

#define ETNS_KERNEL_TEST_NAME_(suite, name, what) etns_kernel_test_##suite##_##name##_##what
#define ETNS_KERNEL_TEST(suite, name)                                                    \
  static void ETNS_KERNEL_TEST_NAME_(suite, name, body)();                               \
  static ::etns::kernels::testing::TestCase ETNS_KERNEL_TEST_NAME_(suite, name, case){   \
      #suite, #name, &ETNS_KERNEL_TEST_NAME_(suite, name, body), __FILE__, __LINE__};    \
  static const ::etns::kernels::testing::TestRegistrar ETNS_KERNEL_TEST_NAME_(           \
      suite, name, registrar)(&ETNS_KERNEL_TEST_NAME_(suite, name, case));               \
  static void ETNS_KERNEL_TEST_NAME_(suite, name, body)()

// Fails the running test with a printf-style message and returns.
#define ETNS_CHECK(condition, ...)                                     \
  do {                                                                 \
    if (!(condition)) {                                                \
      ::etns::kernels::testing::fail(__FILE__, __LINE__, __VA_ARGS__); \
      return;                                                          \
    }                                                                  \
  } while (0)

#define ETNS_RETURN_IF_FAILED()                               \
  do {                                                        \
    if (::etns::kernels::testing::test_failed()) return;      \
  } while (0)

// count values of T for the running test, zero-filled, 16-byte aligned.
#define ETNS_TEST_ARRAY(T, count) \
  ::etns::kernels::testing::test_array_at<T>((count), __FILE__, __LINE__)
