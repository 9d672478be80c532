#include "tools/writers/program/factor_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace etns::tools::factor_fit {

int32_t kernel_output(int32_t d, kernels::Requant r, int32_t zp_out, int32_t lo, int32_t hi) {
  const int64_t y = int64_t{kernels::requantize(d, r)} + zp_out;
  return static_cast<int32_t>(std::clamp<int64_t>(y, lo, hi));
}

namespace {

// The multipliers in [first, last] (shift fixed) for which the point comes
// out right, as an interval: the output is monotone in the multiplier
// (non-decreasing for d > 0, non-increasing for d < 0), so two binary
// searches find it exactly, double rounding and clamps included.
std::pair<int64_t, int64_t> multipliers_for(const Point& p, int32_t shift, int32_t zp_out, int32_t lo, int32_t hi,
                                            int64_t first, int64_t last) {
  const auto rising = [&](int64_t m) {
    const int32_t o = kernel_output(p.d, kernels::Requant{static_cast<int32_t>(m), shift}, zp_out, lo, hi);
    return p.d > 0 ? o : -o;
  };
  const int32_t target = p.d > 0 ? p.v : -p.v;
  // The first m in [first, last + 1] with rising(m) >= bound.
  const auto first_at_least = [&](int32_t bound) {
    int64_t a = first, b = last + 1;
    while (a < b) {
      const int64_t mid = a + (b - a) / 2;
      if (rising(mid) >= bound) {
        b = mid;
      } else {
        a = mid + 1;
      }
    }
    return a;
  };
  return {first_at_least(target), first_at_least(target + 1) - 1};
}

}  // namespace

std::optional<kernels::Requant> fit_factor(const std::vector<Point>& points, int32_t zp_out, int32_t lo, int32_t hi) {
  bool zero = true;
  for (const Point& p : points) zero = zero && p.v == std::clamp(zp_out, lo, hi);
  if (zero) return kernels::Requant{0, 0};
  // The slope of the point farthest from the zero point with an unclamped value.
  double slope = 0;
  int32_t widest = 0;
  for (const Point& p : points) {
    if (p.v > lo && p.v < hi && std::abs(p.d) > widest) {
      widest = std::abs(p.d);
      slope = static_cast<double>(p.v - zp_out) / p.d;
    }
  }
  std::vector<int32_t> shifts;
  if (slope > 0) {
    int exponent = 0;
    std::frexp(slope, &exponent);
    for (int32_t s = exponent - 2; s <= exponent + 2; ++s) shifts.push_back(s);
  } else {
    for (int32_t s = -31; s <= 30; ++s) shifts.push_back(s);
  }
  // The most telling points first: an empty intersection shows early.
  std::vector<Point> ordered = points;
  std::sort(ordered.begin(), ordered.end(), [](const Point& a, const Point& b) { return std::abs(a.d) > std::abs(b.d); });
  for (const int32_t shift : shifts) {
    if (shift < -31 || shift > 30) continue;
    int64_t first = int64_t{1} << 30, last = (int64_t{1} << 31) - 1;
    for (const Point& p : ordered) {
      const std::pair<int64_t, int64_t> m = multipliers_for(p, shift, zp_out, lo, hi, first, last);
      first = std::max(first, m.first);
      last = std::min(last, m.second);
      if (first > last) break;
    }
    if (first <= last) return kernels::Requant{static_cast<int32_t>(first + (last - first) / 2), shift};
  }
  return std::nullopt;
}

}  // namespace etns::tools::factor_fit
