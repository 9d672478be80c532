#include "tools/export/lower.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "kernels/registry.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/export/memory_planner.h"
#include "tools/export/quantized_graph.h"
#include "tools/runner/host_session.h"

namespace etns::tools {
namespace {

using runtime::ScalarType;
using runtime::ValueKind;

constexpr const char* kQuantize = "cortex_m::quantize_per_tensor.out";
constexpr const char* kDequantize = "cortex_m::dequantize_per_tensor.out";

double multiplier_factor(int64_t multiplier, int64_t shift) {
  return std::ldexp(static_cast<double>(multiplier), static_cast<int>(shift) - 31);
}

std::string format_double(double value) { return fmt::format("{:.10g}", value); }

std::string instruction_id(size_t index) { return "c0i" + std::to_string(index); }

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

  LoweringResult run() {
    LoweringResult result;
    result.instructions_before = m_.instructions.size();
    for (size_t k = 1; k < m_.non_const_buffer_sizes.size(); ++k) {
      result.arena_before_bytes += static_cast<uint64_t>(m_.non_const_buffer_sizes[k]);
    }
    index_readers();
    replacement_.assign(m_.instructions.size(), std::nullopt);
    removed_.assign(m_.instructions.size(), false);

    lower_hardswish(result);
    lower_float_islands(result);
    lower_int8_clamps(result);

    if (result.rewrites.empty()) {
      result.instructions_after = result.instructions_before;
      result.arena_after_bytes = result.arena_before_bytes;
      result.arena_lower_bound_bytes = result.arena_before_bytes;
      const auto lifetimes = tensor_lifetimes(m_);
      std::vector<Lifetime> spans;
      for (const TensorLifetime& t : lifetimes) spans.push_back(t.lifetime);
      result.arena_lower_bound_bytes = plan_memory(spans).lower_bound_bytes;
      return result;
    }
    std::vector<KernelCall> instructions;
    for (size_t i = 0; i < m_.instructions.size(); ++i) {
      if (removed_[i]) continue;
      instructions.push_back(replacement_[i] ? *replacement_[i] : m_.instructions[i]);
    }
    m_.instructions = std::move(instructions);
    remove_unread_dequantizes(result);
    prune_operators();
    const ReplanReport plan = replan_memory(m_);
    check_model(m_);
    result.instructions_after = m_.instructions.size();
    result.arena_after_bytes = plan.arena_bytes;
    result.arena_lower_bound_bytes = plan.lower_bound_bytes;
    return result;
  }

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

