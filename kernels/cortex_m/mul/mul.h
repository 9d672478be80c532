#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

namespace etns::cortex_m {

// cortex_m::quantized_mul.out: int8 product of two quantized tensors (operators.md §2.5).
// Numerics (docs/numerics.md#mul), upstream CMSIS-NN's on every target:
//   out = clamp(RQ((a - a_zero_point) * (b - b_zero_point), M, S) + out_zero_point, -128, 127)
// RQ is kernels/common/requantize.h; the offset is added in 32 bits (wrapping,
// as upstream), not in ns-cmsis-nn's saturated 16-bit lanes.
struct MulParams {
  // `a` is the full-size operand and `b` the other. Upstream swaps self and other
  // (with their zero points) when self is the per-channel one; the product is
  // symmetric, so prepare does the same.
  int32_t a_zero_point = 0;
  int32_t b_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant out;
  // 0: b has n elements like a. Otherwise channel broadcast: b holds one value per
  // channel and repeats every b_channels elements of a and out (NHWC pixels).
  size_t b_channels = 0;
  bool a_is_other = false;  // for run: which argument is passed as a
};
ETNS_TARGET_LAYOUT(MulParams, runtime::StructLayout()
                                  .member(runtime::fixed<int32_t>(), 3)
                                  .member(runtime::layout_of<kernels::Requant>(abi))
                                  .member(runtime::word(abi))  // b_channels
                                  .member(runtime::fixed<bool>())
                                  .done());

using MulFn = void (*)(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);

void mul_s8_ref(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: eight 16-bit lanes a step, the requantisation computed exactly.
void mul_s8_mve(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);
#endif
// The build's choice, the last of kernels/variants.h's kMulVariants.
void mul_s8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);

// Arguments: self, self_zero_point, other, other_zero_point, output_zero_point,
// output_multiplier, output_shift, out. prepare returns InvalidArgument for a
// tensor that is not int8, a zero point outside [-128, 127], a multiplier
// outside [0, 2^31), a shift outside [-31, 30], or shapes that are neither
// identical nor a channel broadcast (both 4-D, same C, one of them C elements);
// NotSupported for a channel broadcast whose full-size tensors are not
// channels_last; InvalidProgram for a wrong kind of argument.
runtime::Error mul_prepare(runtime::PrepareContext& ctx);
runtime::Error mul_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
