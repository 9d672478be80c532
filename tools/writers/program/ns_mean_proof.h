#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kernels/common/requantize.h"
#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"

// Whether cortex_m_ns::quantized_mean can compute TFLM's int8 MEAN (one of
// etns_ops::quantized_reduce's mean branches) exactly, and with which factor.
// The kernel computes clamp(zp_out + RQ(sum(x - zp_in), factor)) with one
// factor of our choosing. Both it and TFLM's MEAN are functions of the exact
// sum alone, so the proof runs over every reachable sum (count * [-128, 127]):
// a factor is fitted to TFLM's outputs (factor_fit.h: exact, from the ends of
// each run of equal outputs, enough for two monotone functions) and then
// checked on every sum. `etns import --provider ns` and `etns lower` both ask
// it.
namespace etns::tools {

// At most this many sums are proved (a count of 16,448).
inline constexpr uint64_t kMaxProvedMeanSums = uint64_t{1} << 22;

// The factor, or nullopt with `why` set (one clause, naming the kernel).
// `reduction` is MeanTruncated or MeanRescaled, `scale` quantized_reduce's
// (s_in / s_out in float32), `count` the elements per output.
std::optional<kernels::Requant> ns_mean_factor(etns_ops::Reduction reduction, float scale, int32_t zp_in,
                                               int32_t zp_out, uint64_t count, std::string& why);

}  // namespace etns::tools
