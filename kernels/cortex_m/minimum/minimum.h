#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/broadcast_walk.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

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
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): the same rows as Helium's.
void minimum_s8_hwy(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out);
#endif
// The build's choice, the last of kMinimumVariants (below).
void minimum_s8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out);

// The contract (operators.md §2.4): self, other and out, all int8 in any
// layout. out holds self's values (or other's) on their shared grid.
inline constexpr runtime::ArgSpec kMinimumArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::tensor_arg("other", runtime::kInt8),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kMinimumContract =
    runtime::make_contract("cortex_m::minimum.out", kMinimumArgs, nullptr, true,
                           runtime::kRunsInPlace);

// out must have the broadcast shape of self and other (sizes right-aligned,
// size-1 dims broadcast). prepare returns InvalidArgument for shapes that do
// not broadcast, an out of another shape, a rank above 5 (upstream's broadcast
// limit), or operands of one shape (or a one-element operand) whose memory
// order differs from out's; NotSupported where upstream's arm_minimum_s8 would
// compute something else than the broadcast minimum: general broadcasting of
// a tensor whose memory order is not its logical order (e.g. channels_last
// with C > 1), rank 5 with a leading dim other than 1, and the row-scalar walk
// that skips elements (docs/numerics.md#minimum). The contract's kinds and
// dtypes are checked before it runs.
runtime::Error minimum_prepare(runtime::PrepareContext& ctx);
runtime::Error minimum_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::MinimumFn> kMinimumVariants[] = {
    {"ref", &cortex_m::minimum_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::minimum_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::minimum_s8_hwy)
};

}  // namespace etns::kernels
