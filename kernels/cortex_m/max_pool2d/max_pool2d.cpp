#include "kernels/cortex_m/max_pool2d/max_pool2d.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m {

using kernels::read_int_in_range;
using kernels::read_zero_point;
using runtime::Error;
using runtime::IntList;

namespace {

constexpr const runtime::OperatorContract& kContract = kMaxPool2dContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kKernelSize = kContract.arg("kernel_size");
constexpr runtime::Arg kStride = kContract.arg("stride");
constexpr runtime::Arg kPadding = kContract.arg("padding");
constexpr runtime::Arg kDilation = kContract.arg("dilation");
constexpr runtime::Arg kCeilMode = kContract.arg("ceil_mode");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kActivationMin = kContract.arg("activation_min");
constexpr runtime::Arg kActivationMax = kContract.arg("activation_max");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void max_pool2d_s8(const MaxPool2dParams& p, const int8_t* input, int8_t* out) {
  kernels::fastest(kernels::kMaxPool2dVariants)(p, input, out);
}

Error max_pool2d_prepare(runtime::PrepareContext& ctx) {
  MaxPool2dParams p;
  ETNS_ASSIGN_OR_RETURN(p.shape, kernels::read_pool2d_shape(
                                     ctx, {kInput, kKernelSize, kStride, kPadding, kOut}));
  ETNS_ASSIGN_OR_RETURN(const IntList dilation, ctx.int_list(kDilation));
  ETNS_ASSIGN_OR_RETURN(const bool ceil_mode, ctx.bool_value(kCeilMode));
  ETNS_ASSIGN_OR_RETURN(const int32_t input_zero_point, read_zero_point(ctx, kInputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int32_t output_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.activation_min,
                        read_int_in_range(ctx, kActivationMin, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(p.activation_max,
                        read_int_in_range(ctx, kActivationMax, p.activation_min, INT8_MAX));
  int32_t dilation_h = 1;
  int32_t dilation_w = 1;
  ETNS_TRY(kernels::read_pair(ctx, dilation, kDilation.name(), 1, INT32_MAX, &dilation_h,
                              &dilation_w));
  // Upstream (op_quantized_max_pool2d.cpp) refuses these three.
  if (dilation_h != 1 || dilation_w != 1) {
    return ctx.fail(Error::NotSupported,
                    "dilation [%d, %d]: upstream's quantized_max_pool2d supports only [1, 1]",
                    static_cast<int>(dilation_h), static_cast<int>(dilation_w));
  }
  if (ceil_mode) {
    return ctx.fail(Error::NotSupported,
                    "ceil_mode = true: upstream's quantized_max_pool2d supports only false");
  }
  if (input_zero_point != output_zero_point) {
    return ctx.fail(Error::NotSupported,
                    "input_zero_point %d and output_zero_point %d differ: upstream's "
                    "quantized_max_pool2d does not requantize",
                    static_cast<int>(input_zero_point), static_cast<int>(output_zero_point));
  }
  ETNS_ASSIGN_OR_RETURN(MaxPool2dParams * params, ctx.make_state<MaxPool2dParams>());
  *params = p;
  return Error::Ok;
}

Error max_pool2d_run(const runtime::RunContext& ctx) {
  max_pool2d_s8(ctx.state<MaxPool2dParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
                ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

}  // namespace etns::cortex_m
