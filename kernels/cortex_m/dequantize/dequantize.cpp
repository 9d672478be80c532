#include "kernels/cortex_m/dequantize/dequantize.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m {

using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// quantize and dequantize share their arguments and checks.
constexpr kernels::QuantizeArgIds kArgs = kernels::quantize_arg_ids(kDequantizeContract);

}  // namespace

void dequantize_s8_f32(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  kernels::fastest(kernels::kDequantizeS8Variants)(p, in, out, n);
}

void dequantize_s16_f32(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  kernels::fastest(kernels::kDequantizeS16Variants)(p, in, out, n);
}

Error dequantize_prepare(PrepareContext& ctx) {
  kernels::QuantizeArgs args;
  ETNS_TRY(kernels::read_quantize_args(ctx, kArgs, kernels::IntegerTensor::Input, &args));
  ETNS_ASSIGN_OR_RETURN(DequantizeParams * params, ctx.make_state<DequantizeParams>());
  params->scale = args.scale;
  params->zero_point = args.zero_point;
  params->in_dtype = args.dtype;
  return Error::Ok;
}

Error dequantize_run(const RunContext& ctx) {
  const DequantizeParams& p = ctx.state<DequantizeParams>();
  const Tensor& input = ctx.tensor(kArgs.input);
  const Tensor& out = ctx.tensor(kArgs.out);
  if (p.in_dtype == ScalarType::Short) {
    dequantize_s16_f32(p, input.data_as<const int16_t>(), out.data_as<float>(), out.numel);
  } else {
    dequantize_s8_f32(p, input.data_as<const int8_t>(), out.data_as<float>(), out.numel);
  }
  return Error::Ok;
}

}  // namespace etns::cortex_m
