#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"

namespace etns::cortex_m {

// cortex_m::pad.out: CMSIS-NN arm_pad_s8 (docs/numerics.md#pad). out is input
// surrounded by pad_value: in physical (n, h, w, c) order, out has
// pre[k] + input_dims[k] + post[k] elements along dim k, the input block sits
// at offset pre[k], and every other element is pad_value. No arithmetic.
//
// Dims are physical: NHWC for a channels_last 4-D tensor, the logical sizes
// right-aligned (leading 1s) for a contiguous one.
struct PadParams {
  int32_t input_dims[4] = {1, 1, 1, 1};  // n, h, w, c
  int32_t pre[4] = {};
  int32_t post[4] = {};
  int32_t pad_value = 0;
};
ETNS_TARGET_LAYOUT(PadParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 13).done());

using PadFn = void (*)(const PadParams& p, const int8_t* input, int8_t* out);

void pad_s8_ref(const PadParams& p, const int8_t* input, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: the fills and the copies as tail-predicated 16-byte loops, padding
// between neighbouring rows or pixels written as one run.
void pad_s8_mve(const PadParams& p, const int8_t* input, int8_t* out);
#endif
// The build's choice, the last of kernels/variants.h's kPadVariants.
void pad_s8(const PadParams& p, const int8_t* input, int8_t* out);

// Arguments: input, pre_pad int[4], post_pad int[4], pad_value, out (int8).
// The pads are in physical (n, h, w, c) order. prepare returns InvalidArgument
// for a dtype other than int8, a rank outside [1, 4], pads of another length,
// a negative pad, a nonzero pad on a dim a rank-r input lacks (the first 4 - r),
// a pad_value outside [-128, 127], an out whose dim order differs from input's,
// or an out whose sizes are not input's padded; NotSupported for a layout
// other than contiguous or 4-D channels_last; InvalidProgram for a wrong kind
// of argument.
runtime::Error pad_prepare(runtime::PrepareContext& ctx);
runtime::Error pad_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
