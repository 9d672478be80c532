#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::gather.out (docs/numerics.md#gather): an index_select with batch
// dims, TFLite's GATHER. With B the product of self's first batch_dims dims,
// O that of the dims from there to `axis`, A = self.size(axis), I that of the
// dims after axis and J the element count of indices' dims after batch_dims,
//   out[b, o, j, i] = self[b, o, indices[b, j], i]
// for b < B, o < O, j < J, i < I (TFLite Micro's gather.cc walks the same
// four loops). No arithmetic on the values: int8 and float32 elements are
// copied as they are. Indices are checked against [0, A): constant ones once
// at load, others on every run, which then fails (InvalidArgument) before out
// is written, as TFLM's Eval returns an error.
namespace etns::etns_ops {

// The sizes prepare derives, in self's memory order. Each (b, o, j) copies
// one run of inner_bytes contiguous bytes.
struct GatherParams {
  int32_t batches = 1;      // B
  int32_t outer = 1;        // O
  int32_t axis_size = 1;    // A
  int32_t coords = 1;       // J
  int32_t inner_bytes = 1;  // I times the element size
};
ETNS_TARGET_LAYOUT(GatherParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 5).done());

// indices holds p.batches * p.coords entries, each in [0, p.axis_size); self
// holds B * O * A * inner_bytes bytes, out B * O * J * inner_bytes.
using GatherFn = void (*)(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out);

// The definition: one byte at a time.
void gather_ref(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out);
#if ETNS_HAVE_MVE
// Helium: each run one tail-predicated 16-byte copy loop; runs of one byte
// (an int8 gather on the innermost dim) copied byte by byte.
void gather_mve(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out);
#endif
// The build's choice, the last of kGatherVariants (below).
void gather(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out);

// Index of the first entry of indices (B * J of them) outside [0, axis_size),
// or -1 when every entry is inside.
int64_t first_bad_index(const int32_t* indices, int64_t count, int32_t axis_size);

// The contract. self and out are int8 or float32, the same dtype; indices is
// int32, row-major, constant or computed. axis is in [batch_dims, rank(self)),
// batch_dims in [0, rank(indices)], with indices.size(d) == self.size(d) for
// d < batch_dims; out's sizes are self's first `axis` ones, then indices'
// after batch_dims, then self's after axis. self and out are both in the
// default dim order, or (when indices has one dim after batch_dims, so the
// ranks agree) both in one dim order that keeps the batch dims outermost in
// their order: a channels_last activation is read where it lies. out never
// overlaps self or indices.
inline constexpr runtime::ArgSpec kGatherArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8 | runtime::kFloat32),
    runtime::tensor_arg("indices", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::int_arg("axis"),
    runtime::int_arg("batch_dims"),
    runtime::tensor_arg("out", runtime::kInt8 | runtime::kFloat32),
};
inline constexpr runtime::OperatorContract kGatherContract =
    runtime::make_contract("etns_ops::gather.out", kGatherArgs, nullptr, true);

// prepare returns InvalidArgument for out of another dtype than self, an axis
// or batch_dims outside its range, batch dims of indices unlike self's, out
// of other sizes than the rule above, or a constant index outside self's
// axis; NotSupported for dim orders other than the two above and for self,
// out or indices above 2^31 - 1 bytes. It stores GatherParams in the method
// arena (OutOfMemory). run returns InvalidArgument for a computed index
// outside [0, A), logging its position, value and A.
runtime::Error gather_prepare(runtime::PrepareContext& ctx);
runtime::Error gather_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::GatherFn> kGatherVariants[] = {
    {"ref", &etns_ops::gather_ref},
    ETNS_MVE_VARIANT(&etns_ops::gather_mve)
};

}  // namespace etns::kernels
