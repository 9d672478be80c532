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

// cortex_m_ns::quantized_hardswish.out: x * relu6(x + 3) / 6 on int8
// (docs/numerics.md#hardswish, operators.md §3.1). Per element, x = q - in_zero_point:
//   t = clamp(x + relu_q3, 0, relu_q6), then (t + 2^(prescale-1)) >> prescale if prescale > 0
//   out = clamp(RQ(x * t, out) + out_zero_point, -128, 127)
// where relu_q3 = round(3 / s_in), relu_q6 = round(6 / s_in), out = QM(s_in^2 / (6 s_out)).
// The zero-point add is exact; x * t < 2^30 because prepare bounds relu_q6 by 2^22.
namespace etns::cortex_m_ns {

struct HardswishParams {
  int32_t in_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant out;
  int32_t relu_q3 = 0;   // [0, relu_q6]
  int32_t relu_q6 = 1;   // [1, 2^22]
  int32_t prescale = 0;  // [0, 31]
  // hardswish_s8_ref on every code, filled by hardswish_fill_table; the fast variants read it.
  kernels::ByteTable table;
};
ETNS_TARGET_LAYOUT(HardswishParams, runtime::StructLayout()
                                        .member(runtime::fixed<int32_t>(), 2)
                                        .member(runtime::layout_of<kernels::Requant>(abi))
                                        .member(runtime::fixed<int32_t>(), 3)
                                        .member(runtime::layout_of<kernels::ByteTable>(abi))
                                        .done());

using HardswishFn = void (*)(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n);

void hardswish_s8_ref(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n);
// Looks every byte up in p.table.
void hardswish_s8_lut(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: 16-lane byte gathers from p.table.
void hardswish_s8_mve(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): byte shuffles over p.table.
void hardswish_s8_hwy(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
// The build's choice, the last of kHardswishVariants (below).
void hardswish_s8(const HardswishParams& p, const int8_t* in, int8_t* out, size_t n);

// Fills p.table from the reference and p's other fields.
void hardswish_fill_table(HardswishParams& p);

// The contract (operators.md §3.1). self and out are int8 with equal sizes in
// one memory order (any dim order: the kernel walks the flat buffers).
inline constexpr runtime::ArgSpec kHardswishArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_arg("input_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("output_multiplier"),
    runtime::int_arg("output_shift"),
    runtime::int_arg("relu_q3"),
    runtime::int_arg("relu_q6"),
    runtime::int_arg("prescale"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kHardswishContract = runtime::make_contract(
    "cortex_m_ns::quantized_hardswish.out", kHardswishArgs, "output_zero_point", false,
    runtime::kRunsInPlace);

// prepare returns InvalidArgument for self and out of different sizes or memory
// orders, zero points outside [-128, 127], a multiplier outside [0, 2^31) or a
// shift outside [-31, 30], relu_q6 outside [1, 2^22], relu_q3 outside
// [0, relu_q6] or prescale outside [0, 31] (the contract's kinds and dtypes
// are checked before it runs), and stores HardswishParams in the method arena
// (OutOfMemory).
runtime::Error hardswish_prepare(runtime::PrepareContext& ctx);
runtime::Error hardswish_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m_ns::HardswishFn> kHardswishVariants[] = {
    {"ref", &cortex_m_ns::hardswish_s8_ref},
    {"lut", &cortex_m_ns::hardswish_s8_lut},
    ETNS_MVE_VARIANT(&cortex_m_ns::hardswish_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m_ns::hardswish_s8_hwy)
};

}  // namespace etns::kernels
