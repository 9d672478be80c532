#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/binary_args.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

namespace etns::cortex_m {

// cortex_m::quantized_add.out: int8 sum of two quantized tensors
// (docs/numerics.md#add). CMSIS-NN arm_elementwise_add_s8 with upstream's left
// shift of 20, its Helium path the contract:
//   a' = RQ((a - a_zero_point) * 2^20, a_rq)    b' = RQ((b - b_zero_point) * 2^20, b_rq)
//   out = clamp(RQ(a' + b', out_rq) + out_zero_point, activation_min, activation_max)
// RQ is kernels/common/requantize.h; a' + b' and the zero-point add are int32
// and wrap, as upstream's VADD does.
constexpr int32_t kAddLeftShift = 20;

struct AddParams {
  // `a` is the full-size operand and `b` the other; prepare swaps self and
  // other (with their quantization) when self is the per-channel one, as upstream.
  int32_t a_zero_point = 0;
  int32_t b_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant a;
  kernels::Requant b;
  kernels::Requant out;
  int32_t activation_min = -128;  // prepare: -128 <= min <= max <= 127
  int32_t activation_max = 127;
  // 0: b has n elements like a. Otherwise channel broadcast: b holds one value
  // per channel and repeats every b_channels elements of a and out.
  size_t b_channels = 0;
  bool a_is_other = false;  // for run: which argument is passed as a
};
ETNS_TARGET_LAYOUT(AddParams, runtime::StructLayout()
                                  .member(runtime::fixed<int32_t>(), 3)
                                  .member(runtime::layout_of<kernels::Requant>(abi), 3)
                                  .member(runtime::fixed<int32_t>(), 2)
                                  .member(runtime::word(abi))  // b_channels
                                  .member(runtime::fixed<bool>())
                                  .done());

using AddFn = void (*)(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);

void add_s8_ref(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: four int32 lanes a step (the tail predicated), each requantisation
// computed exactly; the exporters' shifts take a form that keeps the multiply
// pipe as busy as the integer one (docs/numerics.md#add).
void add_s8_mve(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): one int32 lane per element,
// each requantisation computed exactly.
void add_s8_hwy(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);
#endif
// The build's choice, the last of kAddVariants (below).
void add_s8(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n);

// The contract (operators-cortex-m.md). self, other and out are int8 in any
// layout; kernels/common/channel_broadcast.h checks how they pair.
// quantized_add and quantized_sub take the same arguments
// (kernels/common/binary_args.h): self, other and out int8, each input with its
// zero point and (multiplier, shift), then out's, then the activation bounds.
inline constexpr const auto& kAddArgs = kernels::kRequantizedBinaryArgs;
inline constexpr runtime::OperatorContract kAddContract =
    runtime::make_contract("cortex_m::quantized_add.out", kAddArgs, "output_zero_point", false,
                           runtime::kRunsInPlace);

// prepare returns InvalidArgument for a zero point outside [-128, 127], a
// multiplier outside [0, 2^31) (0 is legal), a shift outside [-31, 30], an
// activation range not within [-128, 127] with min <= max, or shapes that are
// neither identical nor a channel broadcast (both 4-D, same C, one of them C
// elements; kernels/common/channel_broadcast.h); NotSupported for a channel
// broadcast whose full-size tensors are not channels_last (the contract's
// kinds and dtypes are checked before it runs).
runtime::Error add_prepare(runtime::PrepareContext& ctx);
runtime::Error add_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::AddFn> kAddVariants[] = {
    {"ref", &cortex_m::add_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::add_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::add_s8_hwy)
};

}  // namespace etns::kernels