  void index_readers() {
    for (size_t i = 0; i < m_.instructions.size(); ++i) {
      const KernelCall& call = m_.instructions[i];
      if (call.args.size() < 2) continue;
      const size_t out_position = call.args.size() - 2;
      for (size_t p = 0; p < out_position; ++p) {
        const int32_t a = call.args[p];
        if (a < 0 || static_cast<size_t>(a) >= m_.values.size()) continue;
        const ModelValue& v = value(a);
        if (v.kind == ValueKind::Tensor) readers_[a].push_back(i);
        if (v.kind == ValueKind::TensorList || v.kind == ValueKind::OptionalTensorList) {
          for (int64_t item : v.items) {
            if (item >= 0) readers_[static_cast<int32_t>(item)].push_back(i);
          }
        }
      }
      writer_[call.args[out_position]] = i;
    }
  }
  std::vector<size_t> live_readers(int32_t v) const {
    std::vector<size_t> out;
    auto it = readers_.find(v);
    if (it == readers_.end()) return out;
    for (size_t r : it->second) {
      if (!removed_[r] && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    }
    return out;
  }

  // A quantize/dequantize with int8 range and dtype; returns (scale, zp).
  std::optional<std::pair<double, int64_t>> qdq_params(size_t i, std::string* why) const {
    const auto scale = double_arg(i, 1);
    const auto zp = int_arg(i, 2);
    const auto qmin = int_arg(i, 3);
    const auto qmax = int_arg(i, 4);
    const auto dtype = int_arg(i, 5);
    if (!scale || !zp || !qmin || !qmax || !dtype || *scale <= 0) {
      *why = label(i) + " has non-constant or invalid quantisation arguments";
      return std::nullopt;
    }
    if (*qmin != -128 || *qmax != 127 || *dtype != static_cast<int64_t>(ScalarType::Char)) {
      *why = label(i) + " is not a full-range int8 quantisation";
      return std::nullopt;
    }
    return std::make_pair(*scale, *zp);
  }

  // ---- hardswish: minimum(x, c) + quantized_mul(x, min) ------------------
  void lower_hardswish(LoweringResult& result) {
    for (size_t i = 0; i < m_.instructions.size(); ++i) {
      if (op_name(i) != "cortex_m::minimum.out" || removed_[i]) continue;
      std::string why = try_hardswish(i, result);
      if (!why.empty()) result.kept.push_back({label(i), why});
    }
  }

  std::string try_hardswish(size_t minimum, LoweringResult& result) {
    const int32_t x = arg(minimum, 0);
    const int32_t c = arg(minimum, 1);
    const int32_t t = arg(minimum, 2);
    const ModelTensor* ct = tensor(c);
    if (!ct || ct->storage != TensorStorage::Constant || ct->numel() != 1 || ct->dtype != ScalarType::Char) {
      return "not the hardswish decomposition: the minimum's other operand is not a one-element int8 constant";
    }
    const int64_t c_value = static_cast<int8_t>(ct->data.at(0));
    const std::vector<size_t> t_readers = live_readers(t);
    if (t_readers.size() != 1 || is_program_output(t) || op_name(t_readers[0]) != "cortex_m::quantized_mul.out") {
      return "not the hardswish decomposition: the minimum's output is not read by exactly one quantized_mul";
    }
    const size_t mul = t_readers[0];
    const int32_t self = arg(mul, 0);
    const int32_t other = arg(mul, 2);
    if (!((self == x && other == t) || (self == t && other == x))) {
      return "not the hardswish decomposition: " + label(mul) + " does not multiply x by min(x, c)";
    }
    const auto zp_self = int_arg(mul, 1);
    const auto zp_other = int_arg(mul, 3);
    const auto zp_out = int_arg(mul, 4);
    const auto mult = int_arg(mul, 5);
    const auto shift = int_arg(mul, 6);
    if (!zp_self || !zp_other || !zp_out || !mult || !shift) return label(mul) + " has non-constant arguments";
    const int64_t zp_x = self == x ? *zp_self : *zp_other;
    const int64_t zp_t = self == x ? *zp_other : *zp_self;
    const int64_t q3 = c_value - zp_x;
    if (q3 <= 0 || zp_x - zp_t != q3) {
      return "not the hardswish decomposition: constant " + std::to_string(c_value) + " - zp_x " +
             std::to_string(zp_x) + " != zp_x - zp_min " + std::to_string(zp_x - zp_t);
    }
    // The decomposition relies on x >= -3 (folded into the producer's range):
    // every code of x must satisfy q - zp_t >= 0, as quantized_hardswish's clamp at 0 assumes.
    int64_t lowest_x = -128;
    auto w = writer_.find(x);
    if (w != writer_.end() && op_name(w->second) == "cortex_m::quantized_conv2d.out") {
      if (auto act_min = int_arg(w->second, 10)) lowest_x = std::max(lowest_x, *act_min);
    }
    if (lowest_x < zp_t) {
      return "not lowerable: x can go below -3 (codes below " + std::to_string(zp_t) +
             "), where the decomposition is not hardswish";
    }
    const ModelTensor* xt = tensor(x);
    const ModelTensor* out_t = tensor(out_arg(mul));
    if (!xt || !out_t || xt->sizes != out_t->sizes || xt->dim_order != out_t->dim_order) {
      return "not lowerable: " + label(mul) + " broadcasts";
    }
    KernelCall call;
    call.op_index = m_.add_operator("cortex_m_ns::quantized_hardswish", "out");
    const int32_t out = out_arg(mul);
    call.args = {x, new_int(zp_x), new_int(*zp_out), new_int(*mult), new_int(*shift),
                 new_int(q3), new_int(2 * q3), new_int(0), out, out};
    LoweringRewrite rewrite;
    rewrite.op = "cortex_m_ns::quantized_hardswish.out";
    rewrite.replaced = {label(minimum), label(mul)};
    rewrite.parameters = "input_zero_point=" + std::to_string(zp_x) + " output_zero_point=" +
                         std::to_string(*zp_out) + " output_multiplier=" + std::to_string(*mult) +
                         " output_shift=" + std::to_string(*shift) + " relu_q3=" + std::to_string(q3) +
                         " relu_q6=" + std::to_string(2 * q3) + " prescale=0";
    std::string derivation =
        "(M, S) is the mul's, already QM(s_in^2/(6 s_out)); relu_q3 = c - zp_in = " + std::to_string(c_value) +
        " - (" + std::to_string(zp_x) + "); relu_q6 = 2 relu_q3, where min(x, c) saturates, so the rewrite is "
        "bit-exact";
    // s_out from a dequantize of the product, when there is one: then s_in too.
    for (size_t r : live_readers(out)) {
      if (op_name(r) != kDequantize) continue;
      std::string ignored;
      if (auto q = qdq_params(r, &ignored)) {
        const double s_out = q->first;
        const double s_in = std::sqrt(multiplier_factor(*mult, *shift) * 6.0 * s_out);
        derivation += "; s_out = " + format_double(s_out) + " (" + label(r) + "), so s_in = sqrt(factor·6·s_out) = " +
                      format_double(s_in) + ": the recipe's round(3/s_in) = " +
                      format_double(std::nearbyint(3.0 / s_in)) +
                      ", round(6/s_in) = " + format_double(std::nearbyint(6.0 / s_in));
      }
      break;
    }
    rewrite.derivation = derivation;
    replacement_[mul] = call;
    removed_[minimum] = true;
    result.rewrites.push_back(rewrite);
    return "";
  }

  // ---- float islands -------------------------------------------------------
  // Checks one candidate op's constant arguments and layout; fills plan.kind etc.
  std::string check_float_op(size_t i, Plan& plan) {
    const std::string name = op_name(i);
    const size_t n = schema_args(i);
    const int32_t out = out_arg(i);
    const ModelTensor* out_t = tensor(out);
    if (!out_t || out_t->dtype != ScalarType::Float) return "output is not a float32 tensor";
    auto same_layout = [&](int32_t v) {
      const ModelTensor* t = tensor(v);
      return t && t->dtype == ScalarType::Float && t->sizes == out_t->sizes && t->dim_order == out_t->dim_order;
    };
    plan.instruction = i;
    plan.float_output = out;
    if (name == "aten::leaky_relu.out" && n == 3) {
      const auto slope = double_arg(i, 1);
      if (!slope) return "negative_slope is not a constant number";
      if (*slope <= 0) return "negative_slope " + format_double(*slope) + " is not positive";
      if (!same_layout(arg(i, 0))) return "input and output differ in shape or layout";
      plan.kind = "leaky_relu";
      plan.slope = static_cast<float>(*slope);
      plan.float_inputs = {arg(i, 0)};
      return "";
    }
    if (name == "aten::sub.out" && n == 4) {
      const auto alpha = double_arg(i, 2);
      if (!alpha || *alpha != 1.0) return "alpha is not the constant 1";
      if (!same_layout(arg(i, 0)) || !same_layout(arg(i, 1))) {
        // quantized_sub broadcasts only a channel vector over channels_last
        // tensors, which portable sub cannot run; other shapes have no kernel.
        return "operands broadcast or differ in layout (cortex_m_ns::quantized_sub takes equal shapes, or a "
               "[1, C, 1, 1] channel vector against a channels_last tensor, which portable sub does not run)";
      }
      plan.kind = "sub";
      plan.float_inputs = {arg(i, 0), arg(i, 1)};
      return "";
    }
    if ((name == "aten::clamp.out" && n == 4) || (name == "aten::hardtanh.out" && n == 4) ||
        (name == "aten::relu.out" && n == 2)) {
      if (!same_layout(arg(i, 0))) return "input and output differ in shape or layout";
      if (name == "aten::relu.out") {
        plan.bound_min = 0.0;
      } else {
        for (size_t p : {size_t{1}, size_t{2}}) {
          const ModelValue& b = value(arg(i, p));
          std::optional<double> bound;
          if (b.kind == ValueKind::Double) bound = b.double_value;
          else if (b.kind == ValueKind::Int) bound = static_cast<double>(b.int_value);
          else if (b.kind != ValueKind::Null) return "a bound is not a constant number";
          (p == 1 ? plan.bound_min : plan.bound_max) = bound;
        }
        if (!plan.bound_min && !plan.bound_max) return "no bound";
      }
      plan.kind = "relu";
      plan.float_inputs = {arg(i, 0)};
      return "";
    }
    if (name == "aten::mean.out" && n == 5) {
      const ModelTensor* in = tensor(arg(i, 0));
      if (!in || in->dtype != ScalarType::Float) return "input is not float32";
      const size_t rank = in->sizes.size();
      if (rank == 0 || rank > 4) return "input rank " + std::to_string(rank) + " is not 1..4";
      for (size_t d = 0; d < rank; ++d) {
        if (in->dim_order[d] != d) return "input is not contiguous (dim order is not identity; e.g. channels_last)";
      }
      for (size_t d = 0; d < out_t->dim_order.size(); ++d) {
        if (out_t->dim_order[d] != d) return "output is not contiguous";
      }
      const ModelValue& dims = value(arg(i, 1));
      if (dims.kind != ValueKind::IntList || dims.items.empty()) return "dims are not a constant non-empty list";
      std::set<int64_t> seen;
      for (int64_t item : dims.items) {
        const ModelValue& d = value(static_cast<int32_t>(item));
        if (d.kind != ValueKind::Int) return "a dim is not a constant";
        int64_t dim = d.int_value < 0 ? d.int_value + static_cast<int64_t>(rank) : d.int_value;
        if (dim < 0 || dim >= static_cast<int64_t>(rank) || !seen.insert(dim).second) return "invalid dims";
        plan.dims.push_back(dim);
      }
      if (value(arg(i, 2)).kind != ValueKind::Bool) return "keepdim is not a constant";
      if (value(arg(i, 3)).kind != ValueKind::Null) return "an explicit dtype is given";
      plan.kind = "mean";
      plan.float_inputs = {arg(i, 0)};
      return "";
    }
    return "not a supported float op";
  }

  static bool is_float_candidate(const std::string& name) {
    return name == "aten::leaky_relu.out" || name == "aten::sub.out" || name == "aten::clamp.out" ||
           name == "aten::hardtanh.out" || name == "aten::relu.out" || name == "aten::mean.out";
  }

  void output_range(Plan& plan, const std::vector<Quant>& inputs) const {
    const Quant& a = inputs[0];
    if (plan.kind == "leaky_relu") {
      auto f = [&](double x) { return x >= 0 ? x : x * plan.slope; };
      plan.lo = f(a.lo);
      plan.hi = f(a.hi);
    } else if (plan.kind == "sub") {
      plan.lo = a.lo - inputs[1].hi;
      plan.hi = a.hi - inputs[1].lo;
    } else if (plan.kind == "relu") {
      plan.lo = a.lo;
      plan.hi = a.hi;
      if (plan.bound_min) plan.lo = std::max(plan.lo, *plan.bound_min), plan.hi = std::max(plan.hi, *plan.bound_min);
      if (plan.bound_max) plan.lo = std::min(plan.lo, *plan.bound_max), plan.hi = std::min(plan.hi, *plan.bound_max);
    } else {  // mean
      plan.lo = a.lo;
      plan.hi = a.hi;
    }
  }

  void lower_float_islands(LoweringResult& result) {
    std::map<int32_t, Quant> quant;                // float value → its quantisation
    std::map<int32_t, size_t> dequantize_of;       // float value → the dequantize writing it
    std::map<size_t, Plan> plans;                  // by instruction
    std::map<size_t, std::string> refused;         // candidate instructions kept, why
    for (size_t i = 0; i < m_.instructions.size(); ++i) {
      if (removed_[i]) continue;
      const std::string name = op_name(i);
      if (name == kDequantize) {
        std::string why;
        const ModelTensor* in = tensor(arg(i, 0));
        if (auto q = qdq_params(i, &why); q && in && in->dtype == ScalarType::Char) {
          const double s = q->first;
          const int64_t zp = q->second;
          quant[out_arg(i)] = {arg(i, 0), s, zp, static_cast<double>(-128 - zp) * s, static_cast<double>(127 - zp) * s};
          dequantize_of[out_arg(i)] = i;
        }
        continue;
      }
      if (!is_float_candidate(name)) continue;
      const ModelTensor* in0 = tensor(arg(i, 0));
      if (in0 && in0->dtype == ScalarType::Char) continue;  // the int8 clamp: lower_int8_clamps
      Plan plan;
      if (std::string why = check_float_op(i, plan); !why.empty()) {
        refused[i] = why;
        continue;
      }
      std::vector<Quant> inputs;
      std::string why;
      for (int32_t v : plan.float_inputs) {
        auto q = quant.find(v);
        if (q == quant.end()) {
          why = "float input v" + std::to_string(v) + " does not come from a dequantize or a lowered op";
          break;
        }
        inputs.push_back(q->second);
      }
      if (!why.empty()) {
        refused[i] = why;
        continue;
      }
      output_range(plan, inputs);
      if (is_program_output(plan.float_output)) {
        refused[i] = "its float output is a program output";
        continue;
      }
      // The output's quantisation: a quantize reader's, else derived from the range.
      Quant out;
      for (size_t r : live_readers(plan.float_output)) {
        if (op_name(r) != kQuantize) continue;
        std::string ignored;
        auto q = qdq_params(r, &ignored);
        const ModelTensor* qt = tensor(out_arg(r));
        if (q && qt && qt->dtype == ScalarType::Char && !plan.absorbed_quantize) {
          plan.absorbed_quantize = r;
          out = {out_arg(r), q->first, q->second, plan.lo, plan.hi};
        }
      }
      if (!plan.absorbed_quantize) {
        const double lo = std::min(plan.lo, 0.0);
        const double hi = std::max(plan.hi, 0.0);
        if (!(hi - lo > 0) || !std::isfinite(hi - lo)) {
          refused[i] = "its output range is empty or not finite, no quantisation to derive";
          continue;
        }
        out.scale = (hi - lo) / 255.0;
        out.zero_point = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(-128.0 - lo / out.scale)), -128, 127);
        out.int8_value = -1;
        out.lo = plan.lo;
        out.hi = plan.hi;
      }
      quant[plan.float_output] = out;
      plans[i] = plan;
    }
    // Keep only ops whose every reader is lowered too (or the absorbed quantize),
    // and whose inputs come from dequantizes or lowered ops; repeat to a fixpoint.
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = plans.begin(); it != plans.end();) {
        const Plan& plan = it->second;
        std::string why;
        for (size_t r : live_readers(plan.float_output)) {
          if (plan.absorbed_quantize && r == *plan.absorbed_quantize) continue;
          if (!plans.count(r)) {
            why = "its float output is also read by " + label(r) + ", which stays float";
            break;
          }
        }
        for (int32_t v : plan.float_inputs) {
          if (dequantize_of.count(v)) continue;
          auto w = writer_.find(v);
          if (w == writer_.end() || !plans.count(w->second)) {
            why = "its input v" + std::to_string(v) + " comes from an op that stays float";
            break;
          }
        }
        if (!why.empty()) {
          refused[it->first] = why;
          it = plans.erase(it);
          changed = true;
        } else {
          ++it;
        }
      }
    }
    // Rewrite, in order: intermediate int8 values get created on the way.
    for (auto& [i, plan] : plans) {
      std::vector<Quant> inputs;
      for (int32_t v : plan.float_inputs) inputs.push_back(quant.at(v));
      Quant& out = quant.at(plan.float_output);
      std::string derivation;
      std::vector<std::string> replaced;
      for (int32_t v : plan.float_inputs) {
        if (auto d = dequantize_of.find(v); d != dequantize_of.end()) {
          replaced.push_back(label(d->second) + " (its input; removed once unread)");
        }
      }
      replaced.push_back(label(i));
      if (plan.absorbed_quantize) {
        replaced.push_back(label(*plan.absorbed_quantize));
        removed_[*plan.absorbed_quantize] = true;
      } else {
        ModelTensor t = *tensor(plan.float_output);
        t.dtype = ScalarType::Char;
        t.storage = TensorStorage::Planned;
        t.memory_id = 1;
        t.offset = 0;
        out.int8_value = m_.add_value(ModelValue::tensor_value(t));
        derivation = "output v" + std::to_string(plan.float_output) +
                     " had no quantisation (float between two ops): re-quantised to int8 v" +
                     std::to_string(out.int8_value) + " with scale " + format_double(out.scale) + ", zero point " +
                     std::to_string(out.zero_point) + ", derived from its exact reachable range [" +
                     format_double(plan.lo) + ", " + format_double(plan.hi) + "] (scale = range/255)";
      }
      const std::string where = "lower " + label(i);
      LoweringRewrite rewrite;
      rewrite.replaced = replaced;
      rewrite.derivation = derivation;
      const int32_t o = out.int8_value;
      KernelCall call;
      std::ostringstream p;
      const Quant& a = inputs[0];
      const bool same_qparams = a.scale == out.scale && a.zero_point == out.zero_point;
      if (plan.kind == "leaky_relu") {
        const Requant alpha = quantize_multiplier(a.scale * plan.slope / out.scale, where);
        const Requant id = same_qparams ? kIdentityRequant
                                           : quantize_multiplier(a.scale / out.scale, where);
        call.op_index = m_.add_operator("cortex_m_ns::quantized_leaky_relu", "out");
        call.args = {a.int8_value, new_int(a.zero_point), new_int(out.zero_point), new_int(alpha.multiplier),
                     new_int(alpha.shift), new_int(id.multiplier), new_int(id.shift), o, o};
        p << "input_zero_point=" << a.zero_point << " output_zero_point=" << out.zero_point
          << " alpha=(" << alpha.multiplier << ", " << alpha.shift << ") identity=(" << id.multiplier << ", "
          << id.shift << ")";
      } else if (plan.kind == "sub") {
        const Quant& b = inputs[1];
        const double m2 = 2 * std::max(a.scale, b.scale);
        const Requant ms = quantize_multiplier(a.scale / m2, where);
        const Requant mo = quantize_multiplier(b.scale / m2, where);
        const Requant mout = quantize_multiplier(m2 / (out.scale * 1048576.0), where);
        call.op_index = m_.add_operator("cortex_m_ns::quantized_sub", "out");
        call.args = {a.int8_value,         new_int(a.zero_point),  new_int(ms.multiplier),   new_int(ms.shift),
                     b.int8_value,         new_int(b.zero_point),  new_int(mo.multiplier),   new_int(mo.shift),
                     new_int(out.zero_point), new_int(mout.multiplier), new_int(mout.shift), new_int(-128),
                     new_int(127),         o,                      o};
        p << "self_zero_point=" << a.zero_point << " self=(" << ms.multiplier << ", " << ms.shift
          << ") other_zero_point=" << b.zero_point << " other=(" << mo.multiplier << ", " << mo.shift
          << ") output_zero_point=" << out.zero_point << " output=(" << mout.multiplier << ", " << mout.shift
          << ") activation=[-128, 127]";
      } else if (plan.kind == "relu") {
        const Qparams out_q{out.scale, static_cast<int32_t>(out.zero_point)};
        const int64_t lo = plan.bound_min ? quantize_activation_bound(*plan.bound_min, out_q) : -128;
        const int64_t hi = plan.bound_max ? quantize_activation_bound(*plan.bound_max, out_q) : 127;
        const Requant r = same_qparams ? kIdentityRequant
                                          : quantize_multiplier(a.scale / out.scale, where);
        call.op_index = m_.add_operator("cortex_m_ns::quantized_relu", "out");
        call.args = {a.int8_value, new_int(a.zero_point), new_int(out.zero_point), new_int(r.multiplier),
                     new_int(r.shift), new_int(lo), new_int(hi), o, o};
        p << "input_zero_point=" << a.zero_point << " output_zero_point=" << out.zero_point << " output=("
          << r.multiplier << ", " << r.shift << ") activation=[" << lo << ", " << hi << "]";
      } else {  // mean
        const ModelTensor* in = tensor(plan.float_inputs[0]);
        const size_t rank = in->sizes.size();
        int64_t count = 1;
        std::vector<int64_t> mask(4, 0);
        for (int64_t d : plan.dims) {
          count *= in->sizes[static_cast<size_t>(d)];
          mask[static_cast<size_t>(d) + 4 - rank] = 1;
        }
        const Requant r = quantize_multiplier(a.scale / (out.scale * static_cast<double>(count)), where);
        std::vector<int64_t> mask_items;
        for (int64_t bit : mask) mask_items.push_back(new_int(bit));
        const int32_t mask_value = m_.add_value(ModelValue::int_list(mask_items));
        call.op_index = m_.add_operator("cortex_m_ns::quantized_mean", "out");
        call.args = {a.int8_value,      new_int(a.zero_point), mask_value, arg(i, 2), new_int(out.zero_point),
                     new_int(r.multiplier), new_int(r.shift),  o,          o};
        p << "input_zero_point=" << a.zero_point << " axis_mask=[" << mask[0] << ", " << mask[1] << ", "
          << mask[2] << ", " << mask[3] << "] keepdim=" << (value(arg(i, 2)).bool_value ? "true" : "false")
          << " output_zero_point=" << out.zero_point << " output=(" << r.multiplier << ", " << r.shift
          << ") count=" << count;
      }
      rewrite.op = m_.operators[call.op_index].name + ".out";
      rewrite.parameters = p.str();
      std::ostringstream scales;
      scales << "s_in=" << format_double(a.scale);
      if (plan.kind == "sub") scales << " s_other=" << format_double(inputs[1].scale);
      scales << " s_out=" << format_double(out.scale);
      if (plan.kind == "leaky_relu") scales << " alpha=" << format_double(plan.slope);
      rewrite.derivation = scales.str() + (derivation.empty() ? "" : "; " + derivation);
      replacement_[i] = call;
      result.rewrites.push_back(rewrite);
    }
    for (const auto& [i, why] : refused) result.kept.push_back({label(i), why});
  }

  // ---- int8 clamp → quantized_relu (identity requantisation) ---------------
  std::optional<int64_t> output_zero_point_of(int32_t v) const {
    auto w = writer_.find(v);
    if (w == writer_.end()) return std::nullopt;
    const size_t i = w->second;
    const KernelCall& call = replacement_[i] ? *replacement_[i] : m_.instructions[i];
    const std::string name = m_.operators.at(call.op_index).name;
    if (name == "cortex_m::quantize_per_tensor") return value(call.args.at(2)).int_value;
    if (name == "cortex_m::quantized_conv2d") return value(call.args.at(7)).int_value;
    if (name == "cortex_m::quantized_mul") return value(call.args.at(4)).int_value;
    if (name == "cortex_m_ns::quantized_sub") return value(call.args.at(8)).int_value;
    if (name == "cortex_m_ns::quantized_hardswish" || name == "cortex_m_ns::quantized_leaky_relu" ||
        name == "cortex_m_ns::quantized_relu") {
      return value(call.args.at(2)).int_value;
    }
    if (name == "cortex_m_ns::quantized_mean") return value(call.args.at(4)).int_value;
    return std::nullopt;
  }

  void lower_int8_clamps(LoweringResult& result) {
    for (size_t i = 0; i < m_.instructions.size(); ++i) {
      if (removed_[i] || replacement_[i] || op_name(i) != "aten::clamp.out") continue;
      const ModelTensor* in = tensor(arg(i, 0));
      const ModelTensor* out = tensor(out_arg(i));
      if (!in || in->dtype != ScalarType::Char) continue;  // float clamps: the islands
      std::string why;
      int64_t bounds[2] = {-128, 127};
      for (size_t p : {size_t{1}, size_t{2}}) {
        const ModelValue& b = value(arg(i, p));
        if (b.kind == ValueKind::Int) {
          if (b.int_value < -128 || b.int_value > 127) why = "a bound is outside int8";
          bounds[p - 1] = b.int_value;
        } else if (b.kind != ValueKind::Null) {
          why = "a bound is not an Int (it would promote the int8 clamp to float)";
        }
      }
      if (!out || out->dtype != ScalarType::Char || out->sizes != in->sizes || out->dim_order != in->dim_order) {
        why = "output is not an int8 tensor of the input's shape and layout";
      }
      if (!why.empty()) {
        result.kept.push_back({label(i), why});
        continue;
      }
      const std::optional<int64_t> zp = output_zero_point_of(arg(i, 0));
      const int64_t z = zp.value_or(0);
      KernelCall call;
      call.op_index = m_.add_operator("cortex_m_ns::quantized_relu", "out");
      const int32_t o = out_arg(i);
      call.args = {arg(i, 0), new_int(z), new_int(z), new_int(kIdentityRequant.multiplier), new_int(kIdentityRequant.shift),
                   new_int(bounds[0]), new_int(bounds[1]), o, o};
      LoweringRewrite rewrite;
      rewrite.op = "cortex_m_ns::quantized_relu.out";
      rewrite.replaced = {label(i)};
      rewrite.parameters = "input_zero_point=" + std::to_string(z) + " output_zero_point=" + std::to_string(z) +
                           " output=(" + std::to_string(kIdentityRequant.multiplier) + ", " + std::to_string(kIdentityRequant.shift) +
                           ") activation=[" + std::to_string(bounds[0]) + ", " + std::to_string(bounds[1]) + "]";
      rewrite.derivation = std::string("int8 clamp: identical input and output quantisation, identity sentinel "
                                       "(arm_clamp_s8 path); zero point ") +
                           (zp ? "of the producer" : "0 (producer unknown; the identity path ignores it)");
      replacement_[i] = call;
      result.rewrites.push_back(rewrite);
    }
  }

  // Drops operators no instruction calls, keeping the others' order.
  void prune_operators() {
    std::vector<bool> used(m_.operators.size(), false);
    for (const KernelCall& call : m_.instructions) used.at(call.op_index) = true;
    std::vector<ModelOperator> operators;
    std::vector<uint32_t> index(m_.operators.size(), 0);
    for (size_t k = 0; k < m_.operators.size(); ++k) {
      if (!used[k]) continue;
      index[k] = static_cast<uint32_t>(operators.size());
      operators.push_back(m_.operators[k]);
    }
    for (KernelCall& call : m_.instructions) call.op_index = index[call.op_index];
    m_.operators = std::move(operators);
  }

  // Dequantizes whose output no instruction reads and that is no program output.
  void remove_unread_dequantizes(LoweringResult& result) {
    (void)result;
    for (bool changed = true; changed;) {
      changed = false;
      std::set<int32_t> read;
      for (const KernelCall& call : m_.instructions) {
        for (size_t p = 0; p + 2 < call.args.size(); ++p) read.insert(call.args[p]);
      }
      for (size_t i = 0; i < m_.instructions.size(); ++i) {
        const KernelCall& call = m_.instructions[i];
        const std::string name = m_.operators.at(call.op_index).name;
        if (name != "cortex_m::dequantize_per_tensor") continue;
        const int32_t out = call.args.at(call.args.size() - 2);
        if (read.count(out) || is_program_output(out)) continue;
        m_.instructions.erase(m_.instructions.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        break;
      }
    }
  }
};

}  // namespace

