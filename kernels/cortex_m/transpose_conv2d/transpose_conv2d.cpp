#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"

#include "kernels/common/checks.h"
#include "kernels/common/conv_checks.h"

namespace etns::cortex_m {

using kernels::check_conv_out_and_requantization;
using kernels::check_range;
using kernels::ConvArgs;
using kernels::format_sizes;
using kernels::read_conv_args;
using kernels::read_pair;
using kernels::read_stride_and_padding;
using kernels::store_conv_state;
using runtime::Error;
using runtime::IntList;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

// The arguments every conv-family operator shares, and the transposed one's own.
constexpr kernels::ConvArgIds kArgs = kernels::conv_arg_ids(kTransposeConv2dContract);
constexpr runtime::Arg kOutputPadding = kTransposeConv2dContract.arg("output_padding");

// out's extent along one dim must be PyTorch's ConvTranspose2d size (dilation
// 1): (in - 1) * stride - 2 * pad + kernel + output_padding. The kernels index
// up to out - 1 + pad, so that must stay within int32 too.
Error check_transposed_extent(const PrepareContext& ctx, const char* dim, int64_t in,
                              int64_t kernel, int64_t stride, int64_t pad,
                              int64_t output_padding, int64_t out) {
  const int64_t expected = (in - 1) * stride - 2 * pad + kernel + output_padding;
  if (expected < 1) {
    return ctx.fail(Error::InvalidArgument,
                    "out %s would be %lld (input %lld, kernel %lld, stride %lld, padding %lld, "
                    "output_padding %lld), expected >= 1",
                    dim, static_cast<long long>(expected), static_cast<long long>(in),
                    static_cast<long long>(kernel), static_cast<long long>(stride),
                    static_cast<long long>(pad), static_cast<long long>(output_padding));
  }
  if (out != expected) {
    return ctx.fail(Error::InvalidArgument,
                    "out %s = %lld, expected %lld = (%lld - 1) * stride %lld - 2 * padding %lld "
                    "+ kernel %lld + output_padding %lld",
                    dim, static_cast<long long>(out), static_cast<long long>(expected),
                    static_cast<long long>(in), static_cast<long long>(stride),
                    static_cast<long long>(pad), static_cast<long long>(kernel),
                    static_cast<long long>(output_padding));
  }
  if (out + pad > INT32_MAX) {
    return ctx.fail(Error::InvalidArgument, "out %s %lld plus padding %lld leaves int32", dim,
                    static_cast<long long>(out), static_cast<long long>(pad));
  }
  return Error::Ok;
}

// p's sizes from input [N, Cin, H, W], weight OHWI and out [N, Cout, OH, OW]
// (logical sizes; the contract has checked the memory orders), and input's
// and weight's agreement; out's batch and channels are checked with the
// requantisation, the transposed extents with the geometry.
Error read_sizes(const PrepareContext& ctx, const Tensor& input, const Tensor& weight,
                 const Tensor& out, TransposeConv2dParams& p) {
  p.batches = input.size(0);
  p.input_c = input.size(1);
  p.input_h = input.size(2);
  p.input_w = input.size(3);
  p.output_c = weight.size(0);
  p.filter_h = weight.size(1);
  p.filter_w = weight.size(2);
  p.output_h = out.size(2);
  p.output_w = out.size(3);
  if (p.output_c < 1 || p.filter_h < 1 || p.filter_w < 1 || weight.size(3) < 1) {
    return ctx.fail(Error::InvalidArgument, "weight %s has an empty dimension",
                    format_sizes(weight).text);
  }
  // CMSIS-NN writes out rows as it consumes input rows (and columns alike), so
  // an input without rows or columns would leave out unwritten. No batches
  // (an empty out too) is nothing to do.
  if (p.input_h < 1 || p.input_w < 1) {
    return ctx.fail(Error::InvalidArgument,
                    "input %s has no rows or columns (upstream's kernel would leave out "
                    "unwritten)",
                    format_sizes(input).text);
  }
  // No groups: upstream's exporter permutes [Cin, Cout, KH, KW] to OHWI whole.
  if (weight.size(3) != p.input_c) {
    return ctx.fail(Error::InvalidArgument,
                    "weight %s has %d input channels, expected input's %d",
                    format_sizes(weight).text, static_cast<int>(weight.size(3)),
                    static_cast<int>(p.input_c));
  }
  return Error::Ok;
}

// p's stride and padding; output_padding below stride, dilation 1, and out's
// extents PyTorch's for them (p's sizes already read).
Error read_geometry(const PrepareContext& ctx, const ConvArgs& args,
                    const IntList& output_padding, TransposeConv2dParams& p) {
  ETNS_TRY(read_stride_and_padding(ctx, kArgs, args, p));
  int32_t output_padding_h = 0, output_padding_w = 0;
  ETNS_TRY(read_pair(ctx, output_padding, kOutputPadding.name(), 0, INT32_MAX,
                     &output_padding_h, &output_padding_w));
  // PyTorch's own bound (dilation is 1): output_padding < stride.
  ETNS_TRY(check_range(ctx, "output_padding[0]", output_padding_h, 0, p.stride_h - 1));
  ETNS_TRY(check_range(ctx, "output_padding[1]", output_padding_w, 0, p.stride_w - 1));
  int32_t dilation_h = 1, dilation_w = 1;
  ETNS_TRY(read_pair(ctx, args.dilation, kArgs.dilation.name(), 1, INT32_MAX, &dilation_h,
                     &dilation_w));
  if (dilation_h != 1 || dilation_w != 1) {
    return ctx.fail(Error::NotSupported,
                    "dilation = [%d, %d], expected [1, 1] (CMSIS-NN's transpose convolution "
                    "ignores dilation)",
                    static_cast<int>(dilation_h), static_cast<int>(dilation_w));
  }
  ETNS_TRY(check_transposed_extent(ctx, "height", p.input_h, p.filter_h, p.stride_h, p.pad_h,
                                   output_padding_h, p.output_h));
  ETNS_TRY(check_transposed_extent(ctx, "width", p.input_w, p.filter_w, p.stride_w, p.pad_w,
                                   output_padding_w, p.output_w));
  return Error::Ok;
}

}  // namespace

void transpose_conv2d_s8(const TransposeConv2dParams& p, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, int8_t* out,
                         uint8_t* scratch) {
  kernels::fastest(kernels::kTransposeConv2dVariants)(p, input, weight, bias, out, scratch);
}

// The Helium variant's need, on every target (the reference needs none, but
// the host budgets what the Cortex-M55 would ask for).
size_t transpose_conv2d_scratch_bytes(const TransposeConv2dParams& p) {
  return transpose_conv2d_s8_mve_scratch_bytes(p);
}

Error transpose_conv2d_prepare(PrepareContext& ctx) {
  ConvArgs args;
  ETNS_TRY(read_conv_args(ctx, kArgs, &args));
  ETNS_ASSIGN_OR_RETURN(const IntList output_padding, ctx.int_list(kOutputPadding));
  TransposeConv2dParams p;
  ETNS_TRY(read_sizes(ctx, *args.input, *args.weight, *args.out, p));
  ETNS_TRY(check_conv_out_and_requantization(ctx, kArgs, args, p.batches, p.output_c));
  ETNS_TRY(read_geometry(ctx, args, output_padding, p));
  return store_conv_state(ctx, args, p, transpose_conv2d_scratch_bytes(p));
}

Error transpose_conv2d_run(const RunContext& ctx) {
  kernels::run_conv(ctx, kArgs, &transpose_conv2d_s8);
  return Error::Ok;
}

}  // namespace etns::cortex_m
