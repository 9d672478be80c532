#include "kernels/cortex_m/add/add.h"

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::read_int_in_range;
using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

void add_s8(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kAddVariants)(p, a, b, out, n);
}

Error add_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(0, "self"));
  ETNS_ASSIGN_OR_RETURN(const int32_t self_zero_point, read_zero_point(ctx, 1, "self_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant self_rq,
                        read_requant(ctx, 2, "self_multiplier", 3, "self_shift"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(4, "other"));
  ETNS_ASSIGN_OR_RETURN(const int32_t other_zero_point,
                        read_zero_point(ctx, 5, "other_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant other_rq,
                        read_requant(ctx, 6, "other_multiplier", 7, "other_shift"));
  AddParams p;
  ETNS_ASSIGN_OR_RETURN(p.out_zero_point, read_zero_point(ctx, 8, "output_zero_point"));
  ETNS_ASSIGN_OR_RETURN(p.out, read_requant(ctx, 9, "output_multiplier", 10, "output_shift"));
  ETNS_ASSIGN_OR_RETURN(p.activation_min,
                        read_int_in_range(ctx, 11, "activation_min", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(p.activation_max,
                        read_int_in_range(ctx, 12, "activation_max", p.activation_min, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(13, "out"));
  ETNS_ASSIGN_OR_RETURN(const kernels::ChannelBroadcast plan,
                        kernels::plan_channel_broadcast(ctx, *self, *other, *out));
  // The sum is symmetric: the full-size operand goes first with its quantization.
  p.a_is_other = plan.a_is_other;
  p.b_channels = plan.b_channels;
  p.a_zero_point = plan.a_is_other ? other_zero_point : self_zero_point;
  p.b_zero_point = plan.a_is_other ? self_zero_point : other_zero_point;
  p.a = plan.a_is_other ? other_rq : self_rq;
  p.b = plan.a_is_other ? self_rq : other_rq;
  ETNS_ASSIGN_OR_RETURN(AddParams * params, ctx.make_state<AddParams>());
  *params = p;
  return Error::Ok;
}

Error add_run(const runtime::RunContext& ctx) {
  const AddParams& p = ctx.state<AddParams>();
  const Tensor& self = ctx.tensor(0);
  const Tensor& other = ctx.tensor(4);
  const Tensor& out = ctx.tensor(13);
  const Tensor& a = p.a_is_other ? other : self;
  const Tensor& b = p.a_is_other ? self : other;
  add_s8(p, a.data_as<const int8_t>(), b.data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::cortex_m
