#include "kernels/cortex_m/quantize/quantize.h"

#include <cmath>

#include "kernels/common/checks.h"

namespace etns::cortex_m {

using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// quantize and dequantize share their arguments and checks.
constexpr kernels::QuantizeArgIds kArgs = kernels::quantize_arg_ids(kQuantizeContract);

}  // namespace

void quantize_f32_s8(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  kernels::fastest(kernels::kQuantizeS8Variants)(p, in, out, n);
}

void quantize_f32_s16(const QuantizeParams& p, const float* in, int16_t* out, size_t n) {
  kernels::fastest(kernels::kQuantizeS16Variants)(p, in, out, n);
}

Error quantize_prepare(PrepareContext& ctx) {
  kernels::QuantizeArgs args;
  ETNS_TRY(kernels::read_quantize_args(ctx, kArgs, kernels::IntegerTensor::Out, &args));
  ETNS_ASSIGN_OR_RETURN(QuantizeParams * params, ctx.make_state<QuantizeParams>());
  params->inv_scale = 1.0f / args.scale;
  params->zero_point = args.zero_point;
  params->quant_min = args.quant_min;
  params->quant_max = args.quant_max;
  params->out_dtype = args.dtype;
  return Error::Ok;
}

Error quantize_run(const RunContext& ctx) {
  const QuantizeParams& p = ctx.state<QuantizeParams>();
  const Tensor& input = ctx.tensor(kArgs.input);
  const Tensor& out = ctx.tensor(kArgs.out);
  if (p.out_dtype == ScalarType::Short) {
    quantize_f32_s16(p, input.data_as<const float>(), out.data_as<int16_t>(), out.numel);
  } else {
    quantize_f32_s8(p, input.data_as<const float>(), out.data_as<int8_t>(), out.numel);
  }
  return Error::Ok;
}

}  // namespace etns::cortex_m
