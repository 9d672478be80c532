#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "tools/writers/lower/lower_pass.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns::tools::lowering {

// ---- float islands -------------------------------------------------------
// Checks one candidate op's constant arguments and layout; fills plan.kind etc.
std::string Lowerer::check_float_op(size_t i, Plan& plan) {
  const int32_t out = out_arg(i);
  const ModelTensor* out_t = tensor(out);
  if (!out_t || out_t->dtype != ScalarType::Float) return "output is not a float32 tensor";
  auto same_layout = [&](int32_t v) {
    const ModelTensor* t = tensor(v);
    return t && t->dtype == ScalarType::Float && t->sizes == out_t->sizes && t->dim_order == out_t->dim_order;
  };
  plan.instruction = i;
  plan.float_output = out;
  if (calls(i, portable::kLeakyReluContract)) {
    constexpr const OperatorContract& k = portable::kLeakyReluContract;
    const auto slope = double_arg(i, k.arg("negative_slope"));
    if (!slope) return "negative_slope is not a constant number";
    if (*slope <= 0) return "negative_slope " + format_double(*slope) + " is not positive";
    if (!same_layout(arg(i, k.arg("self")))) return "input and output differ in shape or layout";
    plan.kind = "leaky_relu";
    plan.slope = static_cast<float>(*slope);
    plan.float_inputs = {arg(i, k.arg("self"))};
    return "";
  }
  if (calls(i, portable::kSubContract)) {
    constexpr const OperatorContract& k = portable::kSubContract;
    const auto alpha = double_arg(i, k.arg("alpha"));
    if (!alpha || *alpha != 1.0) return "alpha is not the constant 1";
    if (!same_layout(arg(i, k.arg("self"))) || !same_layout(arg(i, k.arg("other")))) {
      // quantized_sub broadcasts only a channel vector over channels_last
      // tensors, which portable sub cannot run; other shapes have no kernel.
      return "operands broadcast or differ in layout (cortex_m_ns::quantized_sub takes equal shapes, or a "
             "[1, C, 1, 1] channel vector against a channels_last tensor, which portable sub does not run)";
    }
    plan.kind = "sub";
    plan.float_inputs = {arg(i, k.arg("self")), arg(i, k.arg("other"))};
    return "";
  }
  // clamp(self, min, max), hardtanh(self, min_val, max_val), relu(self): a relu with bounds.
  const bool clamp = calls(i, portable::kClampContract);
  const bool hardtanh = calls(i, kAtenHardtanhContract);
  if (clamp || hardtanh || calls(i, kAtenReluContract)) {
    const int32_t self = arg(i, float_candidate(op_name(i))->arg("self"));
    if (!same_layout(self)) return "input and output differ in shape or layout";
    if (!clamp && !hardtanh) {
      plan.bound_min = 0.0;
    } else {
      const OperatorContract& k = clamp ? portable::kClampContract : kAtenHardtanhContract;
      const Arg bound_args[2] = {k.arg(clamp ? "min" : "min_val"), k.arg(clamp ? "max" : "max_val")};
      for (size_t p = 0; p < 2; ++p) {
        const ModelValue& b = value(arg(i, bound_args[p]));
        std::optional<double> bound;
        if (b.kind == ValueKind::Double) bound = b.double_value;
        else if (b.kind == ValueKind::Int) bound = static_cast<double>(b.int_value);
        else if (b.kind != ValueKind::Null) return "a bound is not a constant number";
        (p == 0 ? plan.bound_min : plan.bound_max) = bound;
      }
      if (!plan.bound_min && !plan.bound_max) return "no bound";
    }
    plan.kind = "relu";
    plan.float_inputs = {self};
    return "";
  }
  if (calls(i, portable::kMeanContract)) {
    constexpr const OperatorContract& k = portable::kMeanContract;
    const ModelTensor* in = tensor(arg(i, k.arg("self")));
    if (!in || in->dtype != ScalarType::Float) return "input is not float32";
    const size_t rank = in->sizes.size();
    if (rank == 0 || rank > 4) return "input rank " + std::to_string(rank) + " is not 1..4";
    for (size_t d = 0; d < rank; ++d) {
      if (in->dim_order[d] != d) return "input is not contiguous (dim order is not identity; e.g. channels_last)";
    }
    for (size_t d = 0; d < out_t->dim_order.size(); ++d) {
      if (out_t->dim_order[d] != d) return "output is not contiguous";
    }
    const ModelValue& dims = value(arg(i, k.arg("dim")));
    if (dims.kind != ValueKind::IntList || dims.items.empty()) return "dims are not a constant non-empty list";
    std::set<int64_t> seen;
    for (int64_t item : dims.items) {
      const ModelValue& d = value(static_cast<int32_t>(item));
      if (d.kind != ValueKind::Int) return "a dim is not a constant";
      int64_t dim = d.int_value < 0 ? d.int_value + static_cast<int64_t>(rank) : d.int_value;
      if (dim < 0 || dim >= static_cast<int64_t>(rank) || !seen.insert(dim).second) return "invalid dims";
      plan.dims.push_back(dim);
    }
    if (value(arg(i, k.arg("keepdim"))).kind != ValueKind::Bool) return "keepdim is not a constant";
    if (value(arg(i, k.arg("dtype"))).kind != ValueKind::Null) return "an explicit dtype is given";
    plan.kind = "mean";
    plan.keepdim = arg(i, k.arg("keepdim"));
    plan.float_inputs = {arg(i, k.arg("self"))};
    return "";
  }
  return "not a supported float op";
}

