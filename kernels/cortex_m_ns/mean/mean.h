#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
#include "runtime/core/target_layout.h"

// cortex_m_ns::quantized_mean.out on int8 (docs/numerics.md#mean, operators.md §3.5).
// The row-major input is viewed as [outer, reduce_outer, middle, reduce, inner]
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
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): contiguous reductions as
// byte sums into 64-bit lanes, columns as int32 lane sums of rows, a vector
// of columns requantised together.
void mean_s8_hwy(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out);
#endif
// The build's choice, the last of kMeanVariants (below).
void mean_s8(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out);

// The contract (operators.md §3.5). self and out are int8 and row-major in
// memory (the kernel reads logical sizes against the buffer; a size-1 dim may
// sit anywhere in the dim order); axis_mask holds 4 entries, right-aligned
// like the sizes into CMSIS's (n, h, w, c); keepdim only shapes out.
inline constexpr runtime::ArgSpec kMeanArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_arg("input_zero_point"),
    runtime::int_list_arg("axis_mask"),
    runtime::bool_arg("keepdim"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("output_multiplier"),
    runtime::int_arg("output_shift"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kMeanContract =
    runtime::make_contract("cortex_m_ns::quantized_mean.out", kMeanArgs, "output_zero_point");

// prepare returns InvalidArgument for self or out of rank above 4, an
// axis_mask without exactly 4 entries each 0 or 1, zero points outside
// [-128, 127], a multiplier outside [0, 2^31) or shift outside [-31, 30]
// (multiplier 0 and shift -31 are valid), more than 2^31 / 255 elements per
// output (the int32 sum could overflow) or an out without one element per kept
// position (the contract's kinds, dtypes and layouts are checked before it
// runs), and stores a MeanState in the method arena (OutOfMemory).
runtime::Error mean_prepare(runtime::PrepareContext& ctx);
runtime::Error mean_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m_ns::MeanFn> kMeanVariants[] = {
    {"ref", &cortex_m_ns::mean_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m_ns::mean_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m_ns::mean_s8_hwy)
};

}  // namespace etns::kernels
