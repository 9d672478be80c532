#include "kernels/cortex_m/quantize/quantize.h"

#include <cmath>

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

constexpr const runtime::OperatorContract& kContract = kQuantizeContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kScale = kContract.arg("scale");
constexpr runtime::Arg kZeroPoint = kContract.arg("zero_point");
constexpr runtime::Arg kQuantMin = kContract.arg("quant_min");
constexpr runtime::Arg kQuantMax = kContract.arg("quant_max");
constexpr runtime::Arg kDtype = kContract.arg("dtype");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void quantize_f32_s8(const QuantizeParams& p, const float* in, int8_t* out, size_t n) {
  kernels::fastest(kernels::kQuantizeS8Variants)(p, in, out, n);
}

void quantize_f32_s16(const QuantizeParams& p, const float* in, int16_t* out, size_t n) {
  kernels::fastest(kernels::kQuantizeS16Variants)(p, in, out, n);
}

Error quantize_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(const float scale, kernels::read_scale(ctx, kScale));
  ETNS_ASSIGN_OR_RETURN(const int64_t zero_point, ctx.int_value(kZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_min, ctx.int_value(kQuantMin));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_max, ctx.int_value(kQuantMax));
  ETNS_ASSIGN_OR_RETURN(const ScalarType dtype, read_quantized_dtype(ctx, kDtype));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));

  // The contract takes int8 or int16 for out; it must be the one dtype names.
  ETNS_TRY(check_dtype(ctx, *out, "out", dtype));
  const int64_t type_min = dtype == ScalarType::Char ? INT8_MIN : INT16_MIN;
  const int64_t type_max = dtype == ScalarType::Char ? INT8_MAX : INT16_MAX;
  ETNS_TRY(check_range(ctx, kQuantMin.name(), quant_min, type_min, type_max));
  ETNS_TRY(check_range(ctx, kQuantMax.name(), quant_max, quant_min, type_max));
  // Stricter than upstream, which leaves the zero point unchecked: NaN inputs
  // map to it, so it must be a representable result.
  ETNS_TRY(check_range(ctx, kZeroPoint.name(), zero_point, quant_min, quant_max));
  ETNS_TRY(check_same_sizes(ctx, *input, "input", *out, "out"));
  // The kernel walks memory order, which is only the same element order when
  // both tensors share a dim order.
  ETNS_TRY(check_same_dim_order(ctx, *input, "input", *out, "out"));

  ETNS_ASSIGN_OR_RETURN(QuantizeParams * params, ctx.make_state<QuantizeParams>());
  params->inv_scale = 1.0f / scale;
  params->zero_point = static_cast<int32_t>(zero_point);
  params->quant_min = static_cast<int32_t>(quant_min);
  params->quant_max = static_cast<int32_t>(quant_max);
  params->out_dtype = dtype;
  return Error::Ok;
}

Error quantize_run(const RunContext& ctx) {
  const QuantizeParams& p = ctx.state<QuantizeParams>();
  const Tensor& input = ctx.tensor(kInput);
  const Tensor& out = ctx.tensor(kOut);
  if (p.out_dtype == ScalarType::Short) {
    quantize_f32_s16(p, input.data_as<const float>(), out.data_as<int16_t>(), out.numel);
  } else {
    quantize_f32_s8(p, input.data_as<const float>(), out.data_as<int8_t>(), out.numel);
  }
  return Error::Ok;
}

}  // namespace etns::cortex_m
