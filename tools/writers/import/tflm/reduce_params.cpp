#include "tools/writers/import/tflm/reduce_params.h"

#include <algorithm>

#include "tools/common/failure.h"

namespace etns::tools::tflm {

std::vector<int32_t> resolve_axes(const std::vector<int32_t>& axes, size_t rank, const std::string& what) {
  std::vector<int32_t> resolved;
  const int64_t n = static_cast<int64_t>(rank);
  for (const int32_t axis : axes) {
    const int64_t current = axis < 0 ? axis + n : axis;
    if (current < 0 || current >= n) {
      throw Failure(what + ": axis " + std::to_string(axis) + " outside [" + std::to_string(-n) + ", " +
                    std::to_string(n) + ") for rank " + std::to_string(rank));
    }
    if (std::find(resolved.begin(), resolved.end(), current) == resolved.end()) {
      resolved.push_back(static_cast<int32_t>(current));
    }
  }
  return resolved;
}

ReduceParams mean_params(float input_scale, int32_t input_zero_point, float output_scale,
                         int32_t output_zero_point) {
  ReduceParams p;
  // EvalIntegerMean compares the grids as stored in OpDataReduce: int zero
  // points and float scales.
  const bool same_grid = input_zero_point == output_zero_point && input_scale == output_scale;
  p.reduction = same_grid ? etns_ops::Reduction::MeanTruncated : etns_ops::Reduction::MeanRescaled;
  p.scale = input_scale / output_scale;
  return p;
}

ReduceParams sum_params(float input_scale, float output_scale) {
  ReduceParams p;
  p.reduction = etns_ops::Reduction::SumRescaled;
  p.scale = input_scale / output_scale;
  return p;
}

std::vector<int32_t> reduced_shape(const std::vector<int32_t>& input, const std::vector<int32_t>& axes,
                                   bool keep_dims) {
  std::vector<int32_t> shape;
  for (size_t d = 0; d < input.size(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int32_t>(d)) != axes.end();
    if (!reduced) {
      shape.push_back(input[d]);
    } else if (keep_dims) {
      shape.push_back(1);
    }
  }
  return shape;
}

}  // namespace etns::tools::tflm
