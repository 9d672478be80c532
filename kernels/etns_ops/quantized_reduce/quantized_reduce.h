#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::quantized_reduce.out on int8 (docs/numerics.md#quantized_reduce):
// TFLite Micro's int8 MEAN, SUM and REDUCE_MAX, each branch of upstream's
// arithmetic one `reduction` code. The input, walked in its memory order, is viewed as
// [outer, reduce_outer, middle, reduce, inner] (ReduceGeometry): once size-1
// dims are dropped and neighbours of one kind merged, kept and reduced runs
// alternate, and prepare accepts at most two reduced runs. For each output
// (o, m, i), over the count = reduce_outer * reduce elements x:
//   MeanTruncated  out = (int8)(sum(x) / count), C division toward zero
//                  (reference_ops::Mean, TFLM's branch for equal grids)
//   MeanRescaled   mean = (float)sum(x) / (float)count
//                  out = clamp(round(mean * scale + bias) + (float)zp_out, -128, 127)
//                  with bias = (float)(-zp_in) * scale
//                  (reference_ops::QuantizedMeanOrSum, compute_sum false)
//   SumRescaled    v = (int32)round((float)sum(x) * scale + bias) + zp_out, out = (int8)v
//                  (wraps, no clamp) with bias = ((float)(-zp_in) * scale) * (float)count
//                  (reference_ops::QuantizedMeanOrSum, compute_sum true)
//   Max            out = max(x) (reference_ops::ReduceGeneric from -128)
// sum(x) is the exact int32 sum of the raw codes (upstream's temp_sum; the zero
// point enters through bias), so the order of additions cannot matter; every
// float operation is float32, in upstream's order, never contracted (the
// build passes -ffp-contract=off), and round is half away from zero (std::round).
namespace etns::etns_ops {

// The branches of TFLM's arithmetic; the values are the `reduction` argument.
enum class Reduction : int32_t {
  MeanTruncated = 0,
  MeanRescaled = 1,
  SumRescaled = 2,
  Max = 3,
};

struct QuantizedReduceParams {
  Reduction reduction = Reduction::MeanTruncated;
  int32_t count = 1;             // elements per output, at most 2^24
  int32_t out_zero_point = 0;
  float scale = 1.0F;            // float32 input_scale / output_scale
  float bias = 0.0F;             // as the reduction defines it (above)
  float count_f = 1.0F;          // (float)count, exact
};
ETNS_TARGET_LAYOUT(QuantizedReduceParams, runtime::StructLayout()
                                              .member(runtime::fixed<int32_t>(), 3)
                                              .member(runtime::fixed<float>(), 3)
                                              .done());

// Row-major sizes of the input view; out is [outer, middle, inner].
struct ReduceGeometry {
  size_t outer = 1;
  size_t reduce_outer = 1;
  size_t middle = 1;
  size_t reduce = 1;
  size_t inner = 1;

