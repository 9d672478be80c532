#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

// cortex_m_ns::quantized_mean.out on int8 (docs/numerics.md#mean, operators.md §3.5).
// The contiguous input is viewed as [outer, reduce_outer, middle, reduce, inner]
// (MeanGeometry): any axis mask, once size-1 dims are dropped and neighbours of
// one kind merged, alternates kept and reduced runs, and at most two reduced
// runs fit in 4 dims. For each output (o, m, i):
//   acc = sum over (r, s) of (in[o, r, m, s, i] - in_zero_point)      (exact int32)
//   out[o, m, i] = clamp(RQ(acc, out) + out_zero_point, -128, 127)
// The division by the count is folded into out = QM(s_in / (s_out * count)).
// prepare bounds the count by 2^31 / 255 so acc cannot overflow.
namespace etns::cortex_m_ns {

struct MeanParams {
  int32_t in_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant out;
};
ETNS_TARGET_LAYOUT(MeanParams, runtime::StructLayout()
                                   .member(runtime::fixed<int32_t>(), 2)
                                   .member(runtime::layout_of<kernels::Requant>(abi))
                                   .done());

// Row-major sizes of the input view; out is [outer, middle, inner].
struct MeanGeometry {
  size_t outer = 1;
  size_t reduce_outer = 1;
  size_t middle = 1;
  size_t reduce = 1;
  size_t inner = 1;

  size_t count() const { return reduce_outer * reduce; }
  size_t outputs() const { return outer * middle * inner; }
};
ETNS_TARGET_LAYOUT(MeanGeometry, runtime::StructLayout().member(runtime::word(abi), 5).done());

// What prepare stores for run.
struct MeanState {
  MeanParams params;
  MeanGeometry geometry;
};
ETNS_TARGET_LAYOUT(MeanState, runtime::StructLayout()
                                  .member(runtime::layout_of<MeanParams>(abi))
                                  .member(runtime::layout_of<MeanGeometry>(abi))
                                  .done());

// in holds the geometry's outer * reduce_outer * middle * reduce * inner bytes.
using MeanFn = void (*)(const MeanParams& p, const MeanGeometry& g, const int8_t* in,
                        int8_t* out);

void mean_s8_ref(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: contiguous reductions (inner == 1) as add-across-vector sums, 16
// bytes per instruction; columns (inner > 1) as 16-bit lane sums of rows,
// widened to 32 bits every 256 rows; requantisation 4 outputs at a time.
void mean_s8_mve(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out);
#endif
// The build's choice, the last of kernels/variants.h's kMeanVariants.
void mean_s8(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out);

// Validates the 8 schema arguments (InvalidArgument; InvalidProgram for a wrong
// value kind) and stores a MeanState in the method arena (OutOfMemory).
runtime::Error mean_prepare(runtime::PrepareContext& ctx);
runtime::Error mean_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns
