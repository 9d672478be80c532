#pragma once

#include <string>

#include "tools/writers/program/quantized_graph.h"

// TFLM's int8 SQUARED_DIFFERENCE parameters (squared_difference.cc,
// PrepareQuantized with left shift 7).
namespace etns::tools::tflm {

// m = 2 max(s1, s2) in double; input k's factor double(s_k) / m (at most
// 1/2) through QuantizeMultiplierSmallerThanOneExp (QuantizeMultiplier,
// shift never positive); the square's factor m^2 / double(2^14 * s_out),
// that product a float32 one as in TFLM's expression, through
// QuantizeMultiplier. Throws Failure naming `what` for a factor no int8
// kernel applies (a left shift above 30).
struct SquaredDifferenceParams {
  Requant input1;
  Requant input2;
  Requant output;
};
SquaredDifferenceParams squared_difference_params(float s1, float s2, float s_out, const std::string& what);

}  // namespace etns::tools::tflm
