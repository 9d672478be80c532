#include "kernels/cortex_m/mul/mul.h"

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"

namespace etns::cortex_m {

using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kMulContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kSelfZeroPoint = kContract.arg("self_zero_point");
constexpr runtime::Arg kOther = kContract.arg("other");
constexpr runtime::Arg kOtherZeroPoint = kContract.arg("other_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kOutputMultiplier = kContract.arg("output_multiplier");
constexpr runtime::Arg kOutputShift = kContract.arg("output_shift");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void mul_s8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kMulVariants)(p, a, b, out, n);
}

Error mul_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const int32_t self_zero_point, read_zero_point(ctx, kSelfZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(kOther));
  ETNS_ASSIGN_OR_RETURN(const int32_t other_zero_point, read_zero_point(ctx, kOtherZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int32_t out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant requant,
                        read_requant(ctx, kOutputMultiplier, kOutputShift));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
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
  const Tensor& self = ctx.tensor(kSelf);
  const Tensor& other = ctx.tensor(kOther);
  const Tensor& out = ctx.tensor(kOut);
  const Tensor& a = p.a_is_other ? other : self;
  const Tensor& b = p.a_is_other ? self : other;
  mul_s8(p, a.data_as<const int8_t>(), b.data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::cortex_m
