#pragma once

#include <cstdint>
#include <vector>

#include "tools/writers/program/quantized_graph.h"

// An application model of etns's own: a DS-CNN-shaped keyword spotter, the
// kind of program ExecuTorch's Cortex-M backend writes for a real model, so
// the whole cortex_m:: path (conv, depthwise conv, average pool, layout
// change, flatten, linear, softmax) runs through export, run, profile and
// reproduce. Float model (logical NCHW), seeded weights:
//
//   x [1, 1, 49, 10]  (49 frames of 10 MFCC features)
//   conv 1 -> 16, 10x4, stride 2, padding (4, 1), ReLU   [1, 16, 24, 5]
//   depthwise 3x3, stride 1, padding 1, ReLU              [1, 16, 24, 5]
//   pointwise conv 16 -> 32, 1x1, ReLU                    [1, 32, 24, 5]
//   average pool 24x5 (global)                            [1, 32, 1, 1]
//   flatten                                               [1, 32]
//   linear 32 -> 12                                       [1, 12]
//   softmax over the 12 classes                           [1, 12]
//
// Quantised as the Cortex-M backend does (operators-cortex-m.md): int8
// activations channels_last, per-channel symmetric conv and depthwise
// weights, ReLU folded into each conv's activation_min, the average pool
// keeping its input's quantisation, flatten as dim_order_ops::_to_dim_order_copy
// (channels_last -> contiguous) then aten::view_copy, a per-tensor linear with
// its bias folded into kernel_sum (bias None), and softmax into scale 1/256,
// zero point -128 with the backend's (multiplier, shift, diff_min). Both
// providers get the same program: it holds no Tier-1 operator.
//
// Numbers: weights and biases from SeededRandom(seed + 500) (normals times
// sqrt(2 / fan_in), biases times 0.1), 16 calibration inputs from
// SeededRandom(seed + 501), the example input from SeededRandom(seed + 502),
// all standard normals in logical order.
namespace etns::tools {

constexpr const char* kDscnnModel = "dscnn";

QuantizedGraph build_dscnn_graph(Provider provider, uint64_t seed);

// The example input, logical (NCHW) order.
std::vector<float> dscnn_example_input(uint64_t seed);

// The float32 model on one logical-order input: the 12 class probabilities.
std::vector<float> dscnn_float_forward(const std::vector<float>& input, uint64_t seed);

}  // namespace etns::tools
