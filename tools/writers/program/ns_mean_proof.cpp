#include "tools/writers/program/ns_mean_proof.h"

#include <cmath>
#include <vector>

#include "tools/writers/program/factor_fit.h"

namespace etns::tools {
namespace {

// QuantizeMultiplier for a factor in (0, 1): frexp, the mantissa rounded to
// Q31 with halves away from zero, 2^31 carried; none outside that range.
std::optional<kernels::Requant> quantize_multiplier(double real) {
  if (!(real > 0 && real < 1)) return std::nullopt;
  int exponent = 0;
  const double fraction = std::frexp(real, &exponent);
  int64_t m = std::llround(fraction * 2147483648.0);
  if (m == (int64_t{1} << 31)) {
    m /= 2;
    ++exponent;
  }
  if (exponent < -31) return kernels::Requant{0, 0};
  return kernels::Requant{static_cast<int32_t>(m), exponent};
}

}  // namespace

std::optional<kernels::Requant> ns_mean_factor(etns_ops::Reduction reduction, float scale, int32_t zp_in,
                                               int32_t zp_out, uint64_t count, std::string& why) {
  if (count == 0 || 255 * count + 1 > kMaxProvedMeanSums) {
    why = "cortex_m_ns::quantized_mean is not tried: " + std::to_string(255 * count + 1) +
          " reachable sums, more than the 2^22 proved";
    return std::nullopt;
  }
  etns_ops::QuantizedReduceParams p;  // as quantized_reduce_prepare fills it
  p.reduction = reduction;
  p.count = static_cast<int32_t>(count);
  p.count_f = static_cast<float>(p.count);
  p.out_zero_point = zp_out;
  p.scale = scale;
  p.bias = static_cast<float>(-zp_in) * scale;
  const int32_t n = static_cast<int32_t>(count);
  const int32_t first = -128 * n, last = 127 * n;
  const auto tflm = [&](int32_t raw) { return static_cast<int32_t>(etns_ops::finish_reduction(p, raw)); };
  const auto d_of = [&](int32_t raw) { return raw - n * zp_in; };
  std::vector<factor_fit::Point> ends;
  for (int32_t raw = first; raw <= last; ++raw) {
    const int32_t v = tflm(raw);
    const bool starts = raw == first || tflm(raw - 1) != v;
    const bool finishes = raw == last || tflm(raw + 1) != v;
    if ((starts || finishes) && d_of(raw) != 0) ends.push_back({d_of(raw), v});
  }
  std::optional<kernels::Requant> factor = factor_fit::fit_factor(ends, zp_out, -128, 127);
  const bool fitted = factor.has_value();
  if (!fitted) {
    // None fits: the count of differing sums is given for the factor the
    // exporter's recipe would take, QM(s_in / (s_out * count)).
    factor = quantize_multiplier(static_cast<double>(scale) / static_cast<double>(count));
  }
  int64_t differ = 0;
  int32_t first_differ = 0;
  for (int32_t raw = first; raw <= last; ++raw) {
    const int32_t ns = factor ? factor_fit::kernel_output(d_of(raw), *factor, zp_out, -128, 127) : zp_out;
    if (ns != tflm(raw)) {
      if (differ == 0) first_differ = raw;
      ++differ;
    }
  }
  if (fitted && differ == 0) return factor;
  why = "cortex_m_ns::quantized_mean: no factor gives TFLM's MEAN on all " + std::to_string(255 * count + 1) +
        " reachable sums of " + std::to_string(count) + " elements";
  if (factor) {
    why += " (QM(s_in / (s_out * count)) differs on " + std::to_string(differ) + ", first the sum of codes " +
           std::to_string(first_differ) + ")";
  }
  return std::nullopt;
}

}  // namespace etns::tools