  size_t count() const { return reduce_outer * reduce; }
  size_t outputs() const { return outer * middle * inner; }
};
ETNS_TARGET_LAYOUT(ReduceGeometry, runtime::StructLayout().member(runtime::word(abi), 5).done());

// What prepare stores for run.
struct QuantizedReduceState {
  QuantizedReduceParams params;
  ReduceGeometry geometry;
};
ETNS_TARGET_LAYOUT(QuantizedReduceState, runtime::StructLayout()
                                             .member(runtime::layout_of<QuantizedReduceParams>(abi))
                                             .member(runtime::layout_of<ReduceGeometry>(abi))
                                             .done());

// TfLiteRound on float32 (std::round): half away from zero, exact for every
// finite float. |x| >= 2^23 is already an integer; below, x - trunc(x) is exact.
inline float round_half_away_from_zero(float x) {
  if (!(x > -8388608.0F && x < 8388608.0F)) return x;
  const float whole = static_cast<float>(static_cast<int32_t>(x));
  const float fraction = x - whole;
  if (fraction >= 0.5F) return whole + 1.0F;
  if (fraction <= -0.5F) return whole - 1.0F;
  return whole;
}

// One output from its accumulator: the exact sum of the raw codes, or their
// maximum for Max. Every variant finishes through this function.
inline int8_t finish_reduction(const QuantizedReduceParams& p, int32_t acc) {
  switch (p.reduction) {
    case Reduction::MeanTruncated:
      return static_cast<int8_t>(acc / p.count);
    case Reduction::MeanRescaled: {
      const float mean = static_cast<float>(acc) / p.count_f;
      const float scaled = mean * p.scale;
      float result = round_half_away_from_zero(scaled + p.bias) + static_cast<float>(p.out_zero_point);
      result = std::min(result, 127.0F);
      result = std::max(result, -128.0F);
      return static_cast<int8_t>(result);
    }
    case Reduction::SumRescaled: {
      const float scaled = static_cast<float>(acc) * p.scale;
      const int32_t value = static_cast<int32_t>(round_half_away_from_zero(scaled + p.bias)) + p.out_zero_point;
      // int8_t of an int32 keeps the low byte (two's complement), as upstream's cast.
      return static_cast<int8_t>(static_cast<uint8_t>(static_cast<uint32_t>(value) & 0xFFU));
    }
    case Reduction::Max:
      break;
  }
  return static_cast<int8_t>(acc);
}

// in holds the geometry's outer * reduce_outer * middle * reduce * inner bytes;
// out holds outputs() bytes.
using QuantizedReduceFn = void (*)(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in,
                                   int8_t* out);

// The definition: per output, a plain loop over its elements, then finish_reduction.
void quantized_reduce_s8_ref(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in,
                             int8_t* out);
#if ETNS_HAVE_MVE
// Helium: columns (inner > 1) as 16-bit lane sums (or byte maxima) of rows, 16
// columns per pass (two rows per loop pass when all 16 are columns), widened to
// 32 bits every 256 rows; contiguous runs
// (inner == 1) as add-across-vector sums (or maxima), 16 bytes per instruction.
void quantized_reduce_s8_mve(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in,
                             int8_t* out);
#endif
// The build's choice, the last of kQuantizedReduceVariants (below).
void quantized_reduce_s8(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in, int8_t* out);

// The contract. self and out are int8 in any dim order: the kernel walks
// self's buffer in its memory order (a channels_last [N, C, H, W] as N, H, W, C)
// and writes the kept positions in that order, so out's sizes read in out's
// memory order must be the kept ones read in self's.
//   dims               the reduced logical dims of self, each in [0, rank) and named
//                      once, any order (the writer resolves negative and
//                      repeated axes, as TFLM's ResolveAxis does)
//   keepdim            out keeps each reduced dim as size 1 (true) or drops it
//   reduction          a Reduction code: which of TFLM's branches computes out
//   input_zero_point   self's zero point, [-128, 127] (the rescaled branches' bias)
//   output_zero_point  out's zero point, [-128, 127] (the rescaled branches)
//   scale              self's scale / out's scale as one float32 division
//                      (upstream divides in float at run time); finite, > 0
inline constexpr runtime::ArgSpec kQuantizedReduceArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_list_arg("dims"),
    runtime::bool_arg("keepdim"),
    runtime::int_arg("reduction"),
    runtime::int_arg("input_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::double_arg("scale"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kQuantizedReduceContract =
    runtime::make_contract("etns_ops::quantized_reduce.out", kQuantizedReduceArgs, "output_zero_point");

// prepare returns InvalidArgument for a dim out of range or named twice, a
// reduction code outside 0..3, zero points outside [-128, 127], a scale not
// finite and > 0 as float32, out of another shape (in memory order) than
// self's with the dims removed (keepdim false) or set to 1 (keepdim true), a count above 2^24 (the
// int32 sum and its float32 conversion stay exact) or, for SumRescaled, sums
// whose scaled value could leave int32; NotSupported for dims leaving more than
// two separate reduced runs or reducing no elements. It stores a
// QuantizedReduceState in the method arena (OutOfMemory).
runtime::Error quantized_reduce_prepare(runtime::PrepareContext& ctx);
runtime::Error quantized_reduce_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::QuantizedReduceFn> kQuantizedReduceVariants[] = {
    {"ref", &etns_ops::quantized_reduce_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::quantized_reduce_s8_mve)
};

}  // namespace etns::kernels
