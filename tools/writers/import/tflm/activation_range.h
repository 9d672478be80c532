#pragma once

#include <cstdint>
#include <string>

#include "tools/writers/tflite/tflite_model.h"

// TFLM's clamp of a fused activation (tflm_numerics.h).
namespace etns::tools::tflm {

// The int8 clamp of a fused activation on the output grid
// (CalculateActivationRangeQuantized): zp + round(x / s) in float, halves
// away from zero. TANH and SIGN_BIT have no clamp form: Failure.
struct ActivationRange {
  int32_t min = -128;
  int32_t max = 127;
};
ActivationRange activation_range(tflite::Activation activation, float s_out, int32_t zp_out,
                                 const std::string& what);

}  // namespace etns::tools::tflm
