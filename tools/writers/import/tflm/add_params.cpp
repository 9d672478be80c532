#include "tools/writers/import/tflm/add_params.h"

#include <algorithm>

#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {

AddParams add_params(float s1, float s2, float s_out, const std::string& what) {
  constexpr int kLeftShift = 20;
  const double twice_max = 2.0 * static_cast<double>(std::max(s1, s2));
  AddParams p;
  p.input1 = quantize_multiplier(static_cast<double>(s1) / twice_max, what + ": input 1 multiplier");
  p.input2 = quantize_multiplier(static_cast<double>(s2) / twice_max, what + ": input 2 multiplier");
  p.output = quantize_multiplier(twice_max / (static_cast<double>(1 << kLeftShift) * static_cast<double>(s_out)),
                                 what + ": output multiplier");
  return p;
}

}  // namespace etns::tools::tflm
