#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

namespace etns::cortex_m {

// cortex_m::quantized_conv2d.out: int8 2-D convolution, NHWC input and output,
// OHWI weights, per-channel requantization (operators.md §2.3).
// Numerics (docs/numerics.md#conv2d), upstream CMSIS-NN's on every target: for
// each output pixel and channel oc (input channels of oc's group only)
//   acc = bias[oc] + sum over in-image taps of (in + input_offset) * w
//   out = clamp(RQ(acc, multipliers[oc], shifts[oc]) + output_offset,
//               activation_min, activation_max)
// Taps outside the image contribute 0 (padding with the input zero point). The
// accumulator and the offset addition are int32 and wrap as upstream's do.
struct Conv2dParams {
  int32_t batches = 0;
  int32_t input_h = 0, input_w = 0, input_c = 0;
  int32_t filter_h = 0, filter_w = 0, filter_c = 0;  // filter_c = input_c / groups
  int32_t output_h = 0, output_w = 0, output_c = 0;
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
ETNS_TARGET_LAYOUT(Conv2dParams, runtime::StructLayout()
                                     .member(runtime::fixed<int32_t>(), 20)  // batches ... activation_max
                                     .member(runtime::word(abi), 2)         // multipliers, shifts
                                     .done());

// input [batches, input_h, input_w, input_c], weight [output_c, filter_h,
// filter_w, filter_c], out [batches, output_h, output_w, output_c], all in that
// memory order; bias has output_c values, or is nullptr for none. `scratch`
// holds at least conv2d_scratch_bytes(p) bytes, any alignment, contents
// undefined on entry (the reference needs none and ignores it).
using Conv2dFn = void (*)(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                          const int32_t* bias, int8_t* out, uint8_t* scratch);

void conv2d_s8_ref(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, int8_t* out, uint8_t* scratch);
#if ETNS_HAVE_MVE
// Helium: four output pixels per pass, VMLADAVA dot products of raw int8
// input with the weights, the input offset folded into a per-channel bias
// computed per call (docs/numerics.md#conv2d).
void conv2d_s8_mve(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, int8_t* out, uint8_t* scratch);
#endif
// The Helium variant's scratch, computed on every target: the host applies
// the device's scratch budget, so both give one verdict on a program.
size_t conv2d_s8_mve_scratch_bytes(const Conv2dParams& p);
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): each output pixel's window
// gathered as int16 (in + input_offset, 0 for padding) on the stack, then dot
// products with four weight rows at a time in int32 lanes; windows of at most
// 48 elements (one group) instead broadcast each element against weights
// transposed on the stack, one lane per output channel. On AVX3_DL, input
// channels a multiple of 4 per group (or one group of any count) go to
// AVX-512 VNNI byte dot products with the output channels as lanes, over a
// padded copy of the image (docs/design.md, "Host SIMD variants"). No scratch.
void conv2d_s8_hwy(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, int8_t* out, uint8_t* scratch);
#endif

// One group (any filter, stride, padding, dilation): an output pixel's
// window is one dot product of filter_h * filter_w * filter_c bytes, so the
// convolution is a matrix product of windows (gathered into scratch, or read
// in place for 1x1 filters) with the weight rows. Declined when its scratch
// (24 bytes per output channel plus 4 windows) would pass 8 KiB.
bool conv2d_gemm_handles(const Conv2dParams& p);
#if ETNS_HAVE_MVE
// Helium for those shapes (any other goes to conv2d_s8_mve).
void conv2d_s8_mve_gemm(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                        const int32_t* bias, int8_t* out, uint8_t* scratch);
#endif
size_t conv2d_s8_mve_gemm_scratch_bytes(const Conv2dParams& p);

// 3x3 filters at stride 1 without dilation, one group, 16, 32, 48 or 64
// input channels, at most 64 output channels, padding at most 2 and rows
// narrow enough for 8 KiB of scratch (the Tier-1 convolution, ResNet's 3x3
// layers).
bool conv2d_3x3_handles(const Conv2dParams& p);
#if ETNS_HAVE_MVE
// Helium for those shapes (any other goes to conv2d_s8_mve_gemm).
void conv2d_s8_mve_3x3(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                       const int32_t* bias, int8_t* out, uint8_t* scratch);
#endif
size_t conv2d_s8_mve_3x3_scratch_bytes(const Conv2dParams& p);

// 3 filter rows, each one run of 8 to 16 bytes (filter_w * input_c: a 3x3
// filter over 3 channels), one group, no dilation, strides up to 4, at most
// 64 output channels and 4 KiB of scratch: the first layers of image models.
bool conv2d_rows_handles(const Conv2dParams& p);
#if ETNS_HAVE_MVE
// Helium for those shapes (any other goes to conv2d_s8_mve_3x3).
void conv2d_s8_mve_rows(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                        const int32_t* bias, int8_t* out, uint8_t* scratch);
#endif
size_t conv2d_s8_mve_rows_scratch_bytes(const Conv2dParams& p);

// The implementation this build uses: the last Helium variant when compiled,
// else the reference; and the most scratch any compiled variant needs.
void conv2d_s8(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
               const int32_t* bias, int8_t* out, uint8_t* scratch);
size_t conv2d_scratch_bytes(const Conv2dParams& p);

// The contract (operators.md §2.3; activation_min before activation_max).
// input and out are int8 NHWC in memory (channels_last), weight int8
// [Cout, KH, KW, Cin] row-major (OHWI). bias, requantize_multipliers and
// requantize_shifts hold one int32 per output channel in any shape ([C],
// [1, C], [C, 1, 1, 1]). out's spatial sizes are trusted (operators.md
// §2.3.1): any out height/width >= 1 is accepted, so uneven (TF "SAME")
// padding works; taps beyond either edge of the input count as padding.
inline constexpr runtime::ArgSpec kConv2dArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::tensor_arg("weight", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::optional_tensor_arg("bias", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_list_arg("stride"),
    runtime::int_list_arg("padding"),
    runtime::int_list_arg("dilation"),
    runtime::int_arg("input_offset"),
    runtime::int_arg("output_offset"),
    runtime::tensor_arg("requantize_multipliers", runtime::kInt32, runtime::Shape::Vector),
    runtime::tensor_arg("requantize_shifts", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_arg("activation_min"),
    runtime::int_arg("activation_max"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kConv2dContract =
    runtime::make_contract("cortex_m::quantized_conv2d.out", kConv2dArgs, "output_offset");

// prepare returns InvalidArgument for a weight not of rank 4 or with an empty
// dimension, input channels not a multiple of the weight's, output channels
// not a multiple of the groups, out's batch or channels not the input's and
// weight's, per-channel tensors without one value per output channel,
// stride/padding/dilation not two values >= 1 (padding >= 0), offsets,
// activation range, multipliers ([0, 2^31)) or shifts ([-31, 30]) out of
// range, an empty out, or an index the kernel forms leaving int32;
// NotSupported when the multipliers or shifts are not constants (their values
// are checked here). The contract's kinds, dtypes and layouts are checked
// before it runs. It requests conv2d_scratch_bytes of temporary memory.
runtime::Error conv2d_prepare(runtime::PrepareContext& ctx);
runtime::Error conv2d_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::Conv2dFn> kConv2dVariants[] = {
    {"ref", &cortex_m::conv2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::conv2d_s8_mve)
#if ETNS_HAVE_MVE
    {"mve_gemm", &cortex_m::conv2d_s8_mve_gemm},
#if !defined(ETNS_NO_SHAPE_VARIANTS)
    {"mve_3x3", &cortex_m::conv2d_s8_mve_3x3},
    {"mve_rows", &cortex_m::conv2d_s8_mve_rows},
#endif
#endif
    ETNS_HWY_VARIANT(&cortex_m::conv2d_s8_hwy)
};

}  // namespace etns::kernels
