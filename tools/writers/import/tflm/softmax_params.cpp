#include "tools/writers/import/tflm/softmax_params.h"

#include <algorithm>
#include <cmath>

#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

SoftmaxParams softmax_params(float beta, float s_in, const std::string& what) {
  constexpr int kScaledDiffIntegerBits = 5;
  const double real = std::min(static_cast<double>(beta) * static_cast<double>(s_in) *
                                   static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)),
                               2147483647.0);
  const Requant q = quantize_multiplier(real, what + ": softmax input multiplier");
  if (q.shift < 0) throw Failure(what + ": softmax beta * input scale * 2^26 is below 1 (TFLM needs a left shift)");
  SoftmaxParams p;
  p.multiplier = q.multiplier;
  p.left_shift = q.shift;
  const double radius = 1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
                        static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
                        static_cast<double>(int64_t{1} << p.left_shift);
  p.diff_min = -static_cast<int32_t>(std::floor(radius));
  return p;
}

}  // namespace etns::tools::tflm