LoweringResult lower_to_ns(ProgramModel& model) {
  check_model(model);
  return Lowerer(model).run();
}

OutputDifference compare_lowered(const std::string& original_pte, const std::string& lowered_pte,
                                 const std::vector<uint8_t>& input) {
  const ProgramModel original = read_program(read_file(original_pte), original_pte);
  if (original.inputs.empty() || original.outputs.empty()) throw Failure(original_pte + ": no input or output");
  const ModelTensor& in = original.values.at(static_cast<size_t>(original.inputs[0])).tensor;
  std::vector<uint8_t> bytes = input.empty() ? std::vector<uint8_t>(in.nbytes(), 0) : input;
  const int32_t output = original.outputs[0];
  const ModelTensor& out = original.values.at(static_cast<size_t>(output)).tensor;
  double lsb = 1.0;  // int8 output: codes
  if (out.dtype == ScalarType::Float) {
    lsb = 0;
    for (const KernelCall& call : original.instructions) {
      const ModelOperator& op = original.operators.at(call.op_index);
      if (op.name == "cortex_m::dequantize_per_tensor" && call.args.at(call.args.size() - 2) == output) {
        lsb = original.values.at(static_cast<size_t>(call.args.at(1))).double_value;
      }
    }
    if (lsb <= 0) throw Failure(original_pte + ": the float output is not written by a dequantize; no LSB to measure in");
  } else if (out.dtype != ScalarType::Char) {
    throw Failure(original_pte + ": output 0 is neither float32 nor int8");
  }
  HostSession a(original_pte, &kernels::registry_arm());
  HostSession b(lowered_pte, &kernels::registry_ns());
  a.set_input(0, bytes);
  b.set_input(0, bytes);
  a.execute();
  b.execute();
  const std::vector<uint8_t> x = a.output_bytes(0);
  const std::vector<uint8_t> y = b.output_bytes(0);
  if (x.size() != y.size()) throw Failure(lowered_pte + ": output 0 has " + std::to_string(y.size()) +
                                          " bytes, the original " + std::to_string(x.size()));
  OutputDifference d;
  double sum = 0;
  if (out.dtype == ScalarType::Float) {
    d.elements = x.size() / 4;
    for (size_t k = 0; k < d.elements; ++k) {
      float fa = 0, fb = 0;
      std::memcpy(&fa, x.data() + 4 * k, 4);
      std::memcpy(&fb, y.data() + 4 * k, 4);
      const double e = std::fabs(static_cast<double>(fa) - static_cast<double>(fb)) / lsb;
      d.max_lsb = std::max(d.max_lsb, e);
      sum += e;
    }
  } else {
    d.elements = x.size();
    for (size_t k = 0; k < d.elements; ++k) {
      const double e = std::abs(static_cast<int>(static_cast<int8_t>(x[k])) - static_cast<int>(static_cast<int8_t>(y[k])));
      d.max_lsb = std::max(d.max_lsb, e);
      sum += e;
    }
  }
  d.mean_lsb = d.elements ? sum / static_cast<double>(d.elements) : 0;
  return d;
}

