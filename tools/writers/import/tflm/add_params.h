#pragma once

#include <string>

#include "tools/writers/program/quantized_graph.h"

// TFLM's int8 ADD parameters (tflm_numerics.h).
namespace etns::tools::tflm {

// ADD's int8 parameters with left shift 20: each input scaled by
// s / (2 max(s1, s2)), the sum by 2 max(s1, s2) / (2^20 s_out).
struct AddParams {
  Requant input1;
  Requant input2;
  Requant output;
};
AddParams add_params(float s1, float s2, float s_out, const std::string& what);

}  // namespace etns::tools::tflm
