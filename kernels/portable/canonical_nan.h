#pragma once

#include <limits>

#include "runtime/core/default_nan.h"

namespace etns::portable {

// A float result as the program's bytes: any NaN is the one quiet NaN
// 0x7FC00000, on the host as on the M55 (runtime/core/default_nan.h; found by
// the `arguments` fuzzer: the mean of an empty tensor was 0xFFC00000 on the
// host and 0x7FC00000 on the M55).
inline float canonical_nan(float r) { return r != r ? std::numeric_limits<float>::quiet_NaN() : r; }

// The result of float arithmetic: on the M55 the FPU already wrote any NaN as
// the default one (Default NaN mode while a method executes), so nothing is
// left to do; the host checks.
inline float arithmetic_result(float r) { return runtime::kFpuMakesDefaultNan ? r : canonical_nan(r); }

}  // namespace etns::portable
