#pragma once

#include <cstdint>

#include "kernels/common/checks.h"  // is_nhwc_in_memory, read_pair
#include "runtime/exec/kernel.h"

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

}  // namespace etns::kernels
