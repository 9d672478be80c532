#pragma once

// For the host benchmarks' main functions (Google Benchmark): ETNS_HWY_TARGET
// forces the host SIMD target, so a run measures what a CPU whose best
// target it is would dispatch, and the JSON context names the target.
#include <benchmark/benchmark.h>

#include <cstdio>

#include "kernels/common/hwy_targets.h"
#include "kernels/common/isa.h"

namespace etns::kernels::testing {

// Applies ETNS_HWY_TARGET; false, after one line naming `tool` and the
// targets this CPU runs, for a name it cannot run.
inline bool set_up_bench_hwy_target(const char* tool) {
#if ETNS_HAVE_HWY
  char error[512];
  if (!apply_hwy_target_from_environment(error, sizeof(error))) {
    std::fprintf(stderr, "%s: %s\n", tool, error);
    return false;
  }
  benchmark::AddCustomContext("hwy_target", hwy_target_name(hwy_dispatched_target()));
#else
  (void)tool;
#endif
  return true;
}

}  // namespace etns::kernels::testing
