#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"

// The Highway targets of the host SIMD variants (host only, ETNS_HAVE_HWY):
// which instruction sets this binary compiled, which of them the CPU runs,
// and a way to run code once per runnable target, so tests cover every
// target and not only the one dispatch picks. Targets are Highway's bits
// (HWY_AVX2, ...); the header keeps Highway's own headers out of its users.
#if ETNS_HAVE_HWY
namespace etns::kernels {

// Every target compiled into the *_hwy.cpp sources (HWY_TARGETS).
int64_t hwy_compiled_targets();
// Leaves out of dispatch a target this build compiled with instructions the
// CPU lacks (AVX3_DL from clang on a CPU without AVX-VNNI). Runs before
// main (variant.cpp); the targets above and below follow it.
void disable_unrunnable_hwy_targets();
// Those of them this CPU supports.
int64_t hwy_supported_targets();
// Highway's name of one target bit: "AVX2", "EMU128", ...
const char* hwy_target_name(int64_t target);
// The target HWY_DYNAMIC_DISPATCH picks now (follows a forced target).
int64_t hwy_dispatched_target();

// Runs fn(target, name, context) once per supported compiled target, best
// first, with dispatch forced to that target, then restores the CPU's own
// choice. Stops early, returning false, when fn returns false.
bool for_each_hwy_target(bool (*fn)(int64_t target, const char* name, void* context),
                         void* context);
template <typename Fn>
bool for_each_hwy_target(Fn&& fn) {
  return for_each_hwy_target(
      [](int64_t target, const char* name, void* context) {
        return (*static_cast<Fn*>(context))(target, name);
      },
      &fn);
}

// Dispatch from now on to the supported target called `name` ("AVX2"), as a
// CPU whose best target it is would: what a benchmark reports for machines
// without AVX-512. Returns false, changing nothing, for a name that is not
// one of hwy_supported_targets().
bool force_hwy_target(const char* name);
// The benchmarks' ETNS_HWY_TARGET: unset or empty, nothing changes; else
// force_hwy_target(it). On an unknown or unsupported name, writes one line
// naming it and the supported targets into `error` and returns false.
bool apply_hwy_target_from_environment(char* error, size_t size);

// The targets for_each_hwy_target has forced so far in this process.
int64_t hwy_targets_run();
// One line for a test log: "host SIMD variants run: AVX3 AVX2 SSE4 SSSE3
// EMU128; skipped (this CPU lacks them): none".
void describe_hwy_targets_run(char* text, size_t size);

}  // namespace etns::kernels
#endif
