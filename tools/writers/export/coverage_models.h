#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/program/quantized_graph.h"

// Coverage models: one small program per Tier-1 case the evidence models
// (tier1, tier1mean) leave out, each exported for both providers, so every
// cortex_m_ns:: path runs in a real program:
//
//   relu6            hardtanh(x, 0, 6) (torch.nn.ReLU6)      quantized_relu, requantising
//   hardtanh         hardtanh(x, -2, 3)                       quantized_relu, requantising
//   clamp            clamp(x, -1, 2)                          quantized_relu, requantising
//   clamp_min        clamp(x, min=-0.5)                       quantized_relu, no upper bound
//   leaky_relu_0p01  leaky_relu(x, 0.01) (torch's default)    quantized_leaky_relu
//   leaky_relu_0p2   leaky_relu(x, 0.2)                       quantized_leaky_relu
//   sub_channel      x - c, c a per-channel constant [1,C,1,1] quantized_sub, channel broadcast
//   mean_c           mean(x, dim=1, keepdim=True)             quantized_mean over channels
//   mean_last        mean(x, dim=-1) on a rank-3 batch-2 input quantized_mean, no keepdim
//
// Each is quantize → op → dequantize around a float input and output, in
// the shape the two lowerings give it:
//  * arm: activations stay int8 as aten::clamp.out with Int bounds quantised
//    on the input's grid (the output keeps the input's quantisation);
//    leaky_relu, sub and mean run as portable float ops inside a
//    dequantize → op → quantize island; sub's constant is an int8 constant
//    read through a dequantize, and the program is contiguous (portable sub
//    broadcasts contiguous tensors only);
//  * ns: the cortex_m_ns:: op, with its output quantisation observed on the
//    op's float output (so the activations take the requantising path);
//    sub_channel is channels_last (quantized_sub's channel broadcast walks
//    NHWC pixels).
// Elementwise models are 1x16x16x16 channels_last, like the Tier-1 trunk; the
// mean models are contiguous (the only layout either mean accepts).
//
// Numbers: model k (its position in the list above, from 0) draws its 16
// calibration samples from SeededRandom(seed + 100 + 10k) and its example
// input from SeededRandom(seed + 101 + 10k), standard normals times the model's
// input scale, in logical (NCHW) order; sub_channel's constant is drawn from
// SeededRandom(seed + 102 + 10k). The float model is float32, op by op as
// torch computes it; quantisation is torch's MinMaxObserver
// (observe_min_max) and the exporter's QM.
namespace etns::tools {

struct CoverageModel {
  std::string name;         // "relu6"
  std::string description;  // "hardtanh(x, 0, 6) (torch.nn.ReLU6)"
  std::string ns_operator;  // "cortex_m_ns::quantized_relu"
  std::vector<int32_t> input_sizes;
  std::vector<int32_t> output_sizes;
  bool channels_last = false;  // input and output memory order (sub_channel: ns only)
};

// The models, in export order.
const std::vector<CoverageModel>& coverage_models();

// Throws Failure (exit 2) naming the known models when `name` is not one.
const CoverageModel& coverage_model(const std::string& name);

// Builds the graph for `seed`. Throws Failure if a derived parameter leaves
// the range the kernels accept.
QuantizedGraph build_coverage_graph(const std::string& name, Provider provider, uint64_t seed);

// The example input, logical (NCHW) order.
std::vector<float> coverage_example_input(const std::string& name, uint64_t seed);

// The float32 model on one logical-order input; returns logical order.
std::vector<float> coverage_float_forward(const std::string& name, const std::vector<float>& input,
                                          uint64_t seed);

}  // namespace etns::tools
