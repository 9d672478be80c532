#include "tools/writers/import/tflm/squared_difference_params.h"

#include <algorithm>
#include <string>

#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {
namespace {

// QuantizeMultiplierSmallerThanOneExp: the factor is in (0, 1/2] here, so
// its exponent is never positive; TFLM checks that it is not.
Requant smaller_than_one(double x, const std::string& what) {
  const Requant q = quantize_multiplier(x, what);
  if (q.shift > 0) throw Failure(what + ": factor " + std::to_string(x) + " is not below 1");
  return q;
}

}  // namespace

SquaredDifferenceParams squared_difference_params(float s1, float s2, float s_out, const std::string& what) {
  constexpr int kLeftShift = 7;
  const double twice_max = 2.0 * static_cast<double>(std::max(s1, s2));
  // TFLM writes (1 << left_shift * 2) * output scale: int times float, a
  // float32 product, then widened.
  const float fine_out = static_cast<float>(1 << (kLeftShift * 2)) * s_out;
  SquaredDifferenceParams p;
  p.input1 = smaller_than_one(static_cast<double>(s1) / twice_max, what + ": input 1 multiplier");
  p.input2 = smaller_than_one(static_cast<double>(s2) / twice_max, what + ": input 2 multiplier");
  p.output = quantize_multiplier(twice_max * twice_max / static_cast<double>(fine_out), what + ": output multiplier");
  return p;
}

}  // namespace etns::tools::tflm
