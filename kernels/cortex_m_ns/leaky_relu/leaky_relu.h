#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/byte_table.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
#include "runtime/core/target_layout.h"

// cortex_m_ns::quantized_leaky_relu.out on int8 (docs/numerics.md#leaky_relu,
// operators.md §3.2). Per element, x = q - in_zero_point:
//   out = clamp(RQ(x, x >= 0 ? identity : alpha) + out_zero_point, -128, 127)
// with identity = QM(s_in / s_out) (or (2^30, 1) for equal qparams) and
// alpha = QM(s_in * alpha / s_out). x = 0 takes the identity pair. The
// zero-point add is exact.
namespace etns::cortex_m_ns {

struct LeakyReluParams {
  int32_t in_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant alpha;     // x < 0
  kernels::Requant identity;  // x >= 0
  // leaky_relu_s8_ref on every code, filled by leaky_relu_fill_table; the fast variants read it.
  kernels::ByteTable table;
};
ETNS_TARGET_LAYOUT(LeakyReluParams, runtime::StructLayout()
                                        .member(runtime::fixed<int32_t>(), 2)
                                        .member(runtime::layout_of<kernels::Requant>(abi), 2)
                                        .member(runtime::layout_of<kernels::ByteTable>(abi))
                                        .done());

using LeakyReluFn = void (*)(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n);

void leaky_relu_s8_ref(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n);
// Looks every byte up in p.table.
void leaky_relu_s8_lut(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: 16-lane byte gathers from p.table.
void leaky_relu_s8_mve(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): byte shuffles over p.table.
void leaky_relu_s8_hwy(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
// The build's choice, the last of kLeakyReluVariants (below).
void leaky_relu_s8(const LeakyReluParams& p, const int8_t* in, int8_t* out, size_t n);

// Fills p.table from the reference and p's other fields.
void leaky_relu_fill_table(LeakyReluParams& p);

// The contract (operators.md §3.2). self and out are int8 with equal sizes in
// one memory order (any dim order: the kernel walks the flat buffers).
inline constexpr runtime::ArgSpec kLeakyReluArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_arg("input_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("alpha_multiplier"),
    runtime::int_arg("alpha_shift"),
    runtime::int_arg("identity_multiplier"),
    runtime::int_arg("identity_shift"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kLeakyReluContract = runtime::make_contract(
    "cortex_m_ns::quantized_leaky_relu.out", kLeakyReluArgs, "output_zero_point", false,
    runtime::kRunsInPlace);

// prepare returns InvalidArgument for self and out of different sizes or memory
// orders, zero points outside [-128, 127], or a multiplier outside [0, 2^31)
// or shift outside [-31, 30] (multiplier 0 and shift -31 are valid; the
// contract's kinds and dtypes are checked before it runs), and stores
// LeakyReluParams in the method arena (OutOfMemory).
runtime::Error leaky_relu_prepare(runtime::PrepareContext& ctx);
runtime::Error leaky_relu_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m_ns::LeakyReluFn> kLeakyReluVariants[] = {
    {"ref", &cortex_m_ns::leaky_relu_s8_ref},
    {"lut", &cortex_m_ns::leaky_relu_s8_lut},
    ETNS_MVE_VARIANT(&cortex_m_ns::leaky_relu_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m_ns::leaky_relu_s8_hwy)
};

}  // namespace etns::kernels
