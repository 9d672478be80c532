#include "kernels/testing/kernel_test.h"

#include "kernels/testing/variant_check.h"

#include <cstdarg>
#include <cstring>

#include "runtime/core/format.h"
#include "runtime/platform/platform.h"

namespace etns::kernels::testing {
namespace {

struct State {
  TestCase* first = nullptr;
  TestCase* last = nullptr;
  FailureSink sink = nullptr;
  uint8_t* memory = nullptr;
  size_t memory_bytes = 0;
  size_t memory_used = 0;
  bool failed = false;
};

// Function-local so that registrars in other files may run first.
State& state() {
  static State s;
  return s;
}

}  // namespace

TestRegistrar::TestRegistrar(TestCase* test) {
  State& s = state();
  if (s.last == nullptr) {
    s.first = test;
  } else {
    s.last->next = test;
  }
  s.last = test;
}

TestCase* first_test() { return state().first; }

void set_failure_sink(FailureSink sink) { state().sink = sink; }

void set_test_memory(uint8_t* memory, size_t size_bytes) {
  state().memory = memory;
  state().memory_bytes = size_bytes;
}

bool run_test(const TestCase& test) {
  State& s = state();
  s.failed = false;
  s.memory_used = 0;
  test.body();
  return !s.failed;
}

bool test_failed() { return state().failed; }

void fail(const char* file, int line, const char* format, ...) {
  State& s = state();
  s.failed = true;
  char message[480];
  va_list args;
  va_start(args, format);
  runtime::format_text_v(message, sizeof(message), format, args);
  va_end(args);
  if (s.sink != nullptr) s.sink(file, line, message);
}

void* test_alloc(size_t size_bytes, const char* file, int line) {
  State& s = state();
  const size_t start = (s.memory_used + 15) & ~size_t{15};
  if (s.memory == nullptr || start > s.memory_bytes || size_bytes > s.memory_bytes - start) {
    // A test that asks for more than the harness has is broken, not failing:
    // stop the whole run with the reason.
    fail(file, line, "test memory: need %zu bytes, %zu of %zu free", size_bytes,
         s.memory_bytes > start ? s.memory_bytes - start : 0, s.memory_bytes);
    runtime::platform::abort_program();
  }
  s.memory_used = start + size_bytes;
  void* p = s.memory + start;
  std::memset(p, 0, size_bytes);
  return p;
}

CaseText case_text(const char* format, ...) {
  CaseText out;
  va_list args;
  va_start(args, format);
  runtime::format_text_v(out.text, sizeof(out.text), format, args);
  va_end(args);
  return out;
}

size_t test_memory_mark() { return state().memory_used; }

void test_memory_release(size_t mark) {
  State& s = state();
  if (mark < s.memory_used) s.memory_used = mark;
}

}  // namespace etns::kernels::testing
