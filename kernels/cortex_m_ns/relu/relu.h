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

// cortex_m_ns::quantized_relu.out: relu, relu6, hardtanh and clamp on int8,
// all as a clamp to [act_min, act_max] = the quantised float bounds
// (docs/numerics.md#relu, operators.md §3.4). Two paths, chosen by prepare:
//   identity (in_zero_point == out_zero_point, out == (2^30, 1)):
//     out = clamp(q, act_min, act_max)                      (arm_clamp_s8)
//   otherwise:
//     out = clamp(RQ(q - in_zero_point, out) + out_zero_point, act_min, act_max)
// Both give the same bytes for identity parameters. prepare guarantees
// -128 <= act_min <= act_max <= 127, so the paths' handling of other bounds never matters.
namespace etns::cortex_m_ns {

// The exporter's (M, S) for a factor of exactly 1 (operators.md §1.4).
constexpr kernels::Requant kIdentityRequant{int32_t{1} << 30, 1};

struct ReluParams {
  int32_t in_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant out;
  int32_t act_min = -128;
  int32_t act_max = 127;
  bool identity = false;  // take the plain clamp path; set by prepare
  // relu_s8_ref on every code, filled by relu_fill_table; the fast variants read it.
  kernels::ByteTable table;
};
ETNS_TARGET_LAYOUT(ReluParams, runtime::StructLayout()
                                   .member(runtime::fixed<int32_t>(), 2)
                                   .member(runtime::layout_of<kernels::Requant>(abi))
                                   .member(runtime::fixed<int32_t>(), 2)
                                   .member(runtime::fixed<bool>())
                                   .member(runtime::layout_of<kernels::ByteTable>(abi))
                                   .done());

using ReluFn = void (*)(const ReluParams& p, const int8_t* in, int8_t* out, size_t n);

void relu_s8_ref(const ReluParams& p, const int8_t* in, int8_t* out, size_t n);
// Looks every byte up in p.table.
void relu_s8_lut(const ReluParams& p, const int8_t* in, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: the identity path as a 16-lane clamp, the other as byte gathers from p.table.
void relu_s8_mve(const ReluParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): the identity path as a
// clamp, the other as byte shuffles over p.table.
void relu_s8_hwy(const ReluParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
// The build's choice, the last of kReluVariants (below).
void relu_s8(const ReluParams& p, const int8_t* in, int8_t* out, size_t n);

// Fills p.table from the reference and p's other fields.
void relu_fill_table(ReluParams& p);

// The contract (operators.md §3.4). self and out are int8 with equal sizes in
// one memory order (any dim order: the kernel walks the flat buffers).
inline constexpr runtime::ArgSpec kReluArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_arg("input_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("output_multiplier"),
    runtime::int_arg("output_shift"),
    runtime::int_arg("activation_min"),
    runtime::int_arg("activation_max"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kReluContract =
    runtime::make_contract("cortex_m_ns::quantized_relu.out", kReluArgs, "output_zero_point",
                           false, runtime::kRunsInPlace);

// prepare returns InvalidArgument for self and out of different sizes or memory
// orders, zero points or activation bounds outside [-128, 127] (upstream's
// clamp path wraps such bounds, its generic path saturates them),
// activation_min above activation_max (upstream's C and MVE clamps disagree),
// or a multiplier outside [0, 2^31) or shift outside [-31, 30] (multiplier 0
// and shift -31 are valid; the contract's kinds and dtypes are checked before
// it runs), and stores ReluParams in the method arena (OutOfMemory).
runtime::Error relu_prepare(runtime::PrepareContext& ctx);
runtime::Error relu_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m_ns::ReluFn> kReluVariants[] = {
    {"ref", &cortex_m_ns::relu_s8_ref},
    {"lut", &cortex_m_ns::relu_s8_lut},
    ETNS_MVE_VARIANT(&cortex_m_ns::relu_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m_ns::relu_s8_hwy)
};

}  // namespace etns::kernels
