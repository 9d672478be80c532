#pragma once

// The lowering pass behind lower_to_ns (lower.h), shared by lower.cpp (the
// driver, hardswish, int8 clamps, clean-up) and lower_float_islands.cpp (the
// float islands). Internal to tools/writers/lower.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/portable/portable.h"
#include "runtime/exec/operator_contract.h"
#include "tools/writers/lower/lower.h"
#include "tools/writers/program/program_model.h"

namespace etns::tools::lowering {

using runtime::ScalarType;
using runtime::ValueKind;

using runtime::Arg;
using runtime::OperatorContract;

inline constexpr const OperatorContract& kQuantize = cortex_m::kQuantizeContract;
inline constexpr const OperatorContract& kDequantize = cortex_m::kDequantizeContract;

// Float operators lower turns into int8 ones although etns runs no kernel for
// them (ExecuTorch's portable schemas).
inline constexpr runtime::ArgSpec kAtenHardtanhArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype), runtime::scalar_arg("min_val"),
    runtime::scalar_arg("max_val"), runtime::tensor_arg("out", runtime::kAnyDtype)};
inline constexpr OperatorContract kAtenHardtanhContract =
    runtime::make_contract("aten::hardtanh.out", kAtenHardtanhArgs);
inline constexpr runtime::ArgSpec kAtenReluArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype), runtime::tensor_arg("out", runtime::kAnyDtype)};
inline constexpr OperatorContract kAtenReluContract =
    runtime::make_contract("aten::relu.out", kAtenReluArgs);

inline double multiplier_factor(int64_t multiplier, int64_t shift) {
  return std::ldexp(static_cast<double>(multiplier), static_cast<int>(shift) - 31);
}

inline std::string format_double(double value) { return fmt::format("{:.10g}", value); }

inline std::string instruction_id(size_t index) { return "c0i" + std::to_string(index); }

// A float value's quantisation: the int8 value holding it and its scale/zero point.
struct Quant {
  int32_t int8_value = -1;  // -1: a new int8 value is created at rewrite
  double scale = 0;
  int64_t zero_point = 0;
  double lo = 0;  // reachable real range
  double hi = 0;
};

// What a lowerable float op becomes.
struct Plan {
  size_t instruction = 0;
  std::string kind;                 // "leaky_relu", "sub", "relu", "mean"
  std::vector<int32_t> float_inputs;  // value indices of the float inputs, in op order
  int32_t float_output = -1;
  double lo = 0, hi = 0;            // reachable range of the output
  std::optional<size_t> absorbed_quantize;  // instruction index
  // op-specific constants
  double slope = 0;
  std::optional<double> bound_min, bound_max;
  std::vector<int64_t> dims;
  int32_t keepdim = -1;  // mean: the value holding keepdim
};

class Lowerer {
 public:
  explicit Lowerer(ProgramModel& model) : m_(model) {}

  LoweringResult run();

 private:
  ProgramModel& m_;
  std::map<int32_t, std::vector<size_t>> readers_;  // tensor value → instructions reading it
  std::map<int32_t, size_t> writer_;                // tensor value → instruction writing it
  std::vector<std::optional<KernelCall>> replacement_;
  std::vector<bool> removed_;

  std::string op_name(size_t i) const {
    const ModelOperator& op = m_.operators.at(m_.instructions[i].op_index);
    return op.overload.empty() ? op.name : op.name + "." + op.overload;
  }
  std::string label(size_t i) const { return instruction_id(i) + " " + op_name(i); }
  const ModelValue& value(int32_t index) const { return m_.values.at(static_cast<size_t>(index)); }
  const ModelTensor* tensor(int32_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= m_.values.size()) return nullptr;
    const ModelValue& v = value(index);
    return v.kind == ValueKind::Tensor ? &v.tensor : nullptr;
  }
  // Instruction i calls the operator of `contract` (with its argument count).
  bool calls(size_t i, const OperatorContract& contract) const {
    return op_name(i) == contract.name && schema_args(i) == contract.count;
  }
  // Argument `a` of instruction i, which calls a's operator (calls()).
  int32_t arg(size_t i, Arg a) const { return m_.instructions[i].args.at(a.index); }
  // The schema arguments of a .out call (the return slot removed).
  size_t schema_args(size_t i) const { return m_.instructions[i].args.size() - 1; }
  int32_t out_arg(size_t i) const { return m_.instructions[i].args.at(schema_args(i) - 1); }
  bool is_program_output(int32_t v) const {
    return std::find(m_.outputs.begin(), m_.outputs.end(), v) != m_.outputs.end();
  }
  std::optional<int64_t> int_arg(size_t i, Arg a) const {
    const ModelValue& v = value(arg(i, a));
    if (v.kind != ValueKind::Int) return std::nullopt;
    return v.int_value;
  }
  std::optional<double> double_arg(size_t i, Arg a) const {
    const ModelValue& v = value(arg(i, a));
    if (v.kind == ValueKind::Double) return v.double_value;
    if (v.kind == ValueKind::Int) return static_cast<double>(v.int_value);
    return std::nullopt;
  }
  int32_t new_int(int64_t x) { return m_.add_value(ModelValue::integer(x)); }

  void check_argument_counts() const;
  void index_readers();
  std::vector<size_t> live_readers(int32_t v) const;

  // A quantize/dequantize with int8 range and dtype; returns (scale, zp).
  std::optional<std::pair<double, int64_t>> qdq_params(size_t i, std::string* why) const;

  void lower_hardswish(LoweringResult& result);

  std::string try_hardswish(size_t minimum, LoweringResult& result);

  // Checks one candidate op's constant arguments and layout; fills plan.kind etc.
  std::string check_float_op(size_t i, Plan& plan);

  // The contract of a float operator the islands may lower, or nullptr.
  static const OperatorContract* float_candidate(const std::string& name);

  void output_range(Plan& plan, const std::vector<Quant>& inputs) const;

  // The float islands: dequantize -> float ops -> quantize chains whose ops
  // all have a cortex_m_ns operator become int8 end to end.
  struct IslandState {
    std::map<int32_t, Quant> quant;           // float value → its quantisation
    std::map<int32_t, size_t> dequantize_of;  // float value → the dequantize writing it
    std::map<size_t, Plan> plans;             // by instruction
    std::map<size_t, std::string> refused;    // candidate instructions kept, why
  };
  void lower_float_islands(LoweringResult& result);
  void plan_float_ops(IslandState& state);
  void keep_whole_islands(IslandState& state);
  void rewrite_float_op(size_t i, Plan& plan, IslandState& state, LoweringResult& result);
  KernelCall island_call(const Plan& plan, const std::vector<Quant>& inputs, const Quant& out,
                         const std::string& where, std::ostringstream& parameters);

  std::optional<int64_t> output_zero_point_of(int32_t v) const;

  void lower_int8_clamps(LoweringResult& result);

  // etns_ops::lookup_table (an imported TFLite activation) whose table a
  // cortex_m_ns kernel reproduces with fitted arguments (lower_tables.cpp).
  void lower_lookup_tables(LoweringResult& result);
  // etns_ops::quantized_reduce's mean branches (an imported MEAN) where
  // cortex_m_ns::quantized_mean gives TFLM's bytes on every reachable sum.
  void lower_reduce_means(LoweringResult& result);

  // Drops operators no instruction calls, keeping the others' order.
  void prune_operators();

  // Dequantizes whose output no instruction reads and that is no program output.
  void remove_unread_dequantizes(LoweringResult& result);
};

}  // namespace etns::tools::lowering
