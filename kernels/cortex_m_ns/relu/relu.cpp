#include "kernels/cortex_m_ns/relu/relu.h"

#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::read_int_in_range;
using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kReluContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kOutputMultiplier = kContract.arg("output_multiplier");
constexpr runtime::Arg kOutputShift = kContract.arg("output_shift");
constexpr runtime::Arg kActivationMin = kContract.arg("activation_min");
constexpr runtime::Arg kActivationMax = kContract.arg("activation_max");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error relu_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_unary_layout(ctx, *self, *out));

  ReluParams p;
  ETNS_ASSIGN_OR_RETURN(p.in_zero_point, read_zero_point(ctx, kInputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out, read_requant(ctx, kOutputMultiplier, kOutputShift));
  // Upstream narrows out-of-range bounds by a wrapping cast; the exporter only
  // emits quantised values, so anything outside int8 is a broken program.
  ETNS_ASSIGN_OR_RETURN(p.act_min, read_int_in_range(ctx, kActivationMin, -128, 127));
  ETNS_ASSIGN_OR_RETURN(p.act_max, read_int_in_range(ctx, kActivationMax, -128, 127));
  // Upstream's C and MVE clamps disagree for an empty range; no exporter emits one.
  if (p.act_min > p.act_max) {
    return ctx.fail(Error::InvalidArgument,
                    "activation_min = %d > activation_max = %d, expected min <= max",
                    static_cast<int>(p.act_min), static_cast<int>(p.act_max));
  }
  p.identity = p.in_zero_point == p.out_zero_point &&
               p.out.multiplier == kIdentityRequant.multiplier &&
               p.out.shift == kIdentityRequant.shift;
  relu_fill_table(p);

  ETNS_ASSIGN_OR_RETURN(ReluParams * stored, ctx.make_state<ReluParams>());
  *stored = p;
  return Error::Ok;
}

Error relu_run(const runtime::RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  relu_s8(ctx.state<ReluParams>(), ctx.tensor(kSelf).data_as<const int8_t>(), out.data_as<int8_t>(),
          out.numel);
  return Error::Ok;
}

void relu_s8(const ReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::fastest(kernels::kReluVariants)(p, in, out, n);
}

void relu_fill_table(ReluParams& p) {
  kernels::fill_byte_table(p.table, p, &relu_s8_ref);
}

void relu_s8_lut(const ReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8(p.table, in, out, n);
}


}  // namespace etns::cortex_m_ns
