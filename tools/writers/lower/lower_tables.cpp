// Lowering of what `etns import` writes for TFLite's activations and MEAN:
//  * etns_ops::lookup_table (the RELU family, LEAKY_RELU) becomes a
//    cortex_m_ns:: call when the kernel's scalar reference, with arguments
//    fitted to the table, gives the table's 256 bytes exactly. The program
//    carries no scales, so the arguments are searched for rather than derived;
//    the proof is the same exhaustive one `etns import --provider ns` makes.
//  * etns_ops::quantized_reduce's mean branches become quantized_mean when
//    one factor gives TFLM's output on every reachable sum (ns_mean_proof.h,
//    the import's own proof: the call carries the zero points and scale).
#include <array>
#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/etns_ops/lookup_table/lookup_table.h"
#include "tools/writers/lower/lower_pass.h"
#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"
#include "tools/writers/program/factor_fit.h"
#include "tools/writers/program/ns_mean_proof.h"

namespace etns::tools::lowering {
namespace {

using Table = std::array<int8_t, 256>;
using factor_fit::fit_factor;
using factor_fit::Point;

int8_t at(const Table& t, int32_t q) { return t[static_cast<uint8_t>(q)]; }

Table every_code() {
  Table codes{};
  for (int32_t q = -128; q <= 127; ++q) codes[static_cast<uint8_t>(q)] = static_cast<int8_t>(q);
  return codes;
}

// The factor range the cortex_m_ns:: kernels' prepare functions accept.
bool is_factor(const kernels::Requant& r) { return r.multiplier >= 0 && r.shift >= -31 && r.shift <= 30; }

struct ReluArgs {
  int32_t zp_in = 0, zp_out = 0, lo = -128, hi = 127;
  kernels::Requant factor = cortex_m_ns::kIdentityRequant;
};

Table relu_bytes(const ReluArgs& a) {
  cortex_m_ns::ReluParams p;
  p.in_zero_point = a.zp_in;
  p.out_zero_point = a.zp_out;
  p.out = a.factor;
  p.act_min = a.lo;
  p.act_max = a.hi;
  // As relu_prepare decides it.
  p.identity = a.zp_in == a.zp_out && a.factor.multiplier == cortex_m_ns::kIdentityRequant.multiplier &&
               a.factor.shift == cortex_m_ns::kIdentityRequant.shift;
  const Table codes = every_code();
  Table out{};
  cortex_m_ns::relu_s8_ref(p, codes.data(), out.data(), codes.size());
  return out;
}

struct LeakyArgs {
  int32_t zp_in = 0, zp_out = 0;
  kernels::Requant alpha, identity;
};

Table leaky_bytes(const LeakyArgs& a) {
  cortex_m_ns::LeakyReluParams p;
  p.in_zero_point = a.zp_in;
  p.out_zero_point = a.zp_out;
  p.alpha = a.alpha;
  p.identity = a.identity;
  const Table codes = every_code();
  Table out{};
  cortex_m_ns::leaky_relu_s8_ref(p, codes.data(), out.data(), codes.size());
  return out;
}

std::vector<Point> points_of(const Table& t, int32_t zp_in, int32_t from, int32_t to) {
  std::vector<Point> points;
  for (int32_t q = from; q <= to; ++q) {
    if (q != zp_in) points.push_back({q - zp_in, at(t, q)});
  }
  return points;
}

bool monotone(const Table& t) {
  for (int32_t q = -127; q <= 127; ++q) {
    if (at(t, q) < at(t, q - 1)) return false;
  }
  return true;
}

// quantized_relu arguments giving `t`, if any: the plain clamp first (the
// identity path, as for an int8 clamp), then TFLM's ReluX (one factor, the
// clamp [t(-128), t(127)]) for every input zero point.
std::optional<ReluArgs> fit_relu(const Table& t) {
  if (!monotone(t)) return std::nullopt;
  ReluArgs a;
  a.lo = at(t, -128);
  a.hi = at(t, 127);
  if (relu_bytes(a) == t) return a;
  for (int32_t zp_in = -128; zp_in <= 127; ++zp_in) {
    a.zp_in = zp_in;
    a.zp_out = at(t, zp_in);
    const std::optional<kernels::Requant> factor = fit_factor(points_of(t, zp_in, -128, 127), a.zp_out, a.lo, a.hi);
    if (!factor || !is_factor(*factor)) continue;
    a.factor = *factor;
    if (relu_bytes(a) == t) return a;
  }
  return std::nullopt;
}

// quantized_leaky_relu arguments giving `t`, if any: TFLM's two factors, one
// each side of the input zero point, for every input zero point (a positive
// alpha: the kernel takes no negative multiplier).
std::optional<LeakyArgs> fit_leaky_relu(const Table& t) {
  for (int32_t zp_in = -128; zp_in <= 127; ++zp_in) {
    LeakyArgs a;
    a.zp_in = zp_in;
    a.zp_out = at(t, zp_in);
    const std::optional<kernels::Requant> identity = fit_factor(points_of(t, zp_in, zp_in, 127), a.zp_out, -128, 127);
    if (!identity || !is_factor(*identity)) continue;
    const std::optional<kernels::Requant> alpha = fit_factor(points_of(t, zp_in, -128, zp_in), a.zp_out, -128, 127);
    if (!alpha || !is_factor(*alpha)) continue;
    a.identity = *identity;
    a.alpha = *alpha;
    if (leaky_bytes(a) == t) return a;
  }
  return std::nullopt;
}

std::string factor_text(const kernels::Requant& r) {
  return "(" + std::to_string(r.multiplier) + ", " + std::to_string(r.shift) + ")";
}

}  // namespace

void Lowerer::lower_lookup_tables(LoweringResult& result) {
  constexpr const OperatorContract& kTable = etns_ops::kLookupTableContract;
  for (size_t i = 0; i < m_.instructions.size(); ++i) {
    if (removed_[i] || replacement_[i] || !calls(i, kTable)) continue;
    const ModelTensor* in = tensor(arg(i, kTable.arg("self")));
    const ModelTensor* table = tensor(arg(i, kTable.arg("table")));
    const ModelTensor* out = tensor(out_arg(i));
    if (!in || !out || !table || in->dtype != ScalarType::Char || out->dtype != ScalarType::Char ||
        table->storage != TensorStorage::Constant || table->dtype != ScalarType::Char || table->data.size() != 256) {
      result.kept.push_back({label(i), "not an int8 lookup through a constant 256-entry table"});
      continue;
    }
    Table t{};
    for (size_t k = 0; k < t.size(); ++k) t[k] = static_cast<int8_t>(table->data[k]);
    const int32_t self = arg(i, kTable.arg("self"));
    LoweringRewrite rewrite;
    rewrite.replaced = {label(i)};
    rewrite.derivation =
        "etns_ops::lookup_table: arguments fitted to the table; the kernel's reference gives its 256 bytes exactly";
    if (const std::optional<ReluArgs> a = fit_relu(t)) {
      replacement_[i] = m_.call(cortex_m_ns::kReluContract, {{"self", self},
                                                              {"input_zero_point", new_int(a->zp_in)},
                                                              {"output_zero_point", new_int(a->zp_out)},
                                                              {"output_multiplier", new_int(a->factor.multiplier)},
                                                              {"output_shift", new_int(a->factor.shift)},
                                                              {"activation_min", new_int(a->lo)},
                                                              {"activation_max", new_int(a->hi)},
                                                              {"out", out_arg(i)}});
      rewrite.op = cortex_m_ns::kReluContract.name;
      rewrite.parameters = "input_zero_point=" + std::to_string(a->zp_in) +
                           " output_zero_point=" + std::to_string(a->zp_out) + " output=" +
                           factor_text(a->factor) + " activation=[" + std::to_string(a->lo) + ", " +
                           std::to_string(a->hi) + "]";
    } else if (const std::optional<LeakyArgs> l = fit_leaky_relu(t)) {
      replacement_[i] = m_.call(cortex_m_ns::kLeakyReluContract,
                                {{"self", self},
                                 {"input_zero_point", new_int(l->zp_in)},
                                 {"output_zero_point", new_int(l->zp_out)},
                                 {"alpha_multiplier", new_int(l->alpha.multiplier)},
                                 {"alpha_shift", new_int(l->alpha.shift)},
                                 {"identity_multiplier", new_int(l->identity.multiplier)},
                                 {"identity_shift", new_int(l->identity.shift)},
                                 {"out", out_arg(i)}});
      rewrite.op = cortex_m_ns::kLeakyReluContract.name;
      rewrite.parameters = "input_zero_point=" + std::to_string(l->zp_in) +
                           " output_zero_point=" + std::to_string(l->zp_out) + " alpha=" + factor_text(l->alpha) +
                           " identity=" + factor_text(l->identity);
    } else {
      result.kept.push_back({label(i),
                             "no cortex_m_ns kernel (quantized_relu, quantized_leaky_relu) gives this table on all "
                             "256 codes; `etns import --provider ns` decides from the TFLite operator (HARD_SWISH "
                             "included)"});
      continue;
    }
    result.rewrites.push_back(rewrite);
  }
}

void Lowerer::lower_reduce_means(LoweringResult& result) {
  constexpr const OperatorContract& kReduce = etns_ops::kQuantizedReduceContract;
  for (size_t i = 0; i < m_.instructions.size(); ++i) {
    if (removed_[i] || replacement_[i] || !calls(i, kReduce)) continue;
    const std::optional<int64_t> reduction = int_arg(i, kReduce.arg("reduction"));
    const bool mean = reduction && (*reduction == static_cast<int64_t>(etns_ops::Reduction::MeanTruncated) ||
                                    *reduction == static_cast<int64_t>(etns_ops::Reduction::MeanRescaled));
    if (!mean) continue;  // SUM and REDUCE_MAX: no cortex_m_ns kernel
    const ModelTensor* in = tensor(arg(i, kReduce.arg("self")));
    const ModelTensor* out = tensor(out_arg(i));
    const ModelValue& dims = value(arg(i, kReduce.arg("dims")));
    const std::optional<int64_t> zp_in = int_arg(i, kReduce.arg("input_zero_point"));
    const std::optional<int64_t> zp_out = int_arg(i, kReduce.arg("output_zero_point"));
    const std::optional<double> scale = double_arg(i, kReduce.arg("scale"));
    std::string why;
    const auto row_major = [](const ModelTensor& t) {
      for (size_t d = 0; d < t.dim_order.size(); ++d) {
        if (t.dim_order[d] != d) return false;
      }
      return true;
    };
    if (!in || !out || !zp_in || !zp_out || !scale || dims.kind != ValueKind::IntList ||
        value(arg(i, kReduce.arg("keepdim"))).kind != ValueKind::Bool) {
      why = "arguments are not constants of the contract's kinds";
    } else if (in->sizes.size() > 4) {
      why = "cortex_m_ns::quantized_mean takes at most 4 dims";
    } else if (!row_major(*in) || !row_major(*out)) {
      why = "cortex_m_ns::quantized_mean reads row-major and the input or output is not (e.g. channels_last)";
    }
    std::vector<int64_t> mask(4, 0);
    uint64_t count = 1;
    for (size_t k = 0; why.empty() && k < dims.items.size(); ++k) {
      const ModelValue& d = value(static_cast<int32_t>(dims.items[k]));
      const int64_t rank = static_cast<int64_t>(in->sizes.size());
      if (d.kind != ValueKind::Int || d.int_value < 0 || d.int_value >= rank ||
          mask[static_cast<size_t>(d.int_value + 4 - rank)] != 0) {
        why = "dims are not distinct constants inside the rank";
        break;
      }
      mask[static_cast<size_t>(d.int_value + 4 - rank)] = 1;
      count *= static_cast<uint64_t>(in->sizes[static_cast<size_t>(d.int_value)]);
    }
    std::optional<kernels::Requant> factor;
    if (why.empty()) {
      factor = ns_mean_factor(static_cast<etns_ops::Reduction>(*reduction), static_cast<float>(*scale),
                              static_cast<int32_t>(*zp_in), static_cast<int32_t>(*zp_out), count, why);
    }
    if (!factor) {
      result.kept.push_back({label(i), why});
      continue;
    }
    std::vector<int64_t> mask_items;
    for (const int64_t bit : mask) mask_items.push_back(new_int(bit));
    replacement_[i] = m_.call(cortex_m_ns::kMeanContract,
                              {{"self", arg(i, kReduce.arg("self"))},
                               {"input_zero_point", new_int(*zp_in)},
                               {"axis_mask", m_.add_value(ModelValue::int_list(mask_items))},
                               {"keepdim", arg(i, kReduce.arg("keepdim"))},
                               {"output_zero_point", new_int(*zp_out)},
                               {"output_multiplier", new_int(factor->multiplier)},
                               {"output_shift", new_int(factor->shift)},
                               {"out", out_arg(i)}});
    LoweringRewrite rewrite;
    rewrite.op = cortex_m_ns::kMeanContract.name;
    rewrite.replaced = {label(i)};
    rewrite.parameters = "input_zero_point=" + std::to_string(*zp_in) + " axis_mask=[" + std::to_string(mask[0]) +
                         ", " + std::to_string(mask[1]) + ", " + std::to_string(mask[2]) + ", " +
                         std::to_string(mask[3]) + "] output_zero_point=" + std::to_string(*zp_out) + " output=" +
                         factor_text(*factor);
    rewrite.derivation = "etns_ops::quantized_reduce (TFLM's MEAN): a factor fitted to TFLM's output on every one of "
                         "the " + std::to_string(255 * count + 1) + " reachable sums, checked on all";
    result.rewrites.push_back(rewrite);
  }
}

}  // namespace etns::tools::lowering
