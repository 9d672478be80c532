#include "kernels/cortex_m/conv2d/conv2d.h"

#include "kernels/common/checks.h"
#include "kernels/common/conv_checks.h"

namespace etns::cortex_m {

using kernels::check_out_extent;
using kernels::check_per_channel;
using kernels::check_per_channel_values;
using kernels::check_rank;
using kernels::format_sizes;
using kernels::read_int_in_range;
using kernels::read_pair;
using runtime::Error;
using runtime::IntList;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kConv2dContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kWeight = kContract.arg("weight");
constexpr runtime::Arg kBias = kContract.arg("bias");
constexpr runtime::Arg kStride = kContract.arg("stride");
constexpr runtime::Arg kPadding = kContract.arg("padding");
constexpr runtime::Arg kDilation = kContract.arg("dilation");
constexpr runtime::Arg kInputOffset = kContract.arg("input_offset");
constexpr runtime::Arg kOutputOffset = kContract.arg("output_offset");
constexpr runtime::Arg kMultipliers = kContract.arg("requantize_multipliers");
constexpr runtime::Arg kShifts = kContract.arg("requantize_shifts");
constexpr runtime::Arg kActivationMin = kContract.arg("activation_min");
constexpr runtime::Arg kActivationMax = kContract.arg("activation_max");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void conv2d_s8(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
               const int32_t* bias, int8_t* out, uint8_t* scratch) {
  kernels::fastest(kernels::kConv2dVariants)(p, input, weight, bias, out, scratch);
}

// The Helium variants' need, on every target (the reference needs none, but
// the host budgets what the Cortex-M55 would ask for). The most any variant
// asks for, so that every variant can be run on the same call.
size_t conv2d_scratch_bytes(const Conv2dParams& p) {
  size_t bytes = conv2d_s8_mve_scratch_bytes(p);
  const size_t gemm = conv2d_s8_mve_gemm_scratch_bytes(p);
  const size_t three_by_three = conv2d_s8_mve_3x3_scratch_bytes(p);
  if (gemm > bytes) bytes = gemm;
  if (three_by_three > bytes) bytes = three_by_three;
  return bytes;
}

Error conv2d_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(const Tensor* weight, ctx.tensor(kWeight));
  ETNS_ASSIGN_OR_RETURN(const Tensor* bias, ctx.optional_tensor(kBias));
  ETNS_ASSIGN_OR_RETURN(const IntList stride, ctx.int_list(kStride));
  ETNS_ASSIGN_OR_RETURN(const IntList padding, ctx.int_list(kPadding));
  ETNS_ASSIGN_OR_RETURN(const IntList dilation, ctx.int_list(kDilation));
  // input_offset is minus an int8 zero point, output_offset an int8 zero point.
  ETNS_ASSIGN_OR_RETURN(const int32_t input_offset,
                        read_int_in_range(ctx, kInputOffset, -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(const int32_t output_offset,
                        read_int_in_range(ctx, kOutputOffset, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* multipliers, ctx.tensor(kMultipliers));
  ETNS_ASSIGN_OR_RETURN(const Tensor* shifts, ctx.tensor(kShifts));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_min,
                        read_int_in_range(ctx, kActivationMin, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_max,
                        read_int_in_range(ctx, kActivationMax, activation_min, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  // The contract has checked input and out are NHWC in memory and weight
  // row-major; weight must also be 4-D (OHWI). Upstream checks the input's
  // layout twice instead of out's (a bug); the contract checks both.
  ETNS_TRY(check_rank(ctx, *weight, kWeight.name(), 4));

  Conv2dParams p;
  p.batches = input->size(0);
  p.input_c = input->size(1);
  p.input_h = input->size(2);
  p.input_w = input->size(3);
  p.output_c = weight->size(0);
  p.filter_h = weight->size(1);
  p.filter_w = weight->size(2);
  p.filter_c = weight->size(3);
  p.output_h = out->size(2);
  p.output_w = out->size(3);
  if (p.output_c < 1 || p.filter_h < 1 || p.filter_w < 1 || p.filter_c < 1) {
    return ctx.fail(Error::InvalidArgument, "weight %s has an empty dimension",
                    format_sizes(*weight).text);
  }
  // Grouped convolution: input channels split into groups of the weight's Cin.
  if (p.input_c < p.filter_c || p.input_c % p.filter_c != 0) {
    return ctx.fail(Error::InvalidArgument,
                    "input has %d channels, expected a positive multiple of weight's %d",
                    static_cast<int>(p.input_c), static_cast<int>(p.filter_c));
  }
  const int32_t groups = p.input_c / p.filter_c;
  if (p.output_c % groups != 0) {
    return ctx.fail(Error::InvalidArgument,
                    "weight has %d output channels, expected a multiple of the %d groups",
                    static_cast<int>(p.output_c), static_cast<int>(groups));
  }
  if (out->size(0) != p.batches || out->size(1) != p.output_c) {
    return ctx.fail(Error::InvalidArgument,
                    "out has batch %d and %d channels, expected batch %d and %d channels",
                    static_cast<int>(out->size(0)), static_cast<int>(out->size(1)),
                    static_cast<int>(p.batches), static_cast<int>(p.output_c));
  }
  if (bias != nullptr) {
    ETNS_TRY(check_per_channel(ctx, *bias, kBias.name(), p.output_c, false));
  }
  ETNS_TRY(check_per_channel(ctx, *multipliers, kMultipliers.name(), p.output_c, true));
  ETNS_TRY(check_per_channel(ctx, *shifts, kShifts.name(), p.output_c, true));
  // Multiplier 0 (TFLite's flush of a tiny effective scale) and shift -31 are
  // legal; shift 31 would shift left by 31 before the multiply.
  ETNS_TRY(check_per_channel_values(ctx, *multipliers, kMultipliers.name(), 0, INT32_MAX));
  ETNS_TRY(check_per_channel_values(ctx, *shifts, kShifts.name(), -31, 30));

  ETNS_TRY(read_pair(ctx, stride, kStride.name(), 1, INT32_MAX, &p.stride_h, &p.stride_w));
  ETNS_TRY(read_pair(ctx, padding, kPadding.name(), 0, INT32_MAX, &p.pad_h, &p.pad_w));
  ETNS_TRY(read_pair(ctx, dilation, kDilation.name(), 1, INT32_MAX, &p.dilation_h,
                     &p.dilation_w));
  ETNS_TRY(check_out_extent(ctx, "height", p.filter_h, p.stride_h, p.dilation_h, p.output_h));
  ETNS_TRY(check_out_extent(ctx, "width", p.filter_w, p.stride_w, p.dilation_w, p.output_w));

  p.input_offset = input_offset;
  p.output_offset = output_offset;
  p.activation_min = activation_min;
  p.activation_max = activation_max;
  p.multipliers = multipliers->data_as<const int32_t>();
  p.shifts = shifts->data_as<const int32_t>();
  ETNS_ASSIGN_OR_RETURN(Conv2dParams * params, ctx.make_state<Conv2dParams>());
  *params = p;
  ctx.request_scratch(conv2d_scratch_bytes(p));
  return Error::Ok;
}

Error conv2d_run(const RunContext& ctx) {
  conv2d_s8(ctx.state<Conv2dParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
            ctx.tensor(kWeight).data_as<const int8_t>(), ctx.data_or_null<const int32_t>(kBias),
            ctx.tensor(kOut).data_as<int8_t>(), ctx.scratch.data());
  return Error::Ok;
}

}  // namespace etns::cortex_m
