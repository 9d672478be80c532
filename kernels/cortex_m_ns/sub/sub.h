#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/binary_args.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
#include "runtime/core/target_layout.h"

// cortex_m_ns::quantized_sub.out: out = self - other on int8 tensors with
// their own quantisation (docs/numerics.md#sub, operators.md §3.3):
//   a' = RQ((a - self_zero_point) * 2^20, self)
//   b' = RQ((b - other_zero_point) * 2^20, other)
//   out = clamp(RQ(a' - b', out) + out_zero_point, act_min, act_max)
// a' - b' saturates to int32 and the zero-point add is exact, where CMSIS's C
// code overflows (undefined) and its MVE code wraps; neither happens with the
// exporter's factors (self and other <= 0.5).
namespace etns::cortex_m_ns {

// The fixed headroom the wrapper passes to the kernel (operators.md §3.3).
constexpr int32_t kSubLeftShift = 20;

struct SubParams {
  int32_t self_zero_point = 0;
  int32_t other_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant self;
  kernels::Requant other;
  kernels::Requant out;
  int32_t act_min = -128;  // prepare guarantees -128 <= act_min <= act_max <= 127
  int32_t act_max = 127;
};
ETNS_TARGET_LAYOUT(SubParams, runtime::StructLayout()
                                  .member(runtime::fixed<int32_t>(), 3)
                                  .member(runtime::layout_of<kernels::Requant>(abi), 3)
                                  .member(runtime::fixed<int32_t>(), 2)
                                  .done());

// What prepare stores for run: the parameters and the walk over the buffers.
// Equal shapes: block = both steps = numel, one kernel call. A channel
// broadcast: block = C and the small operand's step is 0; run repeats that
// vector in scratch (requested by prepare) over a chunk of whole pixels and
// calls the kernel once per chunk.
struct SubState {
  SubParams params;
  size_t block = 0;
  size_t self_step = 0;
  size_t other_step = 0;
};
ETNS_TARGET_LAYOUT(SubState, runtime::StructLayout()
                                 .member(runtime::layout_of<SubParams>(abi))
                                 .member(runtime::word(abi), 3)  // block, self_step, other_step
                                 .done());

// Elementwise out[i] = f(self[i], other[i]) for i < n; the buffers may alias.
using SubFn = void (*)(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                       size_t n);

void sub_s8_ref(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: eight elements a step in int32 lanes, every requantisation computed
// exactly (no tables).
void sub_s8_mve(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): one int32 lane per
// element; each input's requantisation read from a 256-entry table (it
// depends on the byte alone), the output's computed as the MVE variant does.
// On AVX3_DL, 64 elements a step: the output stage too is read from byte
// tables (its integer parts and remainder ranks, exact) by byte permutes,
// with no multiply, in int8 lanes where the integer parts fit a byte, else
// int16.
void sub_s8_hwy(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n);
#endif
// The build's choice, the last of kSubVariants (below).
void sub_s8(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n);

// The contract (operators.md §3.3). self, other and out are int8; prepare
// checks how their shapes and memory orders fit together.
// quantized_add and quantized_sub take the same arguments
// (kernels/common/binary_args.h): self, other and out int8, each input with its
// zero point and (multiplier, shift), then out's, then the activation bounds.
inline constexpr const auto& kSubArgs = kernels::kRequantizedBinaryArgs;
inline constexpr runtime::OperatorContract kSubContract =
    runtime::make_contract("cortex_m_ns::quantized_sub.out", kSubArgs, "output_zero_point", false,
                           runtime::kRunsInPlace);

// prepare returns InvalidArgument for zero points or activation bounds outside
// [-128, 127], activation_min above activation_max, a multiplier outside
// [0, 2^31) or shift outside [-31, 30] (multiplier 0 and shift -31 are valid),
// or shapes that are neither equal (one memory order for all three) nor a
// channel broadcast (both 4-D, same C, one operand with C elements, the other
// and out channels-innermost in memory); the contract's kinds and dtypes are
// checked before it runs. It stores a SubState in the method arena
// (OutOfMemory) and, for a channel broadcast, requests scratch for the
// repeated small operand.
runtime::Error sub_prepare(runtime::PrepareContext& ctx);
runtime::Error sub_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m_ns::SubFn> kSubVariants[] = {
    {"ref", &cortex_m_ns::sub_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m_ns::sub_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m_ns::sub_s8_hwy)
};

}  // namespace etns::kernels
