#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/program/quantized_graph.h"

// The numerics of the evidence models `tier1` and `tier1mean` (profiler.md
// §12) as etns exports them: weights from our seeded generator, activation
// quantisation calibrated on a float32 model, and for each provider the
// ordered operator calls of the upstream program (profiler.md §12.6) with every
// argument the kernels' prepare reads (operators.md §2-§4), as a
// QuantizedGraph (quantized_graph.h).
//
// Deterministic: no PyTorch, no std:: distributions, float arithmetic in a
// fixed order from IEEE basic operations; two calls give identical graphs.
namespace etns::tools {

constexpr uint64_t kTier1Seed = 20260819;

enum class Tier1Model : uint8_t { Tier1, Tier1Mean };

// Builds the graph. Throws Failure if a derived parameter leaves the range the
// kernels accept (a shift beyond [-31, 30], a hardswish relu_q6 beyond 2^22).
QuantizedGraph build_quantized_graph(Tier1Model model, Provider provider, uint64_t seed = kTier1Seed);

const char* to_string(Tier1Model model);  // "tier1", "tier1mean"
// Throws Failure naming the accepted values.
Tier1Model parse_model(const std::string& name);

// ---- The float side, exposed for tests and reports ----

// Every model's input: 1 x 16 x 32 x 32.
constexpr int32_t kChannels = 16, kHeight = 32, kWidth = 32;
constexpr size_t kSampleSize = size_t{kChannels} * kHeight * kWidth;

// tier1's float parameters: OIHW [16, 16, 3, 3] weights drawn in that order
// from SeededRandom(seed), conv1 then conv2, each N(0, std) with the
// Kaiming-normal fan-out ReLU std sqrt(2 / (16 * 3 * 3)), value = (float)(std * z);
// zero biases.
struct Tier1Weights {
  std::vector<float> conv1, conv2;  // OIHW
  std::vector<float> bias1, bias2;  // 16 zeros each
};
Tier1Weights tier1_weights(uint64_t seed = kTier1Seed);

// The example input (seed + 1, one sample) and the 16 calibration samples
// (seed + 2, drawn one after another from one generator), each in logical
// NCHW order: element (c, h, w) is draw number (c * 32 + h) * 32 + w, as
// torch.randn fills a contiguous tensor before any memory-format change.
std::vector<float> example_input(uint64_t seed = kTier1Seed);
std::vector<std::vector<float>> calibration_samples(uint64_t seed = kTier1Seed);

// The float32 model on one NCHW sample; returns NCHW (1x16x32x32 for tier1,
// 1x16x1x1 for tier1mean). Convolutions accumulate in double in a fixed order
// and round once; hardswish is x * min(max(x + 3, 0), 6) / 6, leaky_relu
// x >= 0 ? x : 0.125 * x, mean a sequential float32 sum / 1024, all float32.
std::vector<float> float_forward(Tier1Model model, const Tier1Weights& weights,
                                 const std::vector<float>& input_nchw);

// The values of an NCHW sample in the memory order of `dim_order` (a 4-D
// permutation); contiguous {0, 1, 2, 3} returns a copy.
std::vector<float> to_memory_order(const std::vector<float>& nchw,
                                   const std::vector<int32_t>& sizes,
                                   const std::vector<uint8_t>& dim_order);

}  // namespace etns::tools
