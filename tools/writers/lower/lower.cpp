#include "tools/writers/lower/lower.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "kernels/registry.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/writers/lower/lower_pass.h"
#include "tools/writers/program/finish_program.h"
#include "tools/writers/program/memory_planner.h"
#include "tools/writers/program/quantized_graph.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::tools {
namespace lowering {

// The loader reads a program without binding it, so it has not checked how many
// arguments each call passes; the rules below read arguments by position.
// Every call of an operator the registries know must pass exactly the count
// they declare.
void Lowerer::check_argument_counts() const {
  for (size_t i = 0; i < m_.instructions.size(); ++i) {
    const std::string name = op_name(i);
    const runtime::KernelEntry* entry = kernels::registry_ns().find(name.c_str());
    if (entry == nullptr || m_.instructions[i].args.empty()) continue;
    if (schema_args(i) != entry->argument_count()) {
      throw Failure("lower: " + label(i) + " passes " + std::to_string(schema_args(i)) +
                    " arguments, the operator takes " + std::to_string(entry->argument_count()));
    }
  }
}

LoweringResult Lowerer::run() {
  check_argument_counts();
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
  lower_lookup_tables(result);
  lower_reduce_means(result);

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
  const ReplanReport plan = finish_program(m_, FinishOptions{});
  check_model(m_);
  result.instructions_after = m_.instructions.size();
  result.arena_after_bytes = plan.arena_bytes;
  result.arena_lower_bound_bytes = plan.lower_bound_bytes;
  return result;
}

void Lowerer::index_readers() {
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

std::vector<size_t> Lowerer::live_readers(int32_t v) const {
  std::vector<size_t> out;
  auto it = readers_.find(v);
  if (it == readers_.end()) return out;
  for (size_t r : it->second) {
    if (!removed_[r] && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  return out;
}

// A quantize/dequantize with int8 range and dtype; returns (scale, zp).
std::optional<std::pair<double, int64_t>> Lowerer::qdq_params(size_t i, std::string* why) const {
  const OperatorContract& c = calls(i, kQuantize) ? kQuantize : kDequantize;
  if (!calls(i, c)) {
    *why = label(i) + " is not a quantize or dequantize";
    return std::nullopt;
  }
  const auto scale = double_arg(i, c.arg("scale"));
  const auto zp = int_arg(i, c.arg("zero_point"));
  const auto qmin = int_arg(i, c.arg("quant_min"));
  const auto qmax = int_arg(i, c.arg("quant_max"));
  const auto dtype = int_arg(i, c.arg("dtype"));
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
void Lowerer::lower_hardswish(LoweringResult& result) {
  for (size_t i = 0; i < m_.instructions.size(); ++i) {
    if (!calls(i, cortex_m::kMinimumContract) || removed_[i]) continue;
    std::string why = try_hardswish(i, result);
    if (!why.empty()) result.kept.push_back({label(i), why});
  }
}

std::string Lowerer::try_hardswish(size_t minimum, LoweringResult& result) {
  constexpr const OperatorContract& kMin = cortex_m::kMinimumContract;
  constexpr const OperatorContract& kMul = cortex_m::kMulContract;
  const int32_t x = arg(minimum, kMin.arg("self"));
  const int32_t c = arg(minimum, kMin.arg("other"));
  const int32_t t = arg(minimum, kMin.out());
  const ModelTensor* ct = tensor(c);
  if (!ct || ct->storage != TensorStorage::Constant || ct->numel() != 1 || ct->dtype != ScalarType::Char) {
    return "not the hardswish decomposition: the minimum's other operand is not a one-element int8 constant";
  }
  const int64_t c_value = static_cast<int8_t>(ct->data.at(0));
  const std::vector<size_t> t_readers = live_readers(t);
  if (t_readers.size() != 1 || is_program_output(t) || !calls(t_readers[0], kMul)) {
    return "not the hardswish decomposition: the minimum's output is not read by exactly one quantized_mul";
  }
  const size_t mul = t_readers[0];
  const int32_t self = arg(mul, kMul.arg("self"));
  const int32_t other = arg(mul, kMul.arg("other"));
  if (!((self == x && other == t) || (self == t && other == x))) {
    return "not the hardswish decomposition: " + label(mul) + " does not multiply x by min(x, c)";
  }
  const auto zp_self = int_arg(mul, kMul.arg("self_zero_point"));
  const auto zp_other = int_arg(mul, kMul.arg("other_zero_point"));
  const auto zp_out = int_arg(mul, kMul.arg("output_zero_point"));
  const auto mult = int_arg(mul, kMul.arg("output_multiplier"));
  const auto shift = int_arg(mul, kMul.arg("output_shift"));
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
  if (w != writer_.end() && calls(w->second, cortex_m::kConv2dContract)) {
    const Arg activation_min = cortex_m::kConv2dContract.arg("activation_min");
    if (auto act_min = int_arg(w->second, activation_min)) lowest_x = std::max(lowest_x, *act_min);
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
  const int32_t out = out_arg(mul);
  const KernelCall call = m_.call(cortex_m_ns::kHardswishContract,
                                    {{"self", x},
                                     {"input_zero_point", new_int(zp_x)},
                                     {"output_zero_point", new_int(*zp_out)},
                                     {"output_multiplier", new_int(*mult)},
                                     {"output_shift", new_int(*shift)},
                                     {"relu_q3", new_int(q3)},
                                     {"relu_q6", new_int(2 * q3)},
                                     {"prescale", new_int(0)},
                                     {"out", out}});
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
    if (!calls(r, kDequantize)) continue;
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

// ---- int8 clamp → quantized_relu (identity requantisation) ---------------
std::optional<int64_t> Lowerer::output_zero_point_of(int32_t v) const {
  // The producer's contract says which argument holds its output zero point,
  // or that it keeps its first argument's (data movement, selection): follow
  // those back to a producer that sets one (a bounded walk, as a hostile
  // program may chain writers in a cycle).
  for (int hops = 0; hops < 64; ++hops) {
    auto w = writer_.find(v);
    if (w == writer_.end()) return std::nullopt;
    const size_t i = w->second;
    const KernelCall& call = replacement_[i] ? *replacement_[i] : m_.instructions[i];
    const ModelOperator& op = m_.operators.at(call.op_index);
    const std::string name = op.overload.empty() ? op.name : op.name + "." + op.overload;
    const runtime::KernelEntry* entry = kernels::registry_ns().find(name.c_str());
    if (entry == nullptr || call.args.size() != size_t{entry->argument_count()} + 1) return std::nullopt;
    const OperatorContract& contract = *entry->contract;
    if (contract.keeps_zero_point) {
      v = call.args.front();
      continue;
    }
    if (contract.output_zero_point == nullptr) return std::nullopt;
    const ModelValue& zp = value(call.args.at(contract.arg(contract.output_zero_point).index));
    if (zp.kind != ValueKind::Int) return std::nullopt;
    return zp.int_value;
  }
  return std::nullopt;
}

void Lowerer::lower_int8_clamps(LoweringResult& result) {
  for (size_t i = 0; i < m_.instructions.size(); ++i) {
    constexpr const OperatorContract& kClamp = portable::kClampContract;
    if (removed_[i] || replacement_[i] || !calls(i, kClamp)) continue;
    const ModelTensor* in = tensor(arg(i, kClamp.arg("self")));
    const ModelTensor* out = tensor(out_arg(i));
    if (!in || in->dtype != ScalarType::Char) continue;  // float clamps: the islands
    std::string why;
    int64_t bounds[2] = {-128, 127};
    for (size_t k = 0; k < 2; ++k) {
      const ModelValue& b = value(arg(i, kClamp.arg(k == 0 ? "min" : "max")));
      if (b.kind == ValueKind::Int) {
        if (b.int_value < -128 || b.int_value > 127) why = "a bound is outside int8";
        bounds[k] = b.int_value;
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
    const std::optional<int64_t> zp = output_zero_point_of(arg(i, kClamp.arg("self")));
    const int64_t z = zp.value_or(0);
    const KernelCall call = m_.call(cortex_m_ns::kReluContract,
                                      {{"self", arg(i, kClamp.arg("self"))},
                                       {"input_zero_point", new_int(z)},
                                       {"output_zero_point", new_int(z)},
                                       {"output_multiplier", new_int(kIdentityRequant.multiplier)},
                                       {"output_shift", new_int(kIdentityRequant.shift)},
                                       {"activation_min", new_int(bounds[0])},
                                       {"activation_max", new_int(bounds[1])},
                                       {"out", out_arg(i)}});
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
void Lowerer::prune_operators() {
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
void Lowerer::remove_unread_dequantizes(LoweringResult& result) {
  (void)result;
  for (bool changed = true; changed;) {
    changed = false;
    std::set<int32_t> read;
    for (const KernelCall& call : m_.instructions) {
      for (size_t p = 0; p + 2 < call.args.size(); ++p) read.insert(call.args[p]);
    }
    for (size_t i = 0; i < m_.instructions.size(); ++i) {
      const KernelCall& call = m_.instructions[i];
      const ModelOperator& op = m_.operators.at(call.op_index);
      if (op.name + "." + op.overload != kDequantize.name || call.args.size() != kDequantize.count + 1u) {
        continue;
      }
      const int32_t out = call.args.at(kDequantize.out().index);
      if (read.count(out) || is_program_output(out)) continue;
      m_.instructions.erase(m_.instructions.begin() + static_cast<std::ptrdiff_t>(i));
      changed = true;
      break;
    }
  }
}

}  // namespace lowering

using lowering::format_double;
using lowering::instruction_id;
using runtime::ScalarType;

LoweringResult lower_to_ns(ProgramModel& model) {
  check_model(model);
  return lowering::Lowerer(model).run();
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
      const bool dequantize = op.name + "." + op.overload == lowering::kDequantize.name &&
                              call.args.size() == lowering::kDequantize.count + 1u;
      if (dequantize && call.args.at(lowering::kDequantize.out().index) == output) {
        lsb = original.values.at(static_cast<size_t>(call.args.at(lowering::kDequantize.arg("scale").index)))
                  .double_value;
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
