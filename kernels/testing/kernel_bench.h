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
//     bench.elements(count);  // the work of one call, from the case's shape
//     for (const auto& v : kernels::kReluVariants) {
//       bench.measure(v.isa, [&] { v.fn(p, in, out, n); });
//     }
//   }
//
// The body may run more than once (the host harness re-runs it per variant),
// so it must not depend on state left by an earlier run.
//
// Work. A case says what one call does, computed from its shape, so that
// `etns bench` can give cycles per unit: bench.macs(n) for the multiply-
// accumulates of a convolution, matrix product or LSTM (padded taps included:
// every output times its filter's taps), bench.elements(n) for everything
// else (the elements a pool or reduction reads; the elements an elementwise
// operator, copy or lookup writes). It holds for every variant measured after
// it; a case that declares nothing reports no per-unit figures.
namespace etns::kernels::testing {

enum class BenchWork : uint8_t { None, Macs, Elements };

// "none", "macs", "elements": the unit as the M55 image prints it.
const char* to_string(BenchWork unit);

class Bench {
 public:
  // The work of one call of every variant measured after this (see above).
  void macs(uint64_t count) { declare(BenchWork::Macs, count); }
  void elements(uint64_t count) { declare(BenchWork::Elements, count); }
  BenchWork work_unit() const { return work_unit_; }
  uint64_t work_amount() const { return work_amount_; }

  // Runs (or times, or counts) `call` as the variant `variant` of this case.
  template <typename Call>
  void measure(const char* variant, const Call& call) {
    measure_erased(variant, [](const void* c) { (*static_cast<const Call*>(c))(); }, &call);
  }

 protected:
  ~Bench() = default;
  virtual void measure_erased(const char* variant, void (*invoke)(const void*),
                              const void* call) = 0;

 private:
  void declare(BenchWork unit, uint64_t count) {
    work_unit_ = unit;
    work_amount_ = count;
  }

  BenchWork work_unit_ = BenchWork::None;
  uint64_t work_amount_ = 0;
};

// The product of a shape's sizes, as a work count:
//   bench.macs(work_of(p.batches, p.rows, p.cols, p.depth));
template <typename... Sizes>
constexpr uint64_t work_of(Sizes... sizes) {
  return (uint64_t{1} * ... * static_cast<uint64_t>(sizes));
}

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
