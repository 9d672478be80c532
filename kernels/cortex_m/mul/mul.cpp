#include "kernels/cortex_m/mul/mul.h"

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

void mul_s8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kMulVariants)(p, a, b, out, n);
}

Error mul_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(0, "self"));
  ETNS_ASSIGN_OR_RETURN(const int32_t self_zero_point, read_zero_point(ctx, 1, "self_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(2, "other"));
  ETNS_ASSIGN_OR_RETURN(const int32_t other_zero_point,
                        read_zero_point(ctx, 3, "other_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const int32_t out_zero_point, read_zero_point(ctx, 4, "output_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant requant,
                        read_requant(ctx, 5, "output_multiplier", 6, "output_shift"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(7, "out"));
  ETNS_ASSIGN_OR_RETURN(const kernels::ChannelBroadcast plan,
                        kernels::plan_channel_broadcast(ctx, *self, *other, *out));

  MulParams p;
  p.a_zero_point = plan.a_is_other ? other_zero_point : self_zero_point;
  p.b_zero_point = plan.a_is_other ? self_zero_point : other_zero_point;
  p.out_zero_point = out_zero_point;
  p.out = requant;
  p.b_channels = plan.b_channels;
  p.a_is_other = plan.a_is_other;

  ETNS_ASSIGN_OR_RETURN(MulParams * params, ctx.make_state<MulParams>());
  *params = p;
  return Error::Ok;
}

Error mul_run(const RunContext& ctx) {
  const MulParams& p = ctx.state<MulParams>();
  const Tensor& self = ctx.tensor(0);
  const Tensor& other = ctx.tensor(2);
  const Tensor& out = ctx.tensor(7);
  const Tensor& a = p.a_is_other ? other : self;
  const Tensor& b = p.a_is_other ? self : other;
  mul_s8(p, a.data_as<const int8_t>(), b.data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::cortex_m
