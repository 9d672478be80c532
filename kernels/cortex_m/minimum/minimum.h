#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/broadcast_walk.h"
#include "kernels/common/isa.h"
#include "runtime/exec/kernel.h"

namespace etns::cortex_m {

// cortex_m::minimum.out: elementwise int8 minimum with broadcasting
// (operators.md §2.4, docs/numerics.md#minimum). out = min(self, other) on the
// raw int8 values, no requantization (the exporter emits it only when both
// operands share quantization).
//
// prepare reduces every accepted case to one walk (kernels/common/broadcast_walk.h),
// shared with cortex_m::maximum.out.
using MinimumParams = kernels::BroadcastWalk;

using MinimumFn = void (*)(const MinimumParams& p, const int8_t* self, const int8_t* other,
                           int8_t* out);

void minimum_s8_ref(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: each innermost row as a 16-lane loop (both operands, or one of them
// repeated as a scalar); other strides fall back to the reference.
void minimum_s8_mve(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out);
#endif
// The build's choice, the last of kernels/variants.h's kMinimumVariants.
void minimum_s8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out);

// Arguments: self, other, out (all int8). out must have the broadcast shape of
// self and other (sizes right-aligned, size-1 dims broadcast). prepare returns
// InvalidArgument for another dtype, shapes that do not broadcast, an out of
// another shape, a rank above 5 (upstream's broadcast limit), or operands of
// one shape (or a one-element operand) whose memory order differs from out's;
// NotSupported where upstream's arm_minimum_s8 would compute something else
// than the broadcast minimum: general broadcasting of a tensor whose memory
// order is not its logical order (e.g. channels_last with C > 1), rank 5 with
// a leading dim other than 1, and the row-scalar walk that skips elements
// (docs/numerics.md#minimum); InvalidProgram for a wrong kind of argument.
runtime::Error minimum_prepare(runtime::PrepareContext& ctx);
runtime::Error minimum_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
