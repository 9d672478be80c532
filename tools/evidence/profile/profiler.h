#pragma once

#include <functional>
#include <string>

#include "tools/evidence/bundle/results.h"
#include "tools/evidence/config/config.h"

namespace etns::tools {

// Progress for people: "per-instruction pass: iteration 3 of 25".
using ProgressFn = std::function<void(const std::string& status)>;

// Profiles the configured program on the configured target:
//  - a per-instruction pass (unless profiling.per_layer is false): `warmup`
//    uninstrumented runs, then `iterations` runs with a measurement around
//    every instruction (kernel plus the runtime's dispatch of it);
//  - a clean pass: `warmup` runs, then `iterations` execute() calls measured
//    end to end with no per-instruction instrumentation.
// Every input is all zeros, as the reference profiler's (profiler.md §5.2),
// unless profiling.input names a file per input (checked by the config
// reader); result.inputs records each one's SHA-256 or "zeros".
// On qemu-m55 the counters are the QEMU plugin's executed-instruction counts,
// and CPU_CYCLES its estimate of the Cortex-M55's cycles (result.cycle_model
// names the model); on host the steady clock's nanoseconds. A run that cannot complete (a
// missing operator, a fault, a kernel error) returns with `failure` set and
// an error issue, so that the bundle still records what happened.
ProfileResult run_profile(const ProfileConfig& config, const ProgressFn& progress);

}  // namespace etns::tools
