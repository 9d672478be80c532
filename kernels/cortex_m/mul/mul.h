#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
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
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): one int32 lane per element,
// each requantisation computed exactly.
void mul_s8_hwy(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);
#endif
// The build's choice, the last of kMulVariants (below).
void mul_s8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);

// The contract (operators.md §2.5). self, other and out are int8 in any
// layout; kernels/common/channel_broadcast.h checks how they pair.
inline constexpr runtime::ArgSpec kMulArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_arg("self_zero_point"),
    runtime::tensor_arg("other", runtime::kInt8),
    runtime::int_arg("other_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("output_multiplier"),
    runtime::int_arg("output_shift"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kMulContract =
    runtime::make_contract("cortex_m::quantized_mul.out", kMulArgs, "output_zero_point", false,
                           runtime::kRunsInPlace);

// prepare returns InvalidArgument for a zero point outside [-128, 127], a
// multiplier outside [0, 2^31) (0 is legal), a shift outside [-31, 30]
// (operators.md §7: 31 is refused although upstream passes it on), or shapes
// that are neither identical nor a channel broadcast (both 4-D, same C, one of
// them C elements); NotSupported for a channel broadcast whose full-size
// tensors are not channels_last (the contract's kinds and dtypes are checked
// before it runs).
runtime::Error mul_prepare(runtime::PrepareContext& ctx);
runtime::Error mul_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::MulFn> kMulVariants[] = {
    {"ref", &cortex_m::mul_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::mul_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::mul_s8_hwy)
};

}  // namespace etns::kernels
