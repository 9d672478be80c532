// The host harness of the kernel benchmarks (kernel_bench.h): every variant of
// every case becomes a Google Benchmark named <op>/<shape>/<variant>. Wall time
// on the host is noisy; the regression gate is the Cortex-M55 instruction
// count (`etns bench`), not these numbers.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/testing/bench_hwy_target.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"

namespace {

using etns::kernels::testing::Bench;
using etns::kernels::testing::BenchCase;

// Collects the variant names a case measures, without running them.
class Discovery final : public Bench {
 public:
  std::vector<std::string> variants;

 private:
  void measure_erased(const char* variant, void (*)(const void*), const void*) override {
    variants.emplace_back(variant);
  }
};

// Times the target-th variant of a case in Google Benchmark's loop.
class Timed final : public Bench {
 public:
  Timed(benchmark::State& state, size_t target) : state_(state), target_(target) {}

 private:
  void measure_erased(const char*, void (*invoke)(const void*), const void* call) override {
    if (index_++ != target_) return;
    for (auto _ : state_) invoke(call);
  }

  benchmark::State& state_;
  size_t target_;
  size_t index_ = 0;
};

void report(const char* file, int line, const char* message) {
  std::fprintf(stderr, "%s:%d: %s\n", file, line, message);
}

}  // namespace

int main(int argc, char** argv) {
  if (!etns::kernels::testing::set_up_bench_hwy_target("etns_kernel_bench")) return 2;
  static std::vector<uint8_t> memory(4u << 20);
  etns::kernels::testing::set_test_memory(memory.data(), memory.size());
  etns::kernels::testing::set_failure_sink(report);
  for (const BenchCase* c = etns::kernels::testing::first_bench_case(); c != nullptr; c = c->next) {
    etns::kernels::testing::test_memory_release(0);
    Discovery discovery;
    c->body(discovery);
    for (size_t i = 0; i < discovery.variants.size(); ++i) {
      const std::string name = std::string(c->op) + "/" + c->shape + "/" + discovery.variants[i];
      benchmark::RegisterBenchmark(name.c_str(), [c, i](benchmark::State& state) {
        etns::kernels::testing::test_memory_release(0);
        Timed timed(state, i);
        c->body(timed);
      });
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
