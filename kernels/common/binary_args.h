#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// What the quantized binary operators (cortex_m::quantized_add and
// quantized_mul, cortex_m_ns::quantized_sub) share at load: their argument
// names, reading their zero points and requantisations, and ordering the
// operands of a channel broadcast. Each read logs one line and returns its
// Error, as kernels/common/checks.h does.
namespace etns::kernels {

// quantized_add's and quantized_sub's schema: each input with its zero point
// and (multiplier, shift), then out's, then the activation bounds. self, other
// and out are int8; each operator's prepare checks how their shapes fit.
inline constexpr runtime::ArgSpec kRequantizedBinaryArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_arg("self_zero_point"),
    runtime::int_arg("self_multiplier"),
    runtime::int_arg("self_shift"),
    runtime::tensor_arg("other", runtime::kInt8),
    runtime::int_arg("other_zero_point"),
    runtime::int_arg("other_multiplier"),
    runtime::int_arg("other_shift"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("output_multiplier"),
    runtime::int_arg("output_shift"),
    runtime::int_arg("activation_min"),
    runtime::int_arg("activation_max"),
    runtime::tensor_arg("out", runtime::kInt8),
};

// The arguments every quantized binary contract names alike (mul has no
// others), resolved at compile time: `constexpr BinaryArgIds kArgs = binary_arg_ids(kContract);`.
struct BinaryArgIds {
  runtime::Arg self, self_zero_point, other, other_zero_point, output_zero_point,
      output_multiplier, output_shift, out;
};
constexpr BinaryArgIds binary_arg_ids(const runtime::OperatorContract& c) {
  return BinaryArgIds{c.arg("self"),
                      c.arg("self_zero_point"),
                      c.arg("other"),
                      c.arg("other_zero_point"),
                      c.arg("output_zero_point"),
                      c.arg("output_multiplier"),
                      c.arg("output_shift"),
                      c.out()};
}

// add's and sub's further arguments: each input's (multiplier, shift) and the
// activation bounds.
struct RequantizedBinaryArgIds {
  BinaryArgIds common;
  runtime::Arg self_multiplier, self_shift, other_multiplier, other_shift, activation_min,
      activation_max;
};
constexpr RequantizedBinaryArgIds requantized_binary_arg_ids(const runtime::OperatorContract& c) {
  return RequantizedBinaryArgIds{binary_arg_ids(c),          c.arg("self_multiplier"),
                                 c.arg("self_shift"),        c.arg("other_multiplier"),
                                 c.arg("other_shift"),       c.arg("activation_min"),
                                 c.arg("activation_max")};
}

// The quantisation of self, other and out, read in contract order. Zero
// points lie in [-128, 127]; (multiplier, shift) pairs as read_requant. self
// and other keep Requant's default (unused) where the operator has none.
struct BinaryQuantization {
  int32_t self_zero_point = 0, other_zero_point = 0, out_zero_point = 0;
  Requant self, other, out;
};

// mul's: three zero points and out's requantisation.
inline runtime::Result<BinaryQuantization> read_binary_quantization(
    const runtime::PrepareContext& ctx, const BinaryArgIds& ids) {
  BinaryQuantization q;
  ETNS_ASSIGN_OR_RETURN(q.self_zero_point, read_zero_point(ctx, ids.self_zero_point));
  ETNS_ASSIGN_OR_RETURN(q.other_zero_point, read_zero_point(ctx, ids.other_zero_point));
  ETNS_ASSIGN_OR_RETURN(q.out_zero_point, read_zero_point(ctx, ids.output_zero_point));
  ETNS_ASSIGN_OR_RETURN(q.out, read_requant(ctx, ids.output_multiplier, ids.output_shift));
  return q;
}

// add's and sub's: each input's requantisation too.
inline runtime::Result<BinaryQuantization> read_binary_quantization(
    const runtime::PrepareContext& ctx, const RequantizedBinaryArgIds& ids) {
  BinaryQuantization q;
  ETNS_ASSIGN_OR_RETURN(q.self_zero_point, read_zero_point(ctx, ids.common.self_zero_point));
  ETNS_ASSIGN_OR_RETURN(q.self, read_requant(ctx, ids.self_multiplier, ids.self_shift));
  ETNS_ASSIGN_OR_RETURN(q.other_zero_point, read_zero_point(ctx, ids.common.other_zero_point));
  ETNS_ASSIGN_OR_RETURN(q.other, read_requant(ctx, ids.other_multiplier, ids.other_shift));
  ETNS_ASSIGN_OR_RETURN(q.out_zero_point, read_zero_point(ctx, ids.common.output_zero_point));
  ETNS_ASSIGN_OR_RETURN(q.out,
                        read_requant(ctx, ids.common.output_multiplier, ids.common.output_shift));
  return q;
}

// The operand order of a ChannelBroadcast plan into add's or mul's params: the
// full-size operand becomes `a`, with its zero point (the operation is
// symmetric), and run passes the tensors in that order.
template <typename Params>
void set_operand_order(const ChannelBroadcast& plan, const BinaryQuantization& q, Params& p) {
  p.a_is_other = plan.a_is_other;
  p.b_channels = plan.b_channels;
  p.a_zero_point = plan.a_is_other ? q.other_zero_point : q.self_zero_point;
  p.b_zero_point = plan.a_is_other ? q.self_zero_point : q.other_zero_point;
  p.out_zero_point = q.out_zero_point;
  p.out = q.out;
}

// add's and mul's run: the full-size operand first, over out's elements.
template <typename Params>
void run_ordered_binary(const runtime::RunContext& ctx, const BinaryArgIds& ids,
                        void (*kernel)(const Params&, const int8_t*, const int8_t*, int8_t*,
                                       size_t)) {
  const Params& p = ctx.state<Params>();
  const runtime::Tensor& self = ctx.tensor(ids.self);
  const runtime::Tensor& other = ctx.tensor(ids.other);
  const runtime::Tensor& out = ctx.tensor(ids.out);
  const runtime::Tensor& a = p.a_is_other ? other : self;
  const runtime::Tensor& b = p.a_is_other ? self : other;
  kernel(p, a.data_as<const int8_t>(), b.data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
}

}  // namespace etns::kernels
