#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"

// TFLM's int8 MEAN, SUM and REDUCE_MAX (reduce_common.cc: PrepareMeanOrSumHelper,
// PrepareMaxHelper, EvalMeanHelper, EvalSumHelper, EvalMaxHelper; TFLite's
// reference_ops::ResolveAxis, Mean, QuantizedMeanOrSum, ReduceGeneric in
// reference/reduce.h) as etns_ops::quantized_reduce's arguments: which branch
// upstream takes, the axes it resolves and the float32 scale it divides.
namespace etns::tools::tflm {

// ResolveAxis: a negative axis counts from the end (axis + rank), a repeated
// one is dropped; the rest keep their first position. Throws Failure naming
// `what` for an axis outside [-rank, rank) (upstream returns false there).
std::vector<int32_t> resolve_axes(const std::vector<int32_t>& axes, size_t rank, const std::string& what);

// The arguments of one imported reduction.
struct ReduceParams {
  etns_ops::Reduction reduction = etns_ops::Reduction::MeanTruncated;
  float scale = 1.0F;  // input_scale / output_scale, one float32 division as upstream's Eval
};

// MEAN: reference_ops::Mean (an integer sum divided toward zero) when the two
// grids are equal (zero points equal and scales equal as float32), else
// QuantizedMeanOrSum's float rescale.
ReduceParams mean_params(float input_scale, int32_t input_zero_point, float output_scale,
                         int32_t output_zero_point);
// SUM: always QuantizedMeanOrSum's float rescale (compute_sum).
ReduceParams sum_params(float input_scale, float output_scale);

// The output shape TFLite gives a reduction of `input` over the resolved
// axes: each dropped, or kept as 1 with keep_dims.
std::vector<int32_t> reduced_shape(const std::vector<int32_t>& input, const std::vector<int32_t>& axes,
                                   bool keep_dims);

}  // namespace etns::tools::tflm
