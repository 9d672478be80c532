#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/strided_copy.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"

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
// The build's choice, the last of kernels/variants.h's kTransposeVariants.
void transpose_s8(const TransposeParams& p, const int8_t* input, int8_t* out);

// Arguments: input, perm int[], out. prepare returns InvalidArgument for a
// dtype other than int8, a rank outside [1, 4] (upstream's limit), a perm of
// another length, an entry outside [-rank, rank) or repeated (negative entries
// count from the end, as the exporter's p % rank does), or an out whose sizes
// are not input's permuted; NotSupported for an input or out not stored in
// logical order (upstream walks the buffers as contiguous); InvalidProgram for
// a wrong kind of argument.
runtime::Error transpose_prepare(runtime::PrepareContext& ctx);
runtime::Error transpose_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
