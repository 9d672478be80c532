#include "kernels/testing/kernel_bench.h"

namespace etns::kernels::testing {
namespace {

struct Cases {
  BenchCase* first = nullptr;
  BenchCase* last = nullptr;
};

// Function-local so that registrars in other files may run first.
Cases& cases() {
  static Cases c;
  return c;
}

}  // namespace

BenchRegistrar::BenchRegistrar(BenchCase* bench_case) {
  Cases& c = cases();
  if (c.last == nullptr) {
    c.first = bench_case;
  } else {
    c.last->next = bench_case;
  }
  c.last = bench_case;
}

BenchCase* first_bench_case() { return cases().first; }

const char* to_string(BenchWork unit) {
  switch (unit) {
    case BenchWork::Macs: return "macs";
    case BenchWork::Elements: return "elements";
    case BenchWork::None: break;
  }
  return "none";
}

}  // namespace etns::kernels::testing
