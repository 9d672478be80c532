#include "kernels/cortex_m_ns/hardswish/hardswish.h"

#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::read_int_in_range;
using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kHardswishContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kOutputMultiplier = kContract.arg("output_multiplier");
constexpr runtime::Arg kOutputShift = kContract.arg("output_shift");
constexpr runtime::Arg kReluQ3 = kContract.arg("relu_q3");
constexpr runtime::Arg kReluQ6 = kContract.arg("relu_q6");
constexpr runtime::Arg kPrescale = kContract.arg("prescale");
constexpr runtime::Arg kOut = kContract.out();

// The exporter falls back to the portable op outside this range (operators.md §3.1);
// it also keeps |x| * relu_q6 <= 255 * 2^22 < 2^30.
constexpr int64_t kMaxReluQ6 = int64_t{1} << 22;

}  // namespace

Error hardswish_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_unary_layout(ctx, *self, *out));

  HardswishParams p;
  ETNS_ASSIGN_OR_RETURN(p.in_zero_point, read_zero_point(ctx, kInputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out, read_requant(ctx, kOutputMultiplier, kOutputShift));
  // relu_q6 first: it bounds relu_q3 (round(3/s) <= round(6/s) for every scale).
  ETNS_ASSIGN_OR_RETURN(p.relu_q6, read_int_in_range(ctx, kReluQ6, 1, kMaxReluQ6));
  ETNS_ASSIGN_OR_RETURN(p.relu_q3, read_int_in_range(ctx, kReluQ3, 0, p.relu_q6));
  // Any prescale in [0, 31] keeps (t + 2^(prescale-1)) >> prescale in range.
  ETNS_ASSIGN_OR_RETURN(p.prescale, read_int_in_range(ctx, kPrescale, 0, 31));

  hardswish_fill_table(p);
  ETNS_ASSIGN_OR_RETURN(HardswishParams * stored, ctx.make_state<HardswishParams>());
  *stored = p;
  return Error::Ok;
}

Error hardswish_run(const runtime::RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  hardswish_s8(ctx.state<HardswishParams>(), ctx.tensor(kSelf).data_as<const int8_t>(),
               out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

void hardswish_s8(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::fastest(kernels::kHardswishVariants)(p, in, out, n);
}

void hardswish_fill_table(HardswishParams& p) {
  kernels::fill_byte_table(p.table, p, &hardswish_s8_ref);
}

void hardswish_s8_lut(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8(p.table, in, out, n);
}

#if ETNS_HAVE_HWY
void hardswish_s8_hwy(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8_hwy(p.table, in, out, n);
}
#endif

#if ETNS_HAVE_MVE
void hardswish_s8_mve(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8_mve(p.table, in, out, n);
}
#endif

}  // namespace etns::cortex_m_ns
