#pragma once

#include <cstddef>
#include <cstdint>

// Kernel benchmarks that run on both targets, written once: each case sets up
// its inputs and hands every variant's call to Bench::measure. On the
// Cortex-M55 (firmware/tests/kernel_bench_main.cpp, run by `etns bench`) each
// call runs inside a counted region of the QEMU plugin; on the host
// (kernels/testing/bench_main.cpp) each becomes a Google Benchmark.
//
//   ETNS_KERNEL_BENCH(quantized_relu, tier1) {
//     ... inputs from ETNS_TEST_ARRAY, parameters ...
//     for (const auto& v : kernels::kReluVariants) {
//       bench.measure(v.isa, [&] { v.fn(p, in, out, n); });
//     }
//   }
//
// The body may run more than once (the host harness re-runs it per variant),
// so it must not depend on state left by an earlier run.
namespace etns::kernels::testing {

class Bench {
 public:
  // Runs (or times, or counts) `call` as the variant `variant` of this case.
  template <typename Call>
  void measure(const char* variant, const Call& call) {
    measure_erased(variant, [](const void* c) { (*static_cast<const Call*>(c))(); }, &call);
  }

 protected:
  ~Bench() = default;
  virtual void measure_erased(const char* variant, void (*invoke)(const void*),
                              const void* call) = 0;
};

using BenchBody = void (*)(Bench& bench);

struct BenchCase {
  const char* op;     // the operator, as in the program: "quantized_relu"
  const char* shape;  // what the case runs: "tier1" is the Tier-1 programs' shape
  BenchBody body;
  BenchCase* next = nullptr;
};

class BenchRegistrar {
 public:
  explicit BenchRegistrar(BenchCase* bench_case);
};

// Every registered case, in registration order; nullptr-terminated list.
BenchCase* first_bench_case();

}  // namespace etns::kernels::testing

#define ETNS_KERNEL_BENCH_NAME_(op, shape, what) etns_kernel_bench_##op##_##shape##_##what
#define ETNS_KERNEL_BENCH(op, shape)                                                             \
  static void ETNS_KERNEL_BENCH_NAME_(op, shape, body)(::etns::kernels::testing::Bench & bench); \
  static ::etns::kernels::testing::BenchCase ETNS_KERNEL_BENCH_NAME_(op, shape, case){           \
      #op, #shape, &ETNS_KERNEL_BENCH_NAME_(op, shape, body)};                                   \
  static const ::etns::kernels::testing::BenchRegistrar ETNS_KERNEL_BENCH_NAME_(                 \
      op, shape, registrar)(&ETNS_KERNEL_BENCH_NAME_(op, shape, case));                          \
  static void ETNS_KERNEL_BENCH_NAME_(op, shape, body)(::etns::kernels::testing::Bench & bench)
