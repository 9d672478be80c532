#include "kernels/cortex_m/max_pool2d/max_pool2d.h"

#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::read_int_in_range;
using kernels::read_zero_point;
using runtime::Error;
using runtime::IntList;

void max_pool2d_s8(const MaxPool2dParams& p, const int8_t* input, int8_t* out) {
  kernels::fastest(kernels::kMaxPool2dVariants)(p, input, out);
}

Error max_pool2d_prepare(runtime::PrepareContext& ctx) {
  MaxPool2dParams p;
  ETNS_ASSIGN_OR_RETURN(p.shape, kernels::read_pool2d_shape(ctx, {0, 1, 2, 3, 10}));
  ETNS_ASSIGN_OR_RETURN(const IntList dilation, ctx.int_list(4, "dilation"));
  ETNS_ASSIGN_OR_RETURN(const bool ceil_mode, ctx.bool_value(5, "ceil_mode"));
  ETNS_ASSIGN_OR_RETURN(const int32_t input_zero_point,
                        read_zero_point(ctx, 6, "input_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const int32_t output_zero_point,
                        read_zero_point(ctx, 7, "output_zero_point"));
  ETNS_ASSIGN_OR_RETURN(p.activation_min,
                        read_int_in_range(ctx, 8, "activation_min", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(p.activation_max,
                        read_int_in_range(ctx, 9, "activation_max", p.activation_min, INT8_MAX));
  int32_t dilation_h = 1;
  int32_t dilation_w = 1;
  ETNS_TRY(kernels::read_pair(ctx, dilation, "dilation", 1, INT32_MAX, &dilation_h, &dilation_w));
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
  max_pool2d_s8(ctx.state<MaxPool2dParams>(), ctx.tensor(0).data_as<const int8_t>(),
                ctx.tensor(10).data_as<int8_t>());
  return Error::Ok;
}

}  // namespace etns::cortex_m
