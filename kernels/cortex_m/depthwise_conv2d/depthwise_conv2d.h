#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

namespace etns::cortex_m {

// cortex_m::quantized_depthwise_conv2d.out: int8 depthwise 2-D convolution,
// NHWC input and output, IHWO weights ([1, KH, KW, Cout]), per-channel
// requantization (operators-cortex-m.md). Output channel oc reads input
// channel oc / depth_multiplier only.
// Numerics (docs/numerics.md#depthwise_conv2d), upstream CMSIS-NN's on every
// target: for each output pixel and channel oc, ic = oc / depth_multiplier,
//   acc = bias[oc] + sum over in-image taps of (in[ic] + input_offset) * w[oc]
//   out = clamp(RQ(acc, multipliers[oc], shifts[oc]) + output_offset,
//               activation_min, activation_max)
// Taps outside the image contribute 0 (padding with the input zero point). The
// accumulator and the offset addition are int32 and wrap as upstream's do.
struct DepthwiseConv2dParams {
  int32_t batches = 0;
  int32_t input_h = 0, input_w = 0, input_c = 0;
  int32_t filter_h = 0, filter_w = 0;
  int32_t output_h = 0, output_w = 0, output_c = 0;  // output_c = input_c * depth_multiplier
  int32_t depth_multiplier = 1;
  int32_t stride_h = 1, stride_w = 1;
  int32_t pad_h = 0, pad_w = 0;
  int32_t dilation_h = 1, dilation_w = 1;
  int32_t input_offset = 0;   // minus the input zero point
  int32_t output_offset = 0;  // the output zero point
  int32_t activation_min = -128, activation_max = 127;
  // output_c values each; constants of the program, validated at load.
  const int32_t* multipliers = nullptr;
  const int32_t* shifts = nullptr;
};
ETNS_TARGET_LAYOUT(DepthwiseConv2dParams,
                   runtime::StructLayout()
                       .member(runtime::fixed<int32_t>(), 20)  // batches ... activation_max
                       .member(runtime::word(abi), 2)         // multipliers, shifts
                       .done());

// input [batches, input_h, input_w, input_c], weight [filter_h, filter_w,
// output_c], out [batches, output_h, output_w, output_c], all in that memory
// order; bias has output_c values, or is nullptr for none. `scratch` holds at
// least depthwise_conv2d_scratch_bytes(p) bytes, any alignment, contents
// undefined on entry (the reference needs none and ignores it).
using DepthwiseConv2dFn = void (*)(const DepthwiseConv2dParams& p, const int8_t* input,
                                   const int8_t* weight, const int32_t* bias, int8_t* out,
                                   uint8_t* scratch);

void depthwise_conv2d_s8_ref(const DepthwiseConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch);
#if ETNS_HAVE_MVE
// Helium: 16 channels of one pixel per pass, int8 widened and multiplied into
// int32 lanes per tap; the input offset folded into a per-channel bias
// computed per call (docs/numerics.md#depthwise_conv2d).
void depthwise_conv2d_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch);
#endif
// The 3x3 shapes of the MLPerf Tiny models: filter 3x3, depth multiplier 1,
// dilation 1, stride 1 or 2, padding <= 2, channels a multiple of 4.
bool depthwise_conv2d_3x3_handles(const DepthwiseConv2dParams& p);
#if ETNS_HAVE_MVE
// Helium for those shapes (any other goes to depthwise_conv2d_mult_s8_mve): 8
// channels per group over one output row, the three input rows copied into
// zero-point-padded rows in scratch so every pixel runs the same 9 taps with
// immediate offsets; the input offset folded into a per-channel bias per call.
void depthwise_conv2d_3x3_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                                 const int8_t* weight, const int32_t* bias, int8_t* out,
                                 uint8_t* scratch);
#endif
size_t depthwise_conv2d_3x3_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p);
// Depth multiplier > 1 with the variant's scratch at most 8 KiB (any other
// shape goes to depthwise_conv2d_s8_mve).
bool depthwise_conv2d_mult_handles(const DepthwiseConv2dParams& p);
#if ETNS_HAVE_MVE
// Helium for those: per output row, the filter's input rows copied into
// scratch with each input byte repeated depth_multiplier times (byte oc of a
// pixel is input channel oc / depth_multiplier) and zero-point padding on
// every side, which is an input of multiplier 1 over output_c channels; then
// 16 channels a pass one pixel at a time, 8 channels two pixels at a time
// (the weights loaded once for both), and a predicated tail, int8 widened to
// int16 and multiplied into int32 with VMULLB/VMULLT; the input offset folded
// into a per-channel bias per call.
void depthwise_conv2d_mult_s8_mve(const DepthwiseConv2dParams& p, const int8_t* input,
                                  const int8_t* weight, const int32_t* bias, int8_t* out,
                                  uint8_t* scratch);
