#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/broadcast_walk.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

namespace etns::cortex_m {

// cortex_m::maximum.out: elementwise int8 maximum with broadcasting
// (docs/numerics.md#maximum). out = max(self, other) on the raw int8 values,
// no requantization. It mirrors cortex_m::minimum.out: the same arguments,
// the same accepted shapes and refusals, one walk planned at prepare
// (kernels/common/broadcast_walk.h).
using MaximumParams = kernels::BroadcastWalk;

using MaximumFn = void (*)(const MaximumParams& p, const int8_t* self, const int8_t* other,
                           int8_t* out);

// CMSIS-NN arm_maximum_s8 for every case prepare accepts.
void maximum_s8_ref(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: each innermost row as a 16-lane loop (both operands, or one of them
// repeated as a scalar); other strides fall back to the reference.
void maximum_s8_mve(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): the same rows as Helium's.
void maximum_s8_hwy(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out);
#endif
// The build's choice, the last of kMaximumVariants (below).
void maximum_s8(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out);

// The contract: minimum's, under maximum's name.
inline constexpr runtime::ArgSpec kMaximumArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::tensor_arg("other", runtime::kInt8),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kMaximumContract =
    runtime::make_contract("cortex_m::maximum.out", kMaximumArgs, nullptr, true,
                           runtime::kRunsInPlace);

// prepare checks as minimum_prepare's (kernels::plan_broadcast_walk), naming
// arm_maximum_s8.
runtime::Error maximum_prepare(runtime::PrepareContext& ctx);
runtime::Error maximum_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::MaximumFn> kMaximumVariants[] = {
    {"ref", &cortex_m::maximum_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::maximum_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::maximum_s8_hwy)
};

}  // namespace etns::kernels
