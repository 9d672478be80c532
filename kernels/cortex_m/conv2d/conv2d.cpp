#include "kernels/cortex_m/conv2d/conv2d.h"

#include "kernels/common/checks.h"
#include "kernels/common/conv_checks.h"

namespace etns::cortex_m {

using kernels::check_conv_out_and_requantization;
using kernels::ConvArgs;
using kernels::format_sizes;
using kernels::read_conv_args;
using kernels::read_conv_geometry;
using kernels::store_conv_state;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

// The arguments every conv-family operator shares; conv2d has no others.
constexpr kernels::ConvArgIds kArgs = kernels::conv_arg_ids(kConv2dContract);

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
  const size_t rows = conv2d_s8_mve_rows_scratch_bytes(p);
  if (gemm > bytes) bytes = gemm;
  if (three_by_three > bytes) bytes = three_by_three;
  if (rows > bytes) bytes = rows;
  return bytes;
}

Error conv2d_prepare(PrepareContext& ctx) {
  ConvArgs args;
  ETNS_TRY(read_conv_args(ctx, kArgs, &args));
  // Upstream checks the input's layout twice instead of out's (a bug); the
  // contract checks both.
  const Tensor& weight = *args.weight;  // OHWI
  Conv2dParams p;
  p.batches = args.input->size(0);
  p.input_c = args.input->size(1);
  p.input_h = args.input->size(2);
  p.input_w = args.input->size(3);
  p.output_c = weight.size(0);
  p.filter_h = weight.size(1);
  p.filter_w = weight.size(2);
  p.filter_c = weight.size(3);
  p.output_h = args.out->size(2);
  p.output_w = args.out->size(3);
  if (p.output_c < 1 || p.filter_h < 1 || p.filter_w < 1 || p.filter_c < 1) {
    return ctx.fail(Error::InvalidArgument, "weight %s has an empty dimension",
                    format_sizes(weight).text);
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
  ETNS_TRY(check_conv_out_and_requantization(ctx, kArgs, args, p.batches, p.output_c));
  ETNS_TRY(read_conv_geometry(ctx, kArgs, args, p));
  return store_conv_state(ctx, args, p, conv2d_scratch_bytes(p));
}

Error conv2d_run(const RunContext& ctx) {
  kernels::run_conv(ctx, kArgs, &conv2d_s8);
  return Error::Ok;
}

}  // namespace etns::cortex_m
