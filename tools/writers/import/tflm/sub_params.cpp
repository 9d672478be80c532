#include "tools/writers/import/tflm/sub_params.h"

#include <algorithm>
#include <string>

#include "tools/writers/import/tflm/multipliers.h"
#include "tools/common/failure.h"

namespace etns::tools::tflm {
namespace {

Requant below_one(float x, const std::string& what) {
  if (!(x < 1.0F)) throw Failure(what + ": factor " + std::to_string(x) + " is not below 1 (TFLM's SUB needs that)");
  return quantize_multiplier(static_cast<double>(x), what);
}

}  // namespace

AddParams sub_params(float s1, float s2, float s_out, const std::string& what) {
  constexpr int kLeftShift = 20;
  const float twice_max = 2.0F * std::max(s1, s2);
  AddParams p;
  p.input1 = below_one(s1 / twice_max, what + ": input 1 multiplier");
  p.input2 = below_one(s2 / twice_max, what + ": input 2 multiplier");
  p.output = below_one(twice_max / (static_cast<float>(1 << kLeftShift) * s_out), what + ": output multiplier");
  return p;
}

}  // namespace etns::tools::tflm
