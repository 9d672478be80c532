#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"

#include "kernels/common/checks.h"
#include "kernels/common/conv_checks.h"

namespace etns::cortex_m {

using kernels::check_conv_out_and_requantization;
using kernels::ConvArgs;
using kernels::format_sizes;
using kernels::read_conv_args;
using kernels::read_conv_geometry;
using kernels::read_int_in_range;
using kernels::store_conv_state;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

// The arguments every conv-family operator shares, and depthwise's own.
constexpr kernels::ConvArgIds kArgs = kernels::conv_arg_ids(kDepthwiseConv2dContract);
constexpr runtime::Arg kDepthMultiplier = kDepthwiseConv2dContract.arg("depth_multiplier");

}  // namespace

void depthwise_conv2d_s8(const DepthwiseConv2dParams& p, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, int8_t* out,
                         uint8_t* scratch) {
  kernels::fastest(kernels::kDepthwiseConv2dVariants)(p, input, weight, bias, out, scratch);
}

// The Helium variants' need, on every target (the reference needs none, but
// the host budgets what the Cortex-M55 would ask for); the largest of the
// three, so that one buffer serves all in the variant tests.
size_t depthwise_conv2d_scratch_bytes(const DepthwiseConv2dParams& p) {
  const size_t general = depthwise_conv2d_s8_mve_scratch_bytes(p);
  const size_t three_by_three = depthwise_conv2d_3x3_s8_mve_scratch_bytes(p);
  const size_t mult = depthwise_conv2d_mult_s8_mve_scratch_bytes(p);
  const size_t larger = three_by_three > general ? three_by_three : general;
  return mult > larger ? mult : larger;
}

Error depthwise_conv2d_prepare(PrepareContext& ctx) {
  // Read first: its range check precedes the shared arguments' in the contract.
  ETNS_ASSIGN_OR_RETURN(const int32_t depth_multiplier,
                        read_int_in_range(ctx, kDepthMultiplier, 1, INT32_MAX));
  ConvArgs args;
  ETNS_TRY(read_conv_args(ctx, kArgs, &args));
  const Tensor& weight = *args.weight;  // IHWO
  DepthwiseConv2dParams p;
  p.batches = args.input->size(0);
  p.input_c = args.input->size(1);
  p.input_h = args.input->size(2);
  p.input_w = args.input->size(3);
  p.filter_h = weight.size(1);
  p.filter_w = weight.size(2);
  p.output_c = weight.size(3);
  p.output_h = args.out->size(2);
  p.output_w = args.out->size(3);
  p.depth_multiplier = depth_multiplier;
  if (weight.size(0) != 1) {
    return ctx.fail(Error::InvalidArgument,
                    "weight %s has %d in dim 0, expected 1 ([1, KH, KW, Cout])",
                    format_sizes(weight).text, static_cast<int>(weight.size(0)));
  }
  if (p.output_c < 1 || p.filter_h < 1 || p.filter_w < 1) {
    return ctx.fail(Error::InvalidArgument, "weight %s has an empty dimension",
                    format_sizes(weight).text);
  }
  if (int64_t{p.input_c} * depth_multiplier != p.output_c) {
    return ctx.fail(Error::InvalidArgument,
                    "weight has %d output channels, expected %lld (input's %d channels times "
                    "depth_multiplier %d)",
                    static_cast<int>(p.output_c),
                    static_cast<long long>(int64_t{p.input_c} * depth_multiplier),
                    static_cast<int>(p.input_c), static_cast<int>(depth_multiplier));
  }
  ETNS_TRY(check_conv_out_and_requantization(ctx, kArgs, args, p.batches, p.output_c));
  ETNS_TRY(read_conv_geometry(ctx, kArgs, args, p));
  return store_conv_state(ctx, args, p, depthwise_conv2d_scratch_bytes(p));
}

Error depthwise_conv2d_run(const RunContext& ctx) {
  kernels::run_conv(ctx, kArgs, &depthwise_conv2d_s8);
  return Error::Ok;
}

}  // namespace etns::cortex_m
