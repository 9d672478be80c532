#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

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
// The build's choice, the last of kPadVariants (below).
void pad_s8(const PadParams& p, const int8_t* input, int8_t* out);

// The contract (operators-cortex-m.md): input and out int8; the pads are in
// physical (n, h, w, c) order, which prepare derives from input's layout
// (contiguous or 4-D channels_last), so the layout is prepare's to check.
inline constexpr runtime::ArgSpec kPadArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8),
    runtime::int_list_arg("pre_pad"),
    runtime::int_list_arg("post_pad"),
    runtime::int_arg("pad_value"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kPadContract =
    runtime::make_contract("cortex_m::pad.out", kPadArgs, nullptr, true);

// prepare returns InvalidArgument for a rank outside [1, 4], pads of another
// length than 4, a negative pad, a nonzero pad on a dim a rank-r input lacks
// (the first 4 - r), a pad_value outside [-128, 127], an out whose dim order
// differs from input's, or an out whose sizes are not input's padded;
// NotSupported for a layout other than contiguous or 4-D channels_last (the
// contract's kinds and dtypes are checked before it runs).
runtime::Error pad_prepare(runtime::PrepareContext& ctx);
runtime::Error pad_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::PadFn> kPadVariants[] = {
    {"ref", &cortex_m::pad_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::pad_s8_mve)
};

}  // namespace etns::kernels