const OperatorContract* Lowerer::float_candidate(const std::string& name) {
  for (const OperatorContract* c : {&portable::kLeakyReluContract, &portable::kSubContract,
                                    &portable::kClampContract, &kAtenHardtanhContract,
                                    &kAtenReluContract, &portable::kMeanContract}) {
    if (name == c->name) return c;
  }
  return nullptr;
}

void Lowerer::output_range(Plan& plan, const std::vector<Quant>& inputs) const {
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

void Lowerer::lower_float_islands(LoweringResult& result) {
  IslandState state;
  plan_float_ops(state);
  keep_whole_islands(state);
  // Rewrite, in order: intermediate int8 values get created on the way.
  for (auto& [i, plan] : state.plans) rewrite_float_op(i, plan, state, result);
  for (const auto& [i, why] : state.refused) result.kept.push_back({label(i), why});
}

// Every dequantize's grid, and a plan for each float op that could become an
// int8 one on its own (its arguments and layout allow it, its inputs have a
// grid); the others go to `refused` with the reason.
void Lowerer::plan_float_ops(IslandState& state) {
  std::map<int32_t, Quant>& quant = state.quant;
  std::map<int32_t, size_t>& dequantize_of = state.dequantize_of;
  std::map<size_t, Plan>& plans = state.plans;
  std::map<size_t, std::string>& refused = state.refused;
  for (size_t i = 0; i < m_.instructions.size(); ++i) {
    if (removed_[i]) continue;
    const std::string name = op_name(i);
    if (calls(i, kDequantize)) {
      std::string why;
      const int32_t input = arg(i, kDequantize.arg("input"));
      const ModelTensor* in = tensor(input);
      if (auto q = qdq_params(i, &why); q && in && in->dtype == ScalarType::Char) {
        const double s = q->first;
        const int64_t zp = q->second;
        // An int8 grid's zero point is an int8; any other is no grid to lower
        // onto (and would overflow the range below).
        if (zp < -128 || zp > 127) continue;
        quant[out_arg(i)] = {input, s, zp, static_cast<double>(-128 - zp) * s, static_cast<double>(127 - zp) * s};
        dequantize_of[out_arg(i)] = i;
      }
      continue;
    }
    const OperatorContract* candidate = float_candidate(name);
    if (candidate == nullptr || !calls(i, *candidate)) continue;
    const ModelTensor* self = tensor(arg(i, candidate->arg("self")));
    if (self && self->dtype == ScalarType::Char) continue;  // the int8 clamp: lower_int8_clamps
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
      if (!calls(r, kQuantize)) continue;
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
}

// Keeps only the plans whose every reader is lowered too (or the absorbed
// quantize), and whose inputs come from dequantizes or lowered ops; repeats
// to a fixpoint.
void Lowerer::keep_whole_islands(IslandState& state) {
  std::map<int32_t, size_t>& dequantize_of = state.dequantize_of;
  std::map<size_t, Plan>& plans = state.plans;
  std::map<size_t, std::string>& refused = state.refused;
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
}

// Replaces float op i by its cortex_m_ns operator on the planned grids.
void Lowerer::rewrite_float_op(size_t i, Plan& plan, IslandState& state, LoweringResult& result) {
  std::map<int32_t, Quant>& quant = state.quant;
  std::map<int32_t, size_t>& dequantize_of = state.dequantize_of;
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
  std::ostringstream p;
  const KernelCall call = island_call(plan, inputs, out, where, p);
  rewrite.op = m_.operators[call.op_index].name + ".out";
  rewrite.parameters = p.str();
  std::ostringstream scales;
  scales << "s_in=" << format_double(inputs[0].scale);
  if (plan.kind == "sub") scales << " s_other=" << format_double(inputs[1].scale);
  scales << " s_out=" << format_double(out.scale);
  if (plan.kind == "leaky_relu") scales << " alpha=" << format_double(plan.slope);
  rewrite.derivation = scales.str() + (derivation.empty() ? "" : "; " + derivation);
  replacement_[i] = call;
  result.rewrites.push_back(rewrite);
}

// The cortex_m_ns call for a planned float op, on its inputs' and output's
// grids; `parameters` gets them as the report shows them.
KernelCall Lowerer::island_call(const Plan& plan, const std::vector<Quant>& inputs, const Quant& out,
                                const std::string& where, std::ostringstream& p) {
  KernelCall call;
  const int32_t o = out.int8_value;
  const Quant& a = inputs[0];
  const bool same_qparams = a.scale == out.scale && a.zero_point == out.zero_point;
  if (plan.kind == "leaky_relu") {
    const Requant alpha = quantize_multiplier(a.scale * plan.slope / out.scale, where);
    const Requant id = same_qparams ? kIdentityRequant
                                       : quantize_multiplier(a.scale / out.scale, where);
    call = m_.call(cortex_m_ns::kLeakyReluContract, {{"self", a.int8_value},
                                                       {"input_zero_point", new_int(a.zero_point)},
                                                       {"output_zero_point", new_int(out.zero_point)},
                                                       {"alpha_multiplier", new_int(alpha.multiplier)},
                                                       {"alpha_shift", new_int(alpha.shift)},
                                                       {"identity_multiplier", new_int(id.multiplier)},
                                                       {"identity_shift", new_int(id.shift)},
                                                       {"out", o}});
    p << "input_zero_point=" << a.zero_point << " output_zero_point=" << out.zero_point
      << " alpha=(" << alpha.multiplier << ", " << alpha.shift << ") identity=(" << id.multiplier << ", "
      << id.shift << ")";
  } else if (plan.kind == "sub") {
    const Quant& b = inputs[1];
    const double m2 = 2 * std::max(a.scale, b.scale);
    const Requant ms = quantize_multiplier(a.scale / m2, where);
    const Requant mo = quantize_multiplier(b.scale / m2, where);
    const Requant mout = quantize_multiplier(m2 / (out.scale * 1048576.0), where);
    call = m_.call(cortex_m_ns::kSubContract, {{"self", a.int8_value},
                                                 {"self_zero_point", new_int(a.zero_point)},
                                                 {"self_multiplier", new_int(ms.multiplier)},
                                                 {"self_shift", new_int(ms.shift)},
                                                 {"other", b.int8_value},
                                                 {"other_zero_point", new_int(b.zero_point)},
                                                 {"other_multiplier", new_int(mo.multiplier)},
                                                 {"other_shift", new_int(mo.shift)},
                                                 {"output_zero_point", new_int(out.zero_point)},
                                                 {"output_multiplier", new_int(mout.multiplier)},
                                                 {"output_shift", new_int(mout.shift)},
                                                 {"activation_min", new_int(-128)},
                                                 {"activation_max", new_int(127)},
                                                 {"out", o}});
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
    call = m_.call(cortex_m_ns::kReluContract, {{"self", a.int8_value},
                                                  {"input_zero_point", new_int(a.zero_point)},
                                                  {"output_zero_point", new_int(out.zero_point)},
                                                  {"output_multiplier", new_int(r.multiplier)},
                                                  {"output_shift", new_int(r.shift)},
                                                  {"activation_min", new_int(lo)},
                                                  {"activation_max", new_int(hi)},
                                                  {"out", o}});
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
    call = m_.call(cortex_m_ns::kMeanContract, {{"self", a.int8_value},
                                                  {"input_zero_point", new_int(a.zero_point)},
                                                  {"axis_mask", mask_value},
                                                  {"keepdim", plan.keepdim},
                                                  {"output_zero_point", new_int(out.zero_point)},
                                                  {"output_multiplier", new_int(r.multiplier)},
                                                  {"output_shift", new_int(r.shift)},
                                                  {"out", o}});
    p << "input_zero_point=" << a.zero_point << " axis_mask=[" << mask[0] << ", " << mask[1] << ", "
      << mask[2] << ", " << mask[3] << "] keepdim=" << (value(plan.keepdim).bool_value ? "true" : "false")
      << " output_zero_point=" << out.zero_point << " output=(" << r.multiplier << ", " << r.shift
      << ") count=" << count;
  }
  return call;
}

}  // namespace etns::tools::lowering
