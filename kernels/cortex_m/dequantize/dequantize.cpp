#include "kernels/cortex_m/dequantize/dequantize.h"

#include "kernels/common/checks.h"

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

namespace {

constexpr const runtime::OperatorContract& kContract = kDequantizeContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kScale = kContract.arg("scale");
constexpr runtime::Arg kZeroPoint = kContract.arg("zero_point");
constexpr runtime::Arg kQuantMin = kContract.arg("quant_min");
constexpr runtime::Arg kQuantMax = kContract.arg("quant_max");
constexpr runtime::Arg kDtype = kContract.arg("dtype");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void dequantize_s8_f32(const DequantizeParams& p, const int8_t* in, float* out, size_t n) {
  kernels::fastest(kernels::kDequantizeS8Variants)(p, in, out, n);
}

void dequantize_s16_f32(const DequantizeParams& p, const int16_t* in, float* out, size_t n) {
  kernels::fastest(kernels::kDequantizeS16Variants)(p, in, out, n);
}

Error dequantize_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(const float scale, kernels::read_scale(ctx, kScale));
  ETNS_ASSIGN_OR_RETURN(const int64_t zero_point, ctx.int_value(kZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_min, ctx.int_value(kQuantMin));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_max, ctx.int_value(kQuantMax));
  ETNS_ASSIGN_OR_RETURN(const ScalarType dtype, read_quantized_dtype(ctx, kDtype));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));

  // The contract takes int8 or int16 for input; it must be the one dtype names.
  ETNS_TRY(check_dtype(ctx, *input, "input", dtype));
  const int64_t type_min = dtype == ScalarType::Char ? INT8_MIN : INT16_MIN;
  const int64_t type_max = dtype == ScalarType::Char ? INT8_MAX : INT16_MAX;
  ETNS_TRY(check_range(ctx, kQuantMin.name(), quant_min, type_min, type_max));
  ETNS_TRY(check_range(ctx, kQuantMax.name(), quant_max, quant_min, type_max));
  ETNS_TRY(check_range(ctx, kZeroPoint.name(), zero_point, quant_min, quant_max));
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
  const Tensor& input = ctx.tensor(kInput);
  const Tensor& out = ctx.tensor(kOut);
  if (p.in_dtype == ScalarType::Short) {
    dequantize_s16_f32(p, input.data_as<const int16_t>(), out.data_as<float>(), out.numel);
  } else {
    dequantize_s8_f32(p, input.data_as<const int8_t>(), out.data_as<float>(), out.numel);
  }
  return Error::Ok;
}

}  // namespace etns::cortex_m
