#pragma once

#include <cstdint>
#include <string>

// TFLM's int8 SOFTMAX parameters (tflm_numerics.h).
namespace etns::tools::tflm {

// SOFTMAX's (input_multiplier, input_left_shift, diff_min) for int8 with
// kScaledDiffIntegerBits = 5 (PreprocessSoftmaxScaling,
// CalculateInputRadius).
struct SoftmaxParams {
  int32_t multiplier = 0;
  int32_t left_shift = 0;
  int32_t diff_min = 0;
};
SoftmaxParams softmax_params(float beta, float s_in, const std::string& what);

}  // namespace etns::tools::tflm
