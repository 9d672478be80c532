// The Cortex-M55 harness of the kernel benchmarks (kernels/testing/kernel_bench.h):
// runs each variant of each case once to warm up, then once inside its own
// counted region, and prints which region holds what and the work of one
// call (kernel_bench.h: "macs" or "elements" and how many, "none 0" when the
// case declares none):
//   etns-fw bench <region> <op> <shape> <variant> <unit> <n>
// `etns bench` runs it under QEMU with the counting plugin and joins these
// lines with the plugin's counts.
#include <cstddef>

#include "protocol/job.h"
#include "firmware/port.h"
#include "firmware/tests/console.h"
#include "kernels/common/isa.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"

namespace {

namespace port = etns::firmware::port;
using etns::firmware::console_print;
namespace protocol = etns::protocol;
using etns::kernels::testing::Bench;
using etns::kernels::testing::BenchCase;

void report_to_console(const char* file, int line, const char* message) {
  console_print("%s%s:%d: %s\n", protocol::kConsolePrefix, file, line, message);
}

class CountedBench final : public Bench {
 public:
  explicit CountedBench(const BenchCase& bench_case) : case_(bench_case) {}
  bool overflowed() const { return overflowed_; }

 private:
  void measure_erased(const char* variant, void (*invoke)(const void*), const void* call) override {
    if (next_region_ >= kRegions) {
      overflowed_ = true;
      return;
    }
    const uint32_t region = next_region_++;
    invoke(call);  // warm-up, as the profiler does; counts are the same without it
    port::region_begin(region);
    invoke(call);
    port::region_end(region);
    console_print("%sbench %u %s %s %s %s %llu\n", protocol::kConsolePrefix, static_cast<unsigned>(region),
                  case_.op, case_.shape, variant, etns::kernels::testing::to_string(work_unit()),
                  static_cast<unsigned long long>(work_amount()));
  }

  static constexpr uint32_t kRegions = protocol::kMarkerCount / 2;
  static uint32_t next_region_;
  const BenchCase& case_;
  bool overflowed_ = false;
};

uint32_t CountedBench::next_region_ = 0;

}  // namespace

extern "C" int etns_firmware_main() {
  etns::kernels::testing::set_test_memory(port::planned_memory(), port::planned_memory_bytes());
  etns::kernels::testing::set_failure_sink(report_to_console);
  console_print("%sboard %s mve %d\n", protocol::kConsolePrefix, port::board_name(), ETNS_HAVE_MVE);
  for (const BenchCase* c = etns::kernels::testing::first_bench_case(); c != nullptr; c = c->next) {
    etns::kernels::testing::test_memory_release(0);
    CountedBench bench(*c);
    c->body(bench);
    if (bench.overflowed()) {
      console_print("%sbench error more variants than counted regions (%u)\n", protocol::kConsolePrefix,
            static_cast<unsigned>(protocol::kMarkerCount / 2));
      return protocol::kExitBadJob;
    }
  }
  port::flush_regions();
  console_print("%s%s\n", protocol::kConsolePrefix, protocol::console::kDone);
  return protocol::kExitOk;
}
