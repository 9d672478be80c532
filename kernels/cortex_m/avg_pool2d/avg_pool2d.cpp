#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"


namespace etns::cortex_m {

using runtime::Error;

namespace {

constexpr const runtime::OperatorContract& kContract = kAvgPool2dContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kKernelSize = kContract.arg("kernel_size");
constexpr runtime::Arg kStride = kContract.arg("stride");
constexpr runtime::Arg kPadding = kContract.arg("padding");
constexpr runtime::Arg kOut = kContract.out();

constexpr int64_t kMaxTaps = int64_t{1} << 23;

}  // namespace

void avg_pool2d_s8(const AvgPool2dParams& p, const int8_t* input, int8_t* out) {
  kernels::fastest(kernels::kAvgPool2dVariants)(p, input, out);
}

Error avg_pool2d_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const AvgPool2dParams p,
                        kernels::read_pool2d_shape(
                            ctx, {kInput, kKernelSize, kStride, kPadding, kOut}));
  // The int32 sum of a window, |sum| + n/2, stays below 2^31 up to 2^23 taps.
  const int64_t taps = static_cast<int64_t>(p.kernel_h < p.input_h ? p.kernel_h : p.input_h) *
                       (p.kernel_w < p.input_w ? p.kernel_w : p.input_w);
  if (taps > kMaxTaps) {
    return ctx.fail(Error::NotSupported,
                    "kernel_size [%d, %d] pools up to %lld taps, expected at most 2^23 (the "
                    "int32 sum of arm_avgpool_s8 would overflow)",
                    static_cast<int>(p.kernel_h), static_cast<int>(p.kernel_w),
                    static_cast<long long>(taps));
  }
  // zero_point, multiplier and shift are passed by the exporter but not read by
  // arm_avgpool_s8: the contract has checked they are Ints, and that is all.
  ETNS_ASSIGN_OR_RETURN(AvgPool2dParams * params, ctx.make_state<AvgPool2dParams>());
  *params = p;
  return Error::Ok;
}

Error avg_pool2d_run(const runtime::RunContext& ctx) {
  avg_pool2d_s8(ctx.state<AvgPool2dParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
                ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

}  // namespace etns::cortex_m
