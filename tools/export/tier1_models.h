#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/scalar_type.h"

// The numerics of the evidence models `tier1` and `tier1mean` (profiler.md
// §12) as etns exports them: weights from our seeded generator, activation
// quantisation calibrated on a float32 model, and for each provider the
// ordered operator calls of the upstream program (profiler.md §12.6) with every
// argument the kernels' prepare reads (operators.md §2-§4). Independent of the
// file format: a writer turns a QuantizedGraph into a program by making one
// value per tensor and per scalar argument (plus the return slot after `out`).
//
// Deterministic: no PyTorch, no std:: distributions, float arithmetic in a
// fixed order from IEEE basic operations; two calls give identical graphs.
namespace etns::tools {

constexpr uint64_t kTier1Seed = 20260819;

enum class Tier1Model : uint8_t { Tier1, Tier1Mean };
enum class Provider : uint8_t { Arm, Ns };

// Per-tensor affine int8 quantisation: real = scale * (q - zero_point). The
// scale is a float32 value (torch keeps it so), carried as a double.
struct Qparams {
  double scale = 1.0;
  int32_t zero_point = 0;
};

// One tensor of the graph. Sizes are logical (PyTorch order, NCHW); dim_order
// lists the dims outermost to innermost in memory ({0, 2, 3, 1} is
// channels_last); a 0-dim tensor has both empty.
struct GraphTensor {
  enum class Role : uint8_t {
    Input,       // the graph input: float32, supplied by the caller
    Output,      // the graph output: float32, read by the caller
    Activation,  // written by one op, read by later ones (a writer plans it)
    Constant,    // `data` holds its bytes
  };
  std::string name;  // unique in the graph, for messages ("conv1_out")
  runtime::ScalarType dtype = runtime::ScalarType::Float;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  Role role = Role::Activation;
  // Constant only: numel * element size bytes, little-endian, in memory order
  // (weights OHWI [Cout, KH, KW, Cin] contiguous, int32 vectors, the minimum's
  // 0-dim int8).
  std::vector<uint8_t> data;

  size_t numel() const;
  size_t nbytes() const;
  bool operator==(const GraphTensor& other) const;
};

// One schema argument. `kind` is Tensor (index into QuantizedGraph::tensors),
// Int, Double, Bool, IntList (the integers themselves) or Null.
struct GraphArg {
  runtime::ValueKind kind = runtime::ValueKind::Null;
  int32_t tensor = -1;
  int64_t int_value = 0;
  double double_value = 0.0;
  bool bool_value = false;
  std::vector<int64_t> int_list;

  static GraphArg of_tensor(int32_t index);
  static GraphArg integer(int64_t value);
  static GraphArg real(double value);
  static GraphArg boolean(bool value);
  static GraphArg list(std::vector<int64_t> values);
  static GraphArg null();
  bool operator==(const GraphArg& other) const;
};

// One kernel call: `op` is the PTE operator name without the overload
// ("cortex_m::quantized_conv2d"); every op here has overload "out". `args` are
// the schema arguments in order, `out` last; the program's return slot (a
// repeat of out) is not listed.
struct GraphOp {
  std::string op;
  std::string overload = "out";
  std::vector<GraphArg> args;
  std::string full_name() const { return op + "." + overload; }
  int32_t out_tensor() const { return args.back().tensor; }
  bool operator==(const GraphOp& other) const;
};

struct QuantizedGraph {
  Tier1Model model = Tier1Model::Tier1;
  Provider provider = Provider::Arm;
  std::vector<GraphTensor> tensors;
  std::vector<GraphOp> ops;  // execution order (profiler.md §12.6)
  int32_t input = -1;        // tensor index, role Input
  int32_t output = -1;       // tensor index, role Output
  bool operator==(const QuantizedGraph& other) const;
};

// Builds the graph. Throws Failure if a derived parameter leaves the range the
// kernels accept (a shift beyond [-31, 30], a hardswish relu_q6 beyond 2^22).
QuantizedGraph build_quantized_graph(Tier1Model model, Provider provider);

const char* to_string(Tier1Model model);  // "tier1", "tier1mean"
const char* to_string(Provider provider);  // "arm", "ns"
// Throws Failure naming the accepted values.
Tier1Model parse_model(const std::string& name);
Provider parse_provider(const std::string& name);

// ---- The float side, exposed for tests and reports ----

// Every model's input: 1 x 16 x 32 x 32.
constexpr int32_t kChannels = 16, kHeight = 32, kWidth = 32;
constexpr size_t kSampleSize = size_t{kChannels} * kHeight * kWidth;

// tier1's float parameters: OIHW [16, 16, 3, 3] weights drawn in that order
// from SeededRandom(kTier1Seed), conv1 then conv2, each N(0, std) with the
// Kaiming-normal fan-out ReLU std sqrt(2 / (16 * 3 * 3)), value = (float)(std * z);
// zero biases.
struct Tier1Weights {
  std::vector<float> conv1, conv2;  // OIHW
  std::vector<float> bias1, bias2;  // 16 zeros each
};
Tier1Weights tier1_weights();

// The example input (seed + 1, one sample) and the 16 calibration samples
// (seed + 2, drawn one after another from one generator), each in logical
// NCHW order: element (c, h, w) is draw number (c * 32 + h) * 32 + w, as
// torch.randn fills a contiguous tensor before any memory-format change.
std::vector<float> example_input();
std::vector<std::vector<float>> calibration_samples();

// The float32 model on one NCHW sample; returns NCHW (1x16x32x32 for tier1,
// 1x16x1x1 for tier1mean). Convolutions accumulate in double in a fixed order
// and round once; hardswish is x * min(max(x + 3, 0), 6) / 6, leaky_relu
// x >= 0 ? x : 0.125 * x, mean a sequential float32 sum / 1024, all float32.
std::vector<float> float_forward(Tier1Model model, const Tier1Weights& weights,
                                 const std::vector<float>& input_nchw);

// torch's MinMaxObserver for a per-tensor affine int8 tensor whose values
// spanned [lo, hi]: in float32, lo = min(lo, 0), hi = max(hi, 0),
// scale = max((hi - lo) / 255, eps_float32), zero_point =
// clamp(-128 - round_half_even(lo / scale), -128, 127).
Qparams observe_min_max(float lo, float hi);

// The values of an NCHW sample in the memory order of `dim_order` (a 4-D
// permutation); contiguous {0, 1, 2, 3} returns a copy.
std::vector<float> to_memory_order(const std::vector<float>& nchw,
                                   const std::vector<int32_t>& sizes,
                                   const std::vector<uint8_t>& dim_order);

}  // namespace etns::tools
