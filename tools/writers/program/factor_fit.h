#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/common/requantize.h"

// Finding a kernel factor (multiplier, shift) that reproduces given outputs
// exactly, for the writers that put a cortex_m_ns:: kernel where another
// arithmetic was (lower's tables, an ns import's MEAN): the kernels compute
//   out = clamp(zp_out + requantize(d, factor), lo, hi)
// from an integer d, so given the wanted out for each d the search below is
// exact: with the shift fixed, out is monotone in the multiplier, and two
// binary searches per point bound the multipliers that give it.
namespace etns::tools::factor_fit {

// One wanted output: d (d != 0) must give v.
struct Point {
  int32_t d = 0, v = 0;
};

// What the kernels compute for one d.
int32_t kernel_output(int32_t d, kernels::Requant factor, int32_t zp_out, int32_t lo, int32_t hi);

// A factor giving every point, or none: a zero factor when every v is the
// clamped zp_out, else a multiplier in [2^30, 2^31) for a shift within two of
// the points' slope (every shift when all points are clamped).
std::optional<kernels::Requant> fit_factor(const std::vector<Point>& points, int32_t zp_out, int32_t lo, int32_t hi);

}  // namespace etns::tools::factor_fit
