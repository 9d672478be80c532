#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#include "kernels/common/checks.h"
#include "kernels/common/conv_checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::check_dtype;
using kernels::check_out_extent;
using kernels::check_per_channel;
using kernels::check_per_channel_values;
using kernels::check_rank;
using kernels::format_sizes;
using kernels::is_nhwc_in_memory;
using kernels::read_pair;
using kernels::read_int_in_range;
using runtime::Error;
using runtime::IntList;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;
using runtime::ValueKind;

void depthwise_conv2d_s8(const DepthwiseConv2dParams& p, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, int8_t* out,
                         uint8_t* scratch) {
  kernels::fastest(kernels::kDepthwiseConv2dVariants)(p, input, weight, bias, out, scratch);
}

// The most any compiled variant needs (the reference needs none).
size_t depthwise_conv2d_scratch_bytes(const DepthwiseConv2dParams& p) {
#if ETNS_HAVE_MVE
  return depthwise_conv2d_s8_mve_scratch_bytes(p);
#else
  static_cast<void>(p);
  return 0;
#endif
}

Error depthwise_conv2d_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(0, "input"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* weight, ctx.tensor(1, "weight"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* bias, ctx.optional_tensor(2, "bias"));
  ETNS_ASSIGN_OR_RETURN(const IntList stride, ctx.int_list(3, "stride"));
  ETNS_ASSIGN_OR_RETURN(const IntList padding, ctx.int_list(4, "padding"));
  ETNS_ASSIGN_OR_RETURN(const IntList dilation, ctx.int_list(5, "dilation"));
  ETNS_ASSIGN_OR_RETURN(const int32_t depth_multiplier,
                        read_int_in_range(ctx, 6, "depth_multiplier", 1, INT32_MAX));
  // input_offset is minus an int8 zero point, output_offset an int8 zero point.
  ETNS_ASSIGN_OR_RETURN(const int32_t input_offset,
                        read_int_in_range(ctx, 7, "input_offset", -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(const int32_t output_offset,
                        read_int_in_range(ctx, 8, "output_offset", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* multipliers, ctx.tensor(9, "requantize_multipliers"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* shifts, ctx.tensor(10, "requantize_shifts"));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_min,
                        read_int_in_range(ctx, 11, "activation_min", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_max,
                        read_int_in_range(ctx, 12, "activation_max", activation_min, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(13, "out"));

  ETNS_TRY(check_dtype(ctx, *input, "input", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *weight, "weight", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Char));
  ETNS_TRY(check_rank(ctx, *input, "input", 4));
  ETNS_TRY(check_rank(ctx, *weight, "weight", 4));
  ETNS_TRY(check_rank(ctx, *out, "out", 4));
  // The kernel reads input and writes out as NHWC and reads weight as IHWO.
  if (!is_nhwc_in_memory(*input)) {
    return ctx.fail(Error::InvalidArgument, "input must be channels_last (dim order [0, 2, 3, 1])");
  }
  if (!is_nhwc_in_memory(*out)) {
    return ctx.fail(Error::InvalidArgument, "out must be channels_last (dim order [0, 2, 3, 1])");
  }
  if (!weight->is_contiguous()) {
    return ctx.fail(Error::InvalidArgument,
                    "weight must be contiguous ([1, KH, KW, Cout], IHWO in memory)");
  }

  DepthwiseConv2dParams p;
  p.batches = input->size(0);
  p.input_c = input->size(1);
  p.input_h = input->size(2);
  p.input_w = input->size(3);
  p.filter_h = weight->size(1);
  p.filter_w = weight->size(2);
  p.output_c = weight->size(3);
  p.output_h = out->size(2);
  p.output_w = out->size(3);
  p.depth_multiplier = depth_multiplier;
  if (weight->size(0) != 1) {
    return ctx.fail(Error::InvalidArgument,
                    "weight %s has %d in dim 0, expected 1 ([1, KH, KW, Cout])",
                    format_sizes(*weight).text, static_cast<int>(weight->size(0)));
  }
  if (p.output_c < 1 || p.filter_h < 1 || p.filter_w < 1) {
    return ctx.fail(Error::InvalidArgument, "weight %s has an empty dimension",
                    format_sizes(*weight).text);
  }
  if (int64_t{p.input_c} * depth_multiplier != p.output_c) {
    return ctx.fail(Error::InvalidArgument,
                    "weight has %d output channels, expected %lld (input's %d channels times "
                    "depth_multiplier %d)",
                    static_cast<int>(p.output_c),
                    static_cast<long long>(int64_t{p.input_c} * depth_multiplier),
                    static_cast<int>(p.input_c), static_cast<int>(depth_multiplier));
  }
  if (out->size(0) != p.batches || out->size(1) != p.output_c) {
    return ctx.fail(Error::InvalidArgument,
                    "out has batch %d and %d channels, expected batch %d and %d channels",
                    static_cast<int>(out->size(0)), static_cast<int>(out->size(1)),
                    static_cast<int>(p.batches), static_cast<int>(p.output_c));
  }
  if (bias != nullptr) ETNS_TRY(check_per_channel(ctx, *bias, "bias", p.output_c, false));
  ETNS_TRY(check_per_channel(ctx, *multipliers, "requantize_multipliers", p.output_c, true));
  ETNS_TRY(check_per_channel(ctx, *shifts, "requantize_shifts", p.output_c, true));
  ETNS_TRY(check_per_channel_values(ctx, *multipliers, "requantize_multipliers", 0, INT32_MAX));
  ETNS_TRY(check_per_channel_values(ctx, *shifts, "requantize_shifts", -31, 30));

  ETNS_TRY(read_pair(ctx, stride, "stride", 1, INT32_MAX, &p.stride_h, &p.stride_w));
  ETNS_TRY(read_pair(ctx, padding, "padding", 0, INT32_MAX, &p.pad_h, &p.pad_w));
  ETNS_TRY(read_pair(ctx, dilation, "dilation", 1, INT32_MAX, &p.dilation_h,
                             &p.dilation_w));
  ETNS_TRY(check_out_extent(ctx, "height", p.filter_h, p.stride_h, p.dilation_h, p.output_h));
  ETNS_TRY(check_out_extent(ctx, "width", p.filter_w, p.stride_w, p.dilation_w, p.output_w));

  p.input_offset = input_offset;
  p.output_offset = output_offset;
  p.activation_min = activation_min;
  p.activation_max = activation_max;
  p.multipliers = multipliers->data_as<const int32_t>();
  p.shifts = shifts->data_as<const int32_t>();
  ETNS_ASSIGN_OR_RETURN(DepthwiseConv2dParams * params, ctx.make_state<DepthwiseConv2dParams>());
  *params = p;
  ctx.request_scratch(depthwise_conv2d_scratch_bytes(p));
  return Error::Ok;
}

Error depthwise_conv2d_run(const RunContext& ctx) {
  const bool has_bias = ctx.args[2]->is(ValueKind::Tensor);
  depthwise_conv2d_s8(ctx.state<DepthwiseConv2dParams>(), ctx.tensor(0).data_as<const int8_t>(),
                      ctx.tensor(1).data_as<const int8_t>(),
                      has_bias ? ctx.tensor(2).data_as<const int32_t>() : nullptr,
                      ctx.tensor(13).data_as<int8_t>(), ctx.scratch.data());
  return Error::Ok;
}

}  // namespace etns::cortex_m