std::string lowering_report(const std::string& input_path, const std::string& output_path,
                            const LoweringResult& result, const OutputDifference* difference,
                            const std::string& input_description) {
  std::ostringstream r;
  r << "# etns lower: " << input_path << " -> " << output_path << "\n\n";
  r << "| | before | after |\n|---|---|---|\n";
  r << "| instructions | " << result.instructions_before << " | " << result.instructions_after << " |\n";
  r << "| planned arena (bytes) | " << result.arena_before_bytes << " | " << result.arena_after_bytes
    << " (lower bound " << result.arena_lower_bound_bytes << ") |\n\n";
  r << "## Rewrites (" << result.rewrites.size() << ")\n\n";
  if (result.rewrites.empty()) r << "None: nothing to lower.\n";
  for (const LoweringRewrite& w : result.rewrites) {
    r << "- ";
    for (size_t k = 0; k < w.replaced.size(); ++k) r << (k ? ", " : "") << "`" << w.replaced[k] << "`";
    r << " -> `" << w.op << "`\n  - parameters: " << w.parameters << "\n";
    if (!w.derivation.empty()) r << "  - derivation: " << w.derivation << "\n";
  }
  r << "\n## Stayed (" << result.kept.size() << ")\n\n";
  if (result.kept.empty()) r << "Nothing a rewrite looked at was left.\n";
  for (const LoweringKept& k : result.kept) r << "- `" << k.instruction << "`: " << k.reason << "\n";
  if (difference) {
    r << "\n## Output difference\n\n";
    r << "Original on the arm provider vs lowered on the ns provider, host, input " << input_description
      << ": output 0, " << difference->elements << " elements, in output LSBs: max "
      << format_double(difference->max_lsb) << ", mean " << format_double(difference->mean_lsb) << ".\n";
  }
  return r.str();
}

}  // namespace etns::tools
