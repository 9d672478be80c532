#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::slice_copy.out (docs/numerics.md#slice_copy): a strided window of
// self, copied. Over every index (i_0, ..., i_{r-1}) of out's logical shape,
//   out[i_0, ..., i_{r-1}] = self[start_0 + i_0 * step_0, ..., start_{r-1} + i_{r-1} * step_{r-1}]
// with steps of either sign (never 0). No arithmetic on the values: int8 and
// int32 elements are copied as they are. `etns import` writes TFLite's SLICE,
// STRIDED_SLICE, SPLIT, SPLIT_V and UNPACK of activations with it, one call
// per output.
namespace etns::etns_ops {

// TFLite Micro's slicing kernels take at most 5 dims (slice.cc and
// strided_slice's kMaxDim).
inline constexpr size_t kSliceCopyMaxRank = 5;

// The walk prepare derives: out's elements in out's memory order, outermost
// dim first, dims that continue one another in both tensors merged, unused
// leading dims with count 1. Offsets are in bytes, so run is one walk for
// every element size.
struct SliceCopyParams {
  int32_t count[kSliceCopyMaxRank] = {1, 1, 1, 1, 1};   // out's elements along each walked dim
  int32_t stride[kSliceCopyMaxRank] = {0, 0, 0, 0, 0};  // self bytes between neighbours along it
  int32_t offset = 0;        // the self byte out's first element starts at
  int32_t element_size = 1;  // 1 (int8) or 4 (int32)
};
ETNS_TARGET_LAYOUT(SliceCopyParams,
                   runtime::StructLayout().member(runtime::fixed<int32_t>(), 2 * kSliceCopyMaxRank + 2).done());

// out receives the product of p.count elements of p.element_size bytes each,
// written in order; self is read at p.offset plus each walked dim's stride.
using SliceCopyFn = void (*)(const SliceCopyParams& p, const uint8_t* self, uint8_t* out);

// The definition: one element at a time.
void slice_copy_ref(const SliceCopyParams& p, const uint8_t* self, uint8_t* out);
#if ETNS_HAVE_MVE
// Helium: an innermost run that is contiguous in self (stride == element
// size) is one tail-predicated 16-byte copy loop; any other run is copied
// element by element.
void slice_copy_mve(const SliceCopyParams& p, const uint8_t* self, uint8_t* out);
#endif
// The build's choice, the last of kSliceCopyVariants (below).
void slice_copy(const SliceCopyParams& p, const uint8_t* self, uint8_t* out);

// The contract. self and out are int8 or int32, the same dtype, of the same
// rank (1 to 5), each in any dim order (each is walked through its own);
// start and step have one entry per dim. Every element out reads must lie
// inside self: for each dim d with out.size(d) > 0, start[d] and
// start[d] + (out.size(d) - 1) * step[d] are in [0, self.size(d)). out never
// overlaps self.
inline constexpr runtime::ArgSpec kSliceCopyArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8 | runtime::kInt32),
    runtime::int_list_arg("start"),
    runtime::int_list_arg("step"),
    runtime::tensor_arg("out", runtime::kInt8 | runtime::kInt32),
};
inline constexpr runtime::OperatorContract kSliceCopyContract =
    runtime::make_contract("etns_ops::slice_copy.out", kSliceCopyArgs, nullptr, true);

// prepare returns InvalidArgument for out of another dtype or rank than
// self, a rank outside [1, 5], start or step of another length than the
// rank, a step of 0, or an index outside self along any dim (computed in
// 64 bits); NotSupported for a self above 2^31 - 1 bytes (the walk's offsets
// are 32-bit). It stores SliceCopyParams in the method arena (OutOfMemory).
runtime::Error slice_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error slice_copy_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::SliceCopyFn> kSliceCopyVariants[] = {
    {"ref", &etns_ops::slice_copy_ref},
    ETNS_MVE_VARIANT(&etns_ops::slice_copy_mve)
};

}  // namespace etns::kernels
