#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/strided_copy.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"

namespace etns::cortex_m {

// cortex_m::transpose.out: CMSIS-NN arm_transpose_s8 (docs/numerics.md#transpose).
// out's logical dim d is input's logical dim perm[d]; both tensors are int8 and
// stored contiguously, so out = input.permute(perm).contiguous(). Nothing is
// computed, only moved.
//
// prepare turns the permutation into a strided walk (kernels/common/strided_copy.h):
// out written front to back, input read through one stride per out dim, size-1
// dims dropped and dims that stay neighbours in input merged. An identity perm
// (or one that only moves size-1 dims) becomes one contiguous run.
struct TransposeParams {
  kernels::StridedCopyPlan plan;
};
ETNS_TARGET_LAYOUT(TransposeParams, runtime::StructLayout()
                                        .member(runtime::layout_of<kernels::StridedCopyPlan>(abi))
                                        .done());

using TransposeFn = void (*)(const TransposeParams& p, const int8_t* input, int8_t* out);

void transpose_s8_ref(const TransposeParams& p, const int8_t* input, int8_t* out);
// The build's choice, the last of kTransposeVariants (below).
void transpose_s8(const TransposeParams& p, const int8_t* input, int8_t* out);

// The contract (operators-cortex-m.md): input and out int8, row-major in
// memory (upstream's arm_transpose_s8 walks both buffers as contiguous).
inline constexpr runtime::ArgSpec kTransposeArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_list_arg("perm"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kTransposeContract =
    runtime::make_contract("cortex_m::transpose.out", kTransposeArgs, nullptr, true);

// prepare returns InvalidArgument for a rank outside [1, 4] (upstream's
// limit), a perm of another length, an entry outside [-rank, rank) or
// repeated (negative entries count from the end, as the exporter's p % rank
// does), or an out whose sizes are not input's permuted (the contract's
// kinds, dtypes and layouts are checked before it runs).
runtime::Error transpose_prepare(runtime::PrepareContext& ctx);
runtime::Error transpose_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::TransposeFn> kTransposeVariants[] = {
    {"ref", &cortex_m::transpose_s8_ref},
};

}  // namespace etns::kernels
