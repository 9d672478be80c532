#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"

#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kLeakyReluContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kAlphaMultiplier = kContract.arg("alpha_multiplier");
constexpr runtime::Arg kAlphaShift = kContract.arg("alpha_shift");
constexpr runtime::Arg kIdentityMultiplier = kContract.arg("identity_multiplier");
constexpr runtime::Arg kIdentityShift = kContract.arg("identity_shift");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error leaky_relu_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_unary_layout(ctx, *self, *out));

  LeakyReluParams p;
  ETNS_ASSIGN_OR_RETURN(p.in_zero_point, read_zero_point(ctx, kInputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.alpha, read_requant(ctx, kAlphaMultiplier, kAlphaShift));
  ETNS_ASSIGN_OR_RETURN(p.identity, read_requant(ctx, kIdentityMultiplier, kIdentityShift));

  leaky_relu_fill_table(p);
  ETNS_ASSIGN_OR_RETURN(LeakyReluParams * stored, ctx.make_state<LeakyReluParams>());
  *stored = p;
  return Error::Ok;
}

Error leaky_relu_run(const runtime::RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  leaky_relu_s8(ctx.state<LeakyReluParams>(), ctx.tensor(kSelf).data_as<const int8_t>(),
                out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

void leaky_relu_s8(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::fastest(kernels::kLeakyReluVariants)(p, in, out, n);
}

void leaky_relu_fill_table(LeakyReluParams& p) {
  kernels::fill_byte_table(p.table, p, &leaky_relu_s8_ref);
}

void leaky_relu_s8_lut(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8(p.table, in, out, n);
}

#if ETNS_HAVE_HWY
void leaky_relu_s8_hwy(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8_hwy(p.table, in, out, n);
}
#endif

#if ETNS_HAVE_MVE
void leaky_relu_s8_mve(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8_mve(p.table, in, out, n);
}
#endif

}  // namespace etns::cortex_m_ns
