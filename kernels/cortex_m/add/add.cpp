#include "kernels/cortex_m/add/add.h"

#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"

namespace etns::cortex_m {

using kernels::read_int_in_range;
using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kAddContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kSelfZeroPoint = kContract.arg("self_zero_point");
constexpr runtime::Arg kSelfMultiplier = kContract.arg("self_multiplier");
constexpr runtime::Arg kSelfShift = kContract.arg("self_shift");
constexpr runtime::Arg kOther = kContract.arg("other");
constexpr runtime::Arg kOtherZeroPoint = kContract.arg("other_zero_point");
constexpr runtime::Arg kOtherMultiplier = kContract.arg("other_multiplier");
constexpr runtime::Arg kOtherShift = kContract.arg("other_shift");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kOutputMultiplier = kContract.arg("output_multiplier");
constexpr runtime::Arg kOutputShift = kContract.arg("output_shift");
constexpr runtime::Arg kActivationMin = kContract.arg("activation_min");
constexpr runtime::Arg kActivationMax = kContract.arg("activation_max");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void add_s8(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kAddVariants)(p, a, b, out, n);
}

Error add_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const int32_t self_zero_point, read_zero_point(ctx, kSelfZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant self_rq,
                        read_requant(ctx, kSelfMultiplier, kSelfShift));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(kOther));
  ETNS_ASSIGN_OR_RETURN(const int32_t other_zero_point, read_zero_point(ctx, kOtherZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant other_rq,
                        read_requant(ctx, kOtherMultiplier, kOtherShift));
  AddParams p;
  ETNS_ASSIGN_OR_RETURN(p.out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out, read_requant(ctx, kOutputMultiplier, kOutputShift));
  ETNS_ASSIGN_OR_RETURN(p.activation_min,
                        read_int_in_range(ctx, kActivationMin, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(p.activation_max,
                        read_int_in_range(ctx, kActivationMax, p.activation_min, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
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
  const Tensor& self = ctx.tensor(kSelf);
  const Tensor& other = ctx.tensor(kOther);
  const Tensor& out = ctx.tensor(kOut);
  const Tensor& a = p.a_is_other ? other : self;
  const Tensor& b = p.a_is_other ? self : other;
  add_s8(p, a.data_as<const int8_t>(), b.data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::cortex_m
