#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "runtime/core/evalue.h"
#include "runtime/exec/operator_contract.h"
#include "runtime/core/scalar_type.h"

// A quantized graph as etns's exporter builds it: tensors, and the ordered
// kernel calls of one provider with every schema argument the kernels' prepare
// reads (operators.md §2-§4). Independent of the file format: graph_to_program
// turns it into a program by making one value per tensor and per scalar
// argument (plus the return slot after `out`). Shared by the evidence models
// (tier1_models.h) and the coverage models (coverage_models.h), with the
// quantisation arithmetic both use.
namespace etns::tools {

// The provider enum and its to_string: protocol/provider.h.
using protocol::Provider;
// Throws Failure naming the accepted values.
Provider parse_provider(const std::string& name);

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
    Input,       // a graph input, supplied by the caller (QuantizedGraph::inputs)
    Output,      // a graph output, read by the caller (QuantizedGraph::outputs)
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

 private:
  template <typename Set>
  static GraphArg with(runtime::ValueKind kind, Set set) {
    GraphArg a;
    a.kind = kind;
    set(a);
    return a;
  }
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
  // The argument `name` of this call, which must call `contract`'s operator
  // with its argument count (else Failure names both).
  const GraphArg& arg(const runtime::OperatorContract& contract, const char* name) const;
  GraphArg& arg(const runtime::OperatorContract& contract, const char* name);
  bool operator==(const GraphOp& other) const;
};

struct QuantizedGraph {
  std::string model;  // "tier1", "relu6", ...
  Provider provider = Provider::Arm;
  std::vector<GraphTensor> tensors;
  std::vector<GraphOp> ops;      // execution order
  std::vector<int32_t> inputs;   // tensor indices, role Input, in the method's input order
  std::vector<int32_t> outputs;  // tensor indices, role Output, in the method's output order
  // The one input (output) of a graph that has exactly one, as most models do;
  // throws Failure naming the model and the count otherwise.
  int32_t input() const;
  int32_t output() const;
  bool operator==(const QuantizedGraph& other) const;
};

// ---- Quantisation arithmetic of the exporters ----

// torch.finfo(torch.float32).eps, the observers' smallest scale.
constexpr float kFloat32Eps = 1.1920928955078125e-07f;

// torch's MinMaxObserver for a per-tensor affine int8 tensor whose values
// spanned [lo, hi]: in float32, lo = min(lo, 0), hi = max(hi, 0),
// scale = max((hi - lo) / 255, eps_float32), zero_point =
// clamp(-128 - round_half_even(lo / scale), -128, 127).
Qparams observe_min_max(float lo, float hi);

// Running min and max over every calibration sample (MinMaxObserver's state).
struct MinMax {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  void add(const std::vector<float>& values);
  Qparams qparams() const { return observe_min_max(lo, hi); }
};

struct Requant {
  int32_t multiplier = 0;
  int32_t shift = 0;
};

// The exporter's QM (operators.md §1.4): x = m * 2^e with m in [0.5, 1)
// (frexp, exact), M = round_half_even(m * 2^31) (nearbyint, exact), carrying
// into the exponent when M reaches 2^31. Throws Failure naming `what` when x
// is negative or not finite, or the shift leaves [-31, 30].
Requant quantize_multiplier(double x, const std::string& what);

// The identity sentinel of the ns lowerings (operators.md §1.4): factor 1.
constexpr Requant kIdentityRequant{int32_t{1} << 30, 1};

bool same_qparams(const Qparams& a, const Qparams& b);

// round_half_even(x / scale) + zero_point on the int8 grid.
int32_t quantize_value(double x, const Qparams& q);

// An activation bound on the output grid, as the ns activation lowering
// computes it (operators.md §3.4): bound / scale + zero_point formed in
// double, stored as float32, then rounded half to even and clamped to int8.
int32_t quantize_activation_bound(double bound, const Qparams& q);

// ---- Building graphs ----

// One argument of a call built by name (GraphBuilder::call).
struct NamedArg {
  const char* name;
  GraphArg value;
};

// The call's schema arguments in the contract's order, from arguments given
// by name. Optional arguments (Tensor or Null, IntList or Null, Scalar or
// Null, dtype or Null) not given are Null. Throws Failure naming the operator
// and the argument for a name the contract lacks, a name given twice, a
// required argument missing, or a value of the wrong kind.
std::vector<GraphArg> arguments_by_name(const runtime::OperatorContract& contract,
                                        const std::vector<NamedArg>& named);

class GraphBuilder {
 public:
  GraphBuilder(std::string model, Provider provider);

  // Adds a tensor; an Input or Output role also appends it to the graph's
  // inputs or outputs, so their order is the order the tensors are added in.
  int32_t tensor(std::string name, runtime::ScalarType dtype, std::vector<int32_t> sizes,
                 std::vector<uint8_t> dim_order, GraphTensor::Role role = GraphTensor::Role::Activation,
                 std::vector<uint8_t> data = {});
  // A constant int32 vector, [N] unless `sizes` says otherwise (ExecuTorch's
  // exporter writes linear's kernel_sum as [1, N]).
  int32_t int32_vector(std::string name, const std::vector<int32_t>& values,
                       std::vector<int32_t> sizes = {});
  int32_t s8(std::string name, std::vector<int32_t> sizes, std::vector<uint8_t> dim_order) {
    return tensor(std::move(name), runtime::ScalarType::Char, std::move(sizes), std::move(dim_order));
  }
  int32_t f32(std::string name, std::vector<int32_t> sizes, std::vector<uint8_t> dim_order,
              GraphTensor::Role role = GraphTensor::Role::Activation) {
    return tensor(std::move(name), runtime::ScalarType::Float, std::move(sizes), std::move(dim_order), role);
  }

  // A call of the operator `contract` names, its arguments given by name
  // (arguments_by_name).
  void call(const runtime::OperatorContract& contract, const std::vector<NamedArg>& named);
  // cortex_m::quantize_per_tensor or dequantize_per_tensor (same arguments): int8, full range.
  void per_tensor(const runtime::OperatorContract& contract, int32_t in, const Qparams& q,
                  int32_t out);

  QuantizedGraph take() { return std::move(graph_); }

 private:
  QuantizedGraph graph_;
};

// Identity dim orders of ranks 0..4 and channels_last.
std::vector<uint8_t> contiguous_order(size_t rank);
inline const std::vector<uint8_t> kChannelsLastOrder{0, 2, 3, 1};

}  // namespace etns::tools
