#include "kernels/cortex_m/add/add.h"

#include "kernels/common/binary_args.h"
#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"

namespace etns::cortex_m {

using kernels::read_int_in_range;
using runtime::Error;
using runtime::Tensor;

namespace {

// The arguments quantized_add shares with quantized_sub (and, in part, mul).
constexpr kernels::RequantizedBinaryArgIds kArgs =
    kernels::requantized_binary_arg_ids(kAddContract);

}  // namespace

void add_s8(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kAddVariants)(p, a, b, out, n);
}

Error add_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const kernels::BinaryQuantization q,
                        kernels::read_binary_quantization(ctx, kArgs));
  AddParams p;
  ETNS_ASSIGN_OR_RETURN(p.activation_min,
                        read_int_in_range(ctx, kArgs.activation_min, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(p.activation_max,
                        read_int_in_range(ctx, kArgs.activation_max, p.activation_min, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kArgs.common.self));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(kArgs.common.other));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kArgs.common.out));
  ETNS_ASSIGN_OR_RETURN(const kernels::ChannelBroadcast plan,
                        kernels::plan_channel_broadcast(ctx, *self, *other, *out));
  // The sum is symmetric: the full-size operand goes first with its quantization.
  kernels::set_operand_order(plan, q, p);
  p.a = plan.a_is_other ? q.other : q.self;
  p.b = plan.a_is_other ? q.self : q.other;
  ETNS_ASSIGN_OR_RETURN(AddParams * params, ctx.make_state<AddParams>());
  *params = p;
  return Error::Ok;
}

Error add_run(const runtime::RunContext& ctx) {
  kernels::run_ordered_binary<AddParams>(ctx, kArgs.common, &add_s8);
  return Error::Ok;
}

}  // namespace etns::cortex_m
