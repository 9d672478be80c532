#include "kernels/cortex_m/dequantize/dequantize.h"

#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::check_dtype;
using kernels::check_range;
using kernels::check_same_dim_order;
using kernels::check_same_sizes;
using kernels::read_quantized_dtype;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

void dequantize_s8_f32(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  kernels::fastest(kernels::kDequantizeS8Variants)(p, in, out, n);
}

void dequantize_s16_f32(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  kernels::fastest(kernels::kDequantizeS16Variants)(p, in, out, n);
}

Error dequantize_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(0, "input"));
  ETNS_ASSIGN_OR_RETURN(const float scale, kernels::read_scale(ctx, 1, "scale"));
  ETNS_ASSIGN_OR_RETURN(const int64_t zero_point, ctx.int_value(2, "zero_point"));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_min, ctx.int_value(3, "quant_min"));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_max, ctx.int_value(4, "quant_max"));
  ETNS_ASSIGN_OR_RETURN(const ScalarType dtype, read_quantized_dtype(ctx, 5));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(6, "out"));

  ETNS_TRY(check_dtype(ctx, *input, "input", dtype));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Float));
  const int64_t type_min = dtype == ScalarType::Char ? INT8_MIN : INT16_MIN;
  const int64_t type_max = dtype == ScalarType::Char ? INT8_MAX : INT16_MAX;
  ETNS_TRY(check_range(ctx, "quant_min", quant_min, type_min, type_max));
  ETNS_TRY(check_range(ctx, "quant_max", quant_max, quant_min, type_max));
  ETNS_TRY(check_range(ctx, "zero_point", zero_point, quant_min, quant_max));
  ETNS_TRY(check_same_sizes(ctx, *input, "input", *out, "out"));
  // The kernel walks memory order, which is only the same element order when
  // both tensors share a dim order.
  ETNS_TRY(check_same_dim_order(ctx, *input, "input", *out, "out"));

  ETNS_ASSIGN_OR_RETURN(DequantizeParams * params, ctx.make_state<DequantizeParams>());
  params->scale = static_cast<float>(scale);
  params->zero_point = static_cast<int32_t>(zero_point);
  params->in_dtype = dtype;
  return Error::Ok;
}

Error dequantize_run(const RunContext& ctx) {
  const DequantizeParams& p = ctx.state<DequantizeParams>();
  const Tensor& input = ctx.tensor(0);
  const Tensor& out = ctx.tensor(6);
  if (p.in_dtype == ScalarType::Short) {
    dequantize_s16_f32(p, input.data_as<const int16_t>(), out.data_as<float>(), out.numel);
  } else {
    dequantize_s8_f32(p, input.data_as<const int8_t>(), out.data_as<float>(), out.numel);
  }
  return Error::Ok;
}

}  // namespace etns::cortex_m
