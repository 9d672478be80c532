#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::arg_reduce.out (docs/numerics.md#arg_reduce): TFLite's ARG_MAX
// and ARG_MIN on int8. With O the product of self's dims before `dim`,
// A = self.size(dim) and I the product of the dims after it,
//   out[o, i] = the first a in [0, A) whose self[o, a, i] is the largest
//               (is_min false) or the smallest (is_min true)
// as int32. "First" is upstream's: reference_ops::ArgMinMax starts from a = 0
// and moves only on a strictly greater (std::greater) or strictly smaller
// (std::less) value, so of equal extremes the lowest index wins.
namespace etns::etns_ops {

// The sizes prepare derives; self is contiguous.
struct ArgReduceParams {
  int32_t outer = 1;      // O
  int32_t axis_size = 1;  // A, at least 1
  int32_t inner = 1;      // I
  int32_t is_min = 0;     // 0: ARG_MAX, 1: ARG_MIN
};
ETNS_TARGET_LAYOUT(ArgReduceParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 4).done());

// self holds O * A * I values, out O * I.
using ArgReduceFn = void (*)(const ArgReduceParams& p, const int8_t* self, int32_t* out);

// The definition: upstream's loops, one value at a time.
void arg_reduce_ref(const ArgReduceParams& p, const int8_t* self, int32_t* out);
#if ETNS_HAVE_MVE
// Helium where the reduced values are contiguous (I = 1): the extreme from
// one tail-predicated vmaxv/vminv pass, then its first position from a
// vcmpeq pass that stops at the first matching lane; I > 1 runs the
// reference's loop.
void arg_reduce_mve(const ArgReduceParams& p, const int8_t* self, int32_t* out);
#endif
// The build's choice, the last of kArgReduceVariants (below).
void arg_reduce(const ArgReduceParams& p, const int8_t* self, int32_t* out);

// The contract. self is int8 of rank 1 to kMaxTensorRank, contiguous; dim in
// [-rank, rank) (negative from the end); out is int32, contiguous, with
// self's sizes without dim.
inline constexpr runtime::ArgSpec kArgReduceArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_arg("dim"),
    runtime::bool_arg("is_min"),
    runtime::tensor_arg("out", runtime::kInt32, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kArgReduceContract =
    runtime::make_contract("etns_ops::arg_reduce.out", kArgReduceArgs, nullptr, true);

// prepare returns InvalidArgument for a dim outside [-rank, rank), a
// zero-sized dim, out of other sizes than self's without dim, and
// NotSupported for self above 2^31 - 1 elements. It stores ArgReduceParams
// in the method arena (OutOfMemory).
runtime::Error arg_reduce_prepare(runtime::PrepareContext& ctx);
runtime::Error arg_reduce_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::ArgReduceFn> kArgReduceVariants[] = {
    {"ref", &etns_ops::arg_reduce_ref},
    ETNS_MVE_VARIANT(&etns_ops::arg_reduce_mve)
};

}  // namespace etns::kernels