#endif
size_t depthwise_conv2d_mult_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p);
// The Helium variant's scratch, computed on every target: the host applies
// the device's scratch budget, so both give one verdict on a program.
size_t depthwise_conv2d_s8_mve_scratch_bytes(const DepthwiseConv2dParams& p);
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): one int32 lane per output
// channel, summed over the in-image taps and requantised per lane; on
// AVX3_DL, for depth multiplier 1 with 64 channels (or C dividing 64 at
// stride 1), VNNI byte dot products of 4 taps a lane over a zero-point-padded
// copy of the image on the stack. No scratch.
void depthwise_conv2d_s8_hwy(const DepthwiseConv2dParams& p, const int8_t* input,
                             const int8_t* weight, const int32_t* bias, int8_t* out,
                             uint8_t* scratch);
#endif
// The implementation this build uses: depthwise_conv2d_3x3_s8_mve when
// Helium is compiled with the shape variants (else
// depthwise_conv2d_mult_s8_mve), else the reference; and the scratch the
// Helium variants need.
void depthwise_conv2d_s8(const DepthwiseConv2dParams& p, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, int8_t* out,
                         uint8_t* scratch);
size_t depthwise_conv2d_scratch_bytes(const DepthwiseConv2dParams& p);

// The contract (operators-cortex-m.md; activation_min before activation_max).
// input and out are int8 NHWC in memory (channels_last), weight int8
// [1, KH, KW, Cout] row-major (IHWO). bias, requantize_multipliers and
// requantize_shifts hold one int32 per output channel in any shape ([C],
// [1, C], [C, 1, 1, 1]). out's spatial sizes are trusted (any height/width
// >= 1, so uneven "SAME" padding works; taps beyond either edge count as
// padding). Batches > 1 are computed one after the other (upstream's op
// refuses them; CMSIS-NN's generic kernel loops).
inline constexpr runtime::ArgSpec kDepthwiseConv2dArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::tensor_arg("weight", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::optional_tensor_arg("bias", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_list_arg("stride"),
    runtime::int_list_arg("padding"),
    runtime::int_list_arg("dilation"),
    runtime::int_arg("depth_multiplier"),
    runtime::int_arg("input_offset"),
    runtime::int_arg("output_offset"),
    runtime::tensor_arg("requantize_multipliers", runtime::kInt32, runtime::Shape::Vector),
    runtime::tensor_arg("requantize_shifts", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_arg("activation_min"),
    runtime::int_arg("activation_max"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kDepthwiseConv2dContract = runtime::make_contract(
    "cortex_m::quantized_depthwise_conv2d.out", kDepthwiseConv2dArgs, "output_offset");

// prepare returns InvalidArgument for a weight not [1, KH, KW, Cout] or with
// an empty dimension, depth_multiplier < 1, out's channels not input channels
// times depth_multiplier or not weight's, out's batch not input's,
// per-channel tensors without one value per output channel,
// stride/padding/dilation not two values >= 1 (padding >= 0), offsets,
// activation range, multipliers ([0, 2^31)) or shifts ([-31, 30]) out of
// range, an empty out, or an index the kernel forms leaving int32;
// NotSupported when the multipliers or shifts are not constants (their values
// are checked here). The contract's kinds, dtypes and layouts are checked
// before it runs. It requests depthwise_conv2d_scratch_bytes of temporary
// memory.
runtime::Error depthwise_conv2d_prepare(runtime::PrepareContext& ctx);
runtime::Error depthwise_conv2d_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::DepthwiseConv2dFn> kDepthwiseConv2dVariants[] = {
    {"ref", &cortex_m::depthwise_conv2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::depthwise_conv2d_s8_mve)
#if ETNS_HAVE_MVE
    {"mve_mult", &cortex_m::depthwise_conv2d_mult_s8_mve},
#if !defined(ETNS_NO_SHAPE_VARIANTS)
    {"mve_3x3", &cortex_m::depthwise_conv2d_3x3_s8_mve},
#endif
#endif
    ETNS_HWY_VARIANT(&cortex_m::depthwise_conv2d_s8_hwy)
};

}  // namespace etns::kernels
