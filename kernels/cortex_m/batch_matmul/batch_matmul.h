#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

namespace etns::cortex_m {

// cortex_m::quantized_batch_matmul.out: CMSIS-NN arm_batch_matmul_s8
// (docs/numerics.md#batch_matmul). For every batch b, row m and column n:
//
//   acc = sum over k of (lhs[b][m][k] + lhs_offset) * (rhs[b][n][k] + rhs_offset)
//   out[b][m][n] = clamp(RQ(acc, M, S) + out_offset, -128, 127)
//
// with acc wrapping modulo 2^32 as CMSIS-NN's int32 sums do. rhs is stored
// transposed, [batches, cols, depth], so both operands are read along depth.
// The offsets are the negated zero points of lhs and rhs (CMSIS-NN's
// convention, as upstream's pass passes them) and out's zero point.
struct BatchMatmulParams {
  int32_t batches = 0;
  int32_t rows = 0;   // M
  int32_t cols = 0;   // N
  int32_t depth = 0;  // K
  int32_t lhs_offset = 0;
  int32_t rhs_offset = 0;
  int32_t out_offset = 0;
  kernels::Requant out;
};
ETNS_TARGET_LAYOUT(BatchMatmulParams, runtime::StructLayout()
                                          .member(runtime::fixed<int32_t>(), 7)
                                          .member(runtime::layout_of<kernels::Requant>(abi))
                                          .done());

// lhs [batches, rows, depth], rhs [batches, cols, depth], out [batches, rows,
// cols], all contiguous. `scratch` holds batch_matmul_scratch_bytes(p) bytes,
// 4-byte aligned, contents undefined; the reference does not use it.
using BatchMatmulFn = void (*)(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                               int8_t* out, int32_t* scratch);

void batch_matmul_s8_ref(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                         int8_t* out, int32_t* scratch);
#if ETNS_HAVE_MVE
// Helium: per batch, each rhs row's offset terms once (into scratch), then
// four columns at a time as 16-lane dot products along depth, the last pass
// predicated (docs/numerics.md#batch_matmul).
void batch_matmul_s8_mve(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                         int8_t* out, int32_t* scratch);
#endif
// The build's choice, the last of kBatchMatmulVariants (below).
void batch_matmul_s8(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                     int8_t* out, int32_t* scratch);
// Scratch for any variant: the Helium variant's per-column offset terms and
// one row of dot products, 4 * (cols + cols rounded up to 4) bytes.
size_t batch_matmul_scratch_bytes(const BatchMatmulParams& p);

// The contract (operators-cortex-m.md): lhs [B, M, K], rhs_transposed
// [B, N, K] and out [B, M, N], int8 and row-major in memory (upstream's
// arm_batch_matmul_s8 reads and writes row-major buffers). Despite their names
// lhs_zero_point and rhs_zero_point are offsets (the negated zero points);
// output_zero_point is out's zero point.
inline constexpr runtime::ArgSpec kBatchMatmulArgs[] = {
    runtime::tensor_arg("lhs", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_arg("lhs_zero_point"),
    runtime::tensor_arg("rhs_transposed", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_arg("rhs_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("output_multiplier"),
    runtime::int_arg("output_shift"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kBatchMatmulContract = runtime::make_contract(
    "cortex_m::quantized_batch_matmul.out", kBatchMatmulArgs, "output_zero_point");

// prepare returns InvalidArgument for a rank other than 3, batches or depths
// that differ, an out other than [batches, rows, cols], an offset outside
// [-127, 128], an output zero point outside [-128, 127], a multiplier outside
// [0, 2^31) (0 is legal) or a shift outside [-31, 30] (the contract's kinds,
// dtypes and layouts are checked before it runs).
runtime::Error batch_matmul_prepare(runtime::PrepareContext& ctx);
runtime::Error batch_matmul_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::BatchMatmulFn> kBatchMatmulVariants[] = {
    {"ref", &cortex_m::batch_matmul_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::batch_matmul_s8_mve)
};

}  // namespace etns::kernels
