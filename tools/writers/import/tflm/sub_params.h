#pragma once

#include <string>

#include "tools/writers/import/tflm/add_params.h"

// TFLM's int8 SUB parameters (tflm_numerics.h).
namespace etns::tools::tflm {

// CalculateOpDataSub: ADD's form (left shift 20) but every ratio in float32:
// m = 2 max(s1, s2) in float, input k scaled by float(s_k / m), the
// difference by float(m / float(2^20 s_out)), each then QuantizeMultiplier'd
// (TFLM's SmallerThanOneExp form: a factor of 1 or more fails).
AddParams sub_params(float s1, float s2, float s_out, const std::string& what);

}  // namespace etns::tools::tflm
