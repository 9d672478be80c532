#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/checks.h"  // is_nhwc_in_memory, read_pair
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// Argument checks the convolution kernels (quantized_conv2d,
// quantized_depthwise_conv2d, quantized_transpose_conv2d) share. Each logs one
// line naming the argument and returns a non-Ok Error, as
// kernels/common/checks.h does.
namespace etns::kernels {

// out's extent along one spatial dim is trusted (operators.md §2.3.1: real
// exports use uneven "SAME" padding, whose out is not PyTorch's symmetric
// formula); taps past the far edge are padding. It must be >= 1, and the
// largest index a kernel forms, (out - 1 + 3) * stride + (kernel - 1) *
// dilation (conv2d's Helium variant computes 4 pixels at a time, up to 3 past
// the last), must stay within int32.
runtime::Error check_out_extent(const runtime::PrepareContext& ctx, const char* dim,
                                int64_t kernel, int64_t stride, int64_t dilation, int64_t out);

// A per-channel int32 tensor (the contract's Shape::Vector has checked its
// dtype and that it is row-major): one value per output channel in any shape,
// [C], [1, C] or [C, 1, 1, 1] (check_vector). `must_be_constant` for those
// whose values prepare validates and run then trusts (NotSupported otherwise).
runtime::Error check_per_channel(const runtime::PrepareContext& ctx, const runtime::Tensor& t,
                                 const char* name, int32_t channels, bool must_be_constant);

// Every value of a per-channel tensor in [lo, hi]; the message names the channel.
runtime::Error check_per_channel_values(const runtime::PrepareContext& ctx,
                                        const runtime::Tensor& t, const char* name, int64_t lo,
                                        int64_t hi);

// The arguments every conv-family contract names alike, resolved once per
// operator at compile time: `constexpr ConvArgIds kArgs = conv_arg_ids(kContract);`.
struct ConvArgIds {
  runtime::Arg input, weight, bias, stride, padding, dilation, input_offset, output_offset,
      multipliers, shifts, activation_min, activation_max, out;
};
constexpr ConvArgIds conv_arg_ids(const runtime::OperatorContract& c) {
  return ConvArgIds{c.arg("input"),          c.arg("weight"),
                    c.arg("bias"),           c.arg("stride"),
                    c.arg("padding"),        c.arg("dilation"),
                    c.arg("input_offset"),   c.arg("output_offset"),
                    c.arg("requantize_multipliers"), c.arg("requantize_shifts"),
                    c.arg("activation_min"), c.arg("activation_max"),
                    c.out()};
}

// Those arguments, read: bias is nullptr when Null.
struct ConvArgs {
  const runtime::Tensor* input = nullptr;
  const runtime::Tensor* weight = nullptr;
  const runtime::Tensor* bias = nullptr;
  const runtime::Tensor* multipliers = nullptr;
  const runtime::Tensor* shifts = nullptr;
  const runtime::Tensor* out = nullptr;
  runtime::IntList stride, padding, dilation;
  int32_t input_offset = 0, output_offset = 0, activation_min = 0, activation_max = 0;
};

// Reads them in contract order: input_offset is minus an int8 zero point,
// output_offset an int8 zero point, activation_min <= activation_max both
// int8. The contract has checked input and out are NHWC in memory and weight
// row-major; weight must also be 4-D.
runtime::Error read_conv_args(const runtime::PrepareContext& ctx, const ConvArgIds& ids,
                              ConvArgs* args);

// out [N, C, ...] has input's batch count and `output_c` channels, and the
// per-channel tensors (bias when given, the multipliers and shifts) one value
// per output channel: multipliers in [0, 2^31) and shifts in [-31, 30].
runtime::Error check_conv_out_and_requantization(const runtime::PrepareContext& ctx,
                                                 const ConvArgIds& ids, const ConvArgs& args,
                                                 int32_t batches, int32_t output_c);

// Reads stride (>= 1) and padding (>= 0) into p's [h, w] fields.
template <typename Params>
runtime::Error read_stride_and_padding(const runtime::PrepareContext& ctx, const ConvArgIds& ids,
                                       const ConvArgs& args, Params& p) {
  ETNS_TRY(read_pair(ctx, args.stride, ids.stride.name(), 1, INT32_MAX, &p.stride_h, &p.stride_w));
  ETNS_TRY(read_pair(ctx, args.padding, ids.padding.name(), 0, INT32_MAX, &p.pad_h, &p.pad_w));
  return runtime::Error::Ok;
}

// conv2d's and depthwise_conv2d's geometry: stride, padding, dilation (>= 1)
// and out's extents (check_out_extent) for p's filter and out sizes.
template <typename Params>
runtime::Error read_conv_geometry(const runtime::PrepareContext& ctx, const ConvArgIds& ids,
                                  const ConvArgs& args, Params& p) {
  ETNS_TRY(read_stride_and_padding(ctx, ids, args, p));
  ETNS_TRY(read_pair(ctx, args.dilation, ids.dilation.name(), 1, INT32_MAX, &p.dilation_h,
                     &p.dilation_w));
  ETNS_TRY(check_out_extent(ctx, "height", p.filter_h, p.stride_h, p.dilation_h, p.output_h));
  ETNS_TRY(check_out_extent(ctx, "width", p.filter_w, p.stride_w, p.dilation_w, p.output_w));
  return runtime::Error::Ok;
}

// Completes p with the offsets, activation range and per-channel constants,
// stores it as the kernel's state and requests `scratch_bytes` of scratch.
template <typename Params>
runtime::Error store_conv_state(runtime::PrepareContext& ctx, const ConvArgs& args, Params p,
                                size_t scratch_bytes) {
  p.input_offset = args.input_offset;
  p.output_offset = args.output_offset;
  p.activation_min = args.activation_min;
  p.activation_max = args.activation_max;
  p.multipliers = args.multipliers->data_as<const int32_t>();
  p.shifts = args.shifts->data_as<const int32_t>();
  ETNS_ASSIGN_OR_RETURN(Params * state, ctx.make_state<Params>());
  *state = p;
  ctx.request_scratch(scratch_bytes);
  return runtime::Error::Ok;
}

// The family's run: `kernel` on the state prepare stored, the input, weight,
// bias (nullptr when Null) and out of the call, and the scratch.
template <typename Params>
void run_conv(const runtime::RunContext& ctx, const ConvArgIds& ids,
              void (*kernel)(const Params&, const int8_t*, const int8_t*, const int32_t*, int8_t*,
                             uint8_t*)) {
  kernel(ctx.state<Params>(), ctx.tensor(ids.input).data_as<const int8_t>(),
         ctx.tensor(ids.weight).data_as<const int8_t>(), ctx.data_or_null<const int32_t>(ids.bias),
         ctx.tensor(ids.out).data_as<int8_t>(), ctx.scratch.data());
}

}  // namespace etns::kernels
