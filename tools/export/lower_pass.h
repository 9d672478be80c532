#pragma once

// The lowering pass behind lower_to_ns (lower.h), shared by lower.cpp (the
// driver, hardswish, int8 clamps, clean-up) and lower_float_islands.cpp (the
// float islands). Internal to tools/export.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tools/export/lower.h"
#include "tools/export/program_model.h"

namespace etns::tools::lowering {

using runtime::ScalarType;
using runtime::ValueKind;

inline constexpr const char* kQuantize = "cortex_m::quantize_per_tensor.out";
inline constexpr const char* kDequantize = "cortex_m::dequantize_per_tensor.out";

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
  int32_t arg(size_t i, size_t position) const { return m_.instructions[i].args.at(position); }
  // The schema arguments of a .out call (the return slot removed).
  size_t schema_args(size_t i) const { return m_.instructions[i].args.size() - 1; }
  int32_t out_arg(size_t i) const { return arg(i, schema_args(i) - 1); }
  bool is_program_output(int32_t v) const {
    return std::find(m_.outputs.begin(), m_.outputs.end(), v) != m_.outputs.end();
  }
  std::optional<int64_t> int_arg(size_t i, size_t position) const {
    const ModelValue& v = value(arg(i, position));
    if (v.kind != ValueKind::Int) return std::nullopt;
    return v.int_value;
  }
  std::optional<double> double_arg(size_t i, size_t position) const {
    const ModelValue& v = value(arg(i, position));
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

  static bool is_float_candidate(const std::string& name);

  void output_range(Plan& plan, const std::vector<Quant>& inputs) const;

  void lower_float_islands(LoweringResult& result);

  std::optional<int64_t> output_zero_point_of(int32_t v) const;

  void lower_int8_clamps(LoweringResult& result);

  // Drops operators no instruction calls, keeping the others' order.
  void prune_operators();

  // Dequantizes whose output no instruction reads and that is no program output.
  void remove_unread_dequantizes(LoweringResult& result);
};

}  // namespace etns::tools::lowering
