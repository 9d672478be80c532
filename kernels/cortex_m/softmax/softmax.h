#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

namespace etns::cortex_m {

// cortex_m::softmax.out: int8 softmax over rows of the last dimension, output
// zero point -128 (operators-cortex-m.md). Numerics (docs/numerics.md#softmax):
// CMSIS-NN arm_softmax_s8's Helium path on every target. Per row, with
// max = the row's largest code and diff = x - max (in [-255, 0]):
//   e(diff)  = EXP(DHM(diff * 2^shift, multiplier))   for diff >= diff_min, else 0
//   sum      = sum of RDIV(e, 12) over the row
//   h        = leading zeros of sum;  bits = 35 - h
//   scale    = ONE_OVER_ONE_PLUS_X((sum << h) - 2^31)
//   out      = clamp(RDIV(DHM(scale, e), bits) - 128, -128, 127)   (-128 below diff_min)
// EXP is CMSIS-NN's exp on negative values, ONE_OVER_ONE_PLUS_X its
// Newton-Raphson reciprocal; every int32 step wraps as upstream's do, and an
// RDIV by 2^32 or more gives 0 (Helium's VRSHL).
struct SoftmaxParams {
  int32_t rows = 0;      // the product of the leading dims
  int32_t row_size = 0;  // the last dim
  int32_t multiplier = 0;
  int32_t shift = 0;
  int32_t diff_min = 0;
  // exp_table[d] = e(-d), d = max - x in [0, 255]: e depends on the
  // difference only, so vector variants look it up instead of evaluating
  // EXP's ~60 steps per element. softmax_init_params fills it from the
  // reference's own e; the reference does not read it.
  int32_t exp_table[256] = {};
};
ETNS_TARGET_LAYOUT(SoftmaxParams,
                   runtime::StructLayout().member(runtime::fixed<int32_t>(), 5 + 256).done());

// Sets the parameters and fills exp_table. multiplier in [0, 2^31), shift in
// [0, 31], diff_min <= 0 (what prepare accepts).
void softmax_init_params(SoftmaxParams& p, int32_t rows, int32_t row_size, int32_t multiplier,
                         int32_t shift, int32_t diff_min);

// The reference's e(diff) for diff in [-255, 0] (0 below diff_min).
int32_t softmax_exp_s8(const SoftmaxParams& p, int32_t diff);

// The once-per-row scalar step, shared by every variant: from a row's sum of
// RDIV(e, 12), the reciprocal scale and the final right shift (bits, in
// [3, 35]).
struct SoftmaxRowScale {
  int32_t scale;
  int32_t bits_over_unit;
};
SoftmaxRowScale softmax_row_scale(uint32_t sum);

// input and out: rows * row_size bytes, row after row.
using SoftmaxFn = void (*)(const SoftmaxParams& p, const int8_t* input, int8_t* out);

void softmax_s8_ref(const SoftmaxParams& p, const int8_t* input, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: the row's max 16 lanes a step, then two passes of four int32 lanes
// with exp_table gathered by difference; the reciprocal is scalar, once per row.
void softmax_s8_mve(const SoftmaxParams& p, const int8_t* input, int8_t* out);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): the row's max, then int32
// lanes with exp_table gathered by difference; the reciprocal is scalar,
// once per row.
void softmax_s8_hwy(const SoftmaxParams& p, const int8_t* input, int8_t* out);
#endif
// The build's choice, the last of kSoftmaxVariants (below).
void softmax_s8(const SoftmaxParams& p, const int8_t* input, int8_t* out);

// The contract (operators-cortex-m.md): input and out int8, row-major in
// memory (the kernel walks rows of the last dim).
inline constexpr runtime::ArgSpec kSoftmaxArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_arg("dim"),
    runtime::int_arg("input_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("input_multiplier"),
    runtime::int_arg("input_shift"),
    runtime::int_arg("diff_min"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kSoftmaxContract =
    runtime::make_contract("cortex_m::softmax.out", kSoftmaxArgs, "output_zero_point");

// prepare returns InvalidArgument for an input of rank 0 or empty, out not of
// input's shape, dim outside [-rank, rank), an input zero point outside
// [-128, 127], an output zero point other than -128 (CMSIS-NN's softmax writes
// that grid only), a multiplier outside [0, 2^31) (0 is legal), a shift
// outside [0, 31] (arm_softmax_s8 forms 1 << shift, undefined for a negative
// one) or diff_min > 0; NotSupported for a dim other than the last (the
// contract's kinds, dtypes and layouts are checked before it runs). The
// parameters (1 KiB with the table) live in the method arena.
runtime::Error softmax_prepare(runtime::PrepareContext& ctx);
runtime::Error softmax_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::SoftmaxFn> kSoftmaxVariants[] = {
    {"ref", &cortex_m::softmax_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::softmax_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::softmax_s8_hwy)
};

}  // namespace etns::kernels
