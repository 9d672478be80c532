#include "tools/writers/import/tflm/activation_range.h"

#include <algorithm>
#include <cmath>

#include "tools/common/failure.h"

namespace etns::tools::tflm {

ActivationRange activation_range(tflite::Activation activation, float s_out, int32_t zp_out,
                                 const std::string& what) {
  const auto quantize = [&](float x) {
    const float q = std::round(x / s_out);
    if (!(q >= -2147483648.0F && q <= 2147483520.0F)) {
      throw Failure(what + ": activation bound " + std::to_string(x) + " leaves int32 on the output grid");
    }
    return zp_out + static_cast<int32_t>(q);
  };
  ActivationRange r;
  switch (activation) {
    case tflite::Activation::None: break;
    case tflite::Activation::Relu: r.min = std::max(r.min, quantize(0.0F)); break;
    case tflite::Activation::Relu6:
      r.min = std::max(r.min, quantize(0.0F));
      r.max = std::min(r.max, quantize(6.0F));
      break;
    case tflite::Activation::ReluN1To1:
      r.min = std::max(r.min, quantize(-1.0F));
      r.max = std::min(r.max, quantize(1.0F));
      break;
    default:
      throw Failure(what + ": fused activation " + tflite::to_string(activation) +
                    " has no clamp form (only NONE, RELU, RELU6 and RELU_N1_TO_1 are imported)");
  }
  if (r.min > r.max) {
    throw Failure(what + ": fused activation " + tflite::to_string(activation) + " gives an empty range [" +
                  std::to_string(r.min) + ", " + std::to_string(r.max) + "] on the output grid");
  }
  return r;
}

}  // namespace etns::tools::tflm
