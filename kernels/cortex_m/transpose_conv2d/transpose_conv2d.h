#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

namespace etns::cortex_m {

// cortex_m::quantized_transpose_conv2d.out: int8 transposed 2-D convolution,
// NHWC input and output, OHWI weights ([Cout, KH, KW, Cin]), per-channel
// requantization (operators-cortex-m.md). Input pixel (iy, ix) scatters
// through tap (ky, kx) onto output position (iy * stride_h - pad_h + ky,
// ix * stride_w - pad_w + kx); positions outside out are dropped.
// Numerics (docs/numerics.md#transpose_conv2d), upstream CMSIS-NN's on every
// target: for each output pixel and channel oc,
//   acc = bias[oc] + sum over the (iy, ky, ix, kx) landing on it and ic of
//         (in[iy, ix, ic] + input_offset) * w[oc, ky, kx, ic]
//   out = clamp(RQ(acc, multipliers[oc], shifts[oc]) + output_offset,
//               activation_min, activation_max)
// The accumulator and the offset addition are int32 and wrap as upstream's do.
struct TransposeConv2dParams {
  int32_t batches = 0;
  int32_t input_h = 0, input_w = 0, input_c = 0;
  int32_t filter_h = 0, filter_w = 0;  // the weight's Cin is input_c
  int32_t output_h = 0, output_w = 0, output_c = 0;
  int32_t stride_h = 1, stride_w = 1;
  int32_t pad_h = 0, pad_w = 0;
  int32_t input_offset = 0;   // minus the input zero point
  int32_t output_offset = 0;  // the output zero point
  int32_t activation_min = -128, activation_max = 127;
  // output_c values each; constants of the program, validated at load.
  const int32_t* multipliers = nullptr;
  const int32_t* shifts = nullptr;
};
ETNS_TARGET_LAYOUT(TransposeConv2dParams,
                   runtime::StructLayout()
                       .member(runtime::fixed<int32_t>(), 17)  // batches ... activation_max
                       .member(runtime::word(abi), 2)         // multipliers, shifts
                       .done());

// input [batches, input_h, input_w, input_c], weight [output_c, filter_h,
// filter_w, input_c], out [batches, output_h, output_w, output_c], all in that
// memory order; bias has output_c values, or is nullptr for none. `scratch`
// holds at least transpose_conv2d_scratch_bytes(p) bytes, any alignment,
// contents undefined on entry (the reference needs none and ignores it).
using TransposeConv2dFn = void (*)(const TransposeConv2dParams& p, const int8_t* input,
                                   const int8_t* weight, const int32_t* bias, int8_t* out,
                                   uint8_t* scratch);

void transpose_conv2d_s8_ref(const TransposeConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch);
#if ETNS_HAVE_MVE
// Helium: one output pixel per pass, its inside taps only; four output
// channels share each 16-byte input vector through VMLADAVA dot products, the
// input offset folded into per-tap weight sums computed per call
// (docs/numerics.md#transpose_conv2d).
void transpose_conv2d_s8_mve(const TransposeConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch);
#endif
// The Helium variant's scratch, computed on every target: the host applies
// the device's scratch budget, so both give one verdict on a program.
size_t transpose_conv2d_s8_mve_scratch_bytes(const TransposeConv2dParams& p);
// The implementation this build uses: transpose_conv2d_s8_mve when compiled,
// else the reference; and the scratch it needs.
void transpose_conv2d_s8(const TransposeConv2dParams& p, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, int8_t* out,
                         uint8_t* scratch);
size_t transpose_conv2d_scratch_bytes(const TransposeConv2dParams& p);

// The contract (operators-cortex-m.md; activation_min before activation_max).
// input and out are int8 NHWC in memory (channels_last), weight int8
// [Cout, KH, KW, Cin] row-major (OHWI). bias, requantize_multipliers and
// requantize_shifts hold one int32 per output channel in any shape ([C],
// [1, C], [C, 1, 1, 1]). out's height must be PyTorch's (input_h - 1) *
// stride_h - 2 * pad_h + filter_h + output_padding_h (width alike):
// output_padding only adds rows/columns on the far side, which receive
// whatever taps reach them. Batches are computed one after the other.
inline constexpr runtime::ArgSpec kTransposeConv2dArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::tensor_arg("weight", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::optional_tensor_arg("bias", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_list_arg("stride"),
    runtime::int_list_arg("padding"),
    runtime::int_list_arg("output_padding"),
    runtime::int_list_arg("dilation"),
    runtime::int_arg("input_offset"),
    runtime::int_arg("output_offset"),
    runtime::tensor_arg("requantize_multipliers", runtime::kInt32, runtime::Shape::Vector),
    runtime::tensor_arg("requantize_shifts", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_arg("activation_min"),
    runtime::int_arg("activation_max"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kTransposeConv2dContract = runtime::make_contract(
    "cortex_m::quantized_transpose_conv2d.out", kTransposeConv2dArgs, "output_offset");

// prepare returns InvalidArgument for a weight not of rank 4 or with an empty
// dimension, an input without rows or columns, weight's Cin not input's channels or its Cout
// not out's, out's batch not input's, per-channel tensors without one value
// per output channel, stride < 1, padding < 0, output_padding not in
// [0, stride), offsets, activation range, multipliers ([0, 2^31)) or shifts
// ([-31, 30]) out of range, or out's height/width not the size formula's (or
// < 1); NotSupported for dilation != 1 (CMSIS-NN's transpose convolution
// ignores dilation) or multipliers/shifts that are not constants. The
// contract's kinds, dtypes and layouts are checked before it runs. It
// requests transpose_conv2d_scratch_bytes of temporary memory.
runtime::Error transpose_conv2d_prepare(runtime::PrepareContext& ctx);
runtime::Error transpose_conv2d_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::TransposeConv2dFn> kTransposeConv2dVariants[] = {
    {"ref", &cortex_m::transpose_conv2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::transpose_conv2d_s8_mve)
};

}  // namespace etns::kernels
