#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

namespace etns::cortex_m {

// cortex_m::minimum.out: elementwise int8 minimum with broadcasting
// (operators.md §2.4, docs/numerics.md#minimum). out = min(self, other) on the
// raw int8 values, no requantization (the exporter emits it only when both
// operands share quantization).
//
// prepare reduces every accepted case to one walk: out is a row-major
// [dims[0], dims[1], dims[2], dims[3]] block, and element (i, j, k, l) reads
// self at i*s[0] + j*s[1] + k*s[2] + l*s[3] (s = self_strides; likewise
// other). A broadcast dim has stride 0. Size-1 dims are dropped and dims that
// walk both operands contiguously are merged, so tier1's min(x, 50) is
// dims {1, 1, 1, 16384}, self strides {0, 0, 0, 1}, other strides all 0.
struct MinimumParams {
  size_t dims[4] = {1, 1, 1, 1};
  size_t self_strides[4] = {0, 0, 0, 0};
  size_t other_strides[4] = {0, 0, 0, 0};
};
ETNS_TARGET_LAYOUT(MinimumParams, runtime::StructLayout().member(runtime::word(abi), 12).done());

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
