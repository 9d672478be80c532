#include <cstdint>
#include <string>
#include <vector>

#include "kernels/common/requantize.h"
#include "kernels/cortex_m/add/add.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/etns_ops/lookup_table/lookup_table.h"
#include "tools/writers/import/builtins/broadcast.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// SUB as TFLM's int8 SubElementwise: ADD's form (left shift 20) with the
// ratios in float32 (tflm::sub_params), the second scaled input subtracted. The program negates the second
// input's codes (etns_ops::lookup_table, code v -> -1 - v, zero point
// -1 - zp, so v - zp changes sign) and adds with cortex_m::quantized_add.
// That is TFLM's result unless RQ(-x) != -RQ(x) (ties of the doubling high
// multiply round toward +infinity) changes an output code: checked at import
// on all 65,536 code pairs, the operator refused where it does. With
// --provider ns it is cortex_m_ns::quantized_sub, TFLM's formula itself.
namespace etns::tools::builtins {
namespace {

kernels::Requant kernel_requant(const Requant& r) { return {r.multiplier, r.shift}; }

// How many (a, b) code pairs the sum with the negated b gets other than
// TFLM's difference (both with the kernels' requantisation, TFLM's).
int64_t pairs_differing(const tflm::AddParams& p, int32_t zp_a, int32_t zp_b, int32_t zp_out,
                        const tflm::ActivationRange& act) {
  const kernels::Requant m1 = kernel_requant(p.input1), m2 = kernel_requant(p.input2), mo = kernel_requant(p.output);
  const auto out_code = [&](int32_t sum) {
    return kernels::clamp_s32(kernels::requantize(sum, mo) + zp_out, act.min, act.max);
  };
  int64_t differing = 0;
  for (int32_t b = -128; b <= 127; ++b) {
    const int32_t xb = (b - zp_b) * (1 << cortex_m::kAddLeftShift);
    const int32_t subtracted = kernels::requantize(xb, m2), added = kernels::requantize(-xb, m2);
    if (added == -subtracted) continue;
    for (int32_t a = -128; a <= 127; ++a) {
      const int32_t sa = kernels::requantize((a - zp_a) * (1 << cortex_m::kAddLeftShift), m1);
      if (out_code(sa - subtracted) != out_code(sa + added)) ++differing;
    }
  }
  return differing;
}

}  // namespace

void import_sub(OperatorImport& c) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  const Grid qa = c.int8_grid(a), qb = c.int8_grid(b), out = c.int8_grid(y);
  const tflm::AddParams p = tflm::sub_params(qa.scale, qb.scale, out.scale, c.where());
  const tflm::ActivationRange act = c.activation(out);
  const bool ns = c.provider() == protocol::Provider::Ns;
  if (!ns) {
    const int64_t differing = pairs_differing(p, qa.zero_point, qb.zero_point, out.zero_point, act);
    if (differing != 0) {
      c.fail("quantized_add of the negated input rounds " + std::to_string(differing) +
             " of 65536 code pairs otherwise than TFLM's SUB for these scales (--provider ns imports it as "
             "cortex_m_ns::quantized_sub)");
    }
  }
  const PairedOperands in = paired_operands(c, a, b, y);
  const int32_t gy = c.define(y, in.form);
  const auto call = [&](const runtime::OperatorContract& contract, int32_t other, int32_t other_zero_point) {
    c.call(contract, {{"self", GraphArg::of_tensor(in.a)},
                      {"self_zero_point", GraphArg::integer(qa.zero_point)},
                      {"self_multiplier", GraphArg::integer(p.input1.multiplier)},
                      {"self_shift", GraphArg::integer(p.input1.shift)},
                      {"other", GraphArg::of_tensor(other)},
                      {"other_zero_point", GraphArg::integer(other_zero_point)},
                      {"other_multiplier", GraphArg::integer(p.input2.multiplier)},
                      {"other_shift", GraphArg::integer(p.input2.shift)},
                      {"output_zero_point", GraphArg::integer(out.zero_point)},
                      {"output_multiplier", GraphArg::integer(p.output.multiplier)},
                      {"output_shift", GraphArg::integer(p.output.shift)},
                      {"activation_min", GraphArg::integer(act.min)},
                      {"activation_max", GraphArg::integer(act.max)},
                      {"out", GraphArg::of_tensor(gy)}});
  };
  if (ns) {
    // cortex_m_ns::quantized_sub is TFLM's SubElementwise (its difference
    // saturates, which int8 operands never reach).
    call(cortex_m_ns::kSubContract, in.b, qb.zero_point);
    c.note_provider(protocol::Provider::Ns, "");
    return;
  }
  const int32_t negated = c.graph().s8(c.name("negated"), in.b_sizes, in.b_order);
  std::vector<uint8_t> table(256);
  for (int32_t v = -128; v <= 127; ++v) table[static_cast<uint8_t>(v)] = static_cast<uint8_t>(-1 - v);
  const int32_t gt = c.graph().tensor(c.name("negate"), runtime::ScalarType::Char, {256}, contiguous_order(1),
                                      GraphTensor::Role::Constant, table);
  c.call(etns_ops::kLookupTableContract,
         {{"self", GraphArg::of_tensor(in.b)}, {"table", GraphArg::of_tensor(gt)}, {"out", GraphArg::of_tensor(negated)}},
         Step::Helper);
  call(cortex_m::kAddContract, negated, -1 - qb.zero_point);
}

}  // namespace etns::tools::builtins
