#pragma once

#include <cstdint>
#include <string>
#include <vector>

// TFLM's STRIDED_SLICE (strided_slice_common.cc's Prepare, reference
// strided_slice.h's Eval, strided_slice_logic.h) as the walk an imported
// program makes: per input axis, where it starts, where it stops and its
// step, exactly as TFLM's Eval iterates (tflm_numerics.h).
namespace etns::tools::tflm {

struct StridedSliceParams {
  std::vector<int32_t> begin, end, strides;  // one per input axis
  int32_t begin_mask = 0;
  int32_t end_mask = 0;
  int32_t shrink_axis_mask = 0;
};

// One input axis of the walk: start, start + stride, ... while before stop
// (above it for a negative stride).
struct SliceAxis {
  int32_t start = 0;
  int32_t stop = 0;
  int32_t stride = 1;
  int32_t count() const;  // the indices the walk visits
};

struct StridedSlicePlan {
  std::vector<SliceAxis> axes;          // one per input axis
  std::vector<int32_t> output_shape;    // Prepare's: the axes not shrunk
};

// TFLM's Prepare and Eval: the input rank at most 4 ("input dim should not
// exceed 4"), begin, end and strides one value per input axis, no stride 0.
// Prepare's output shape is ceil((stop - start) / float(stride)), at least 0,
// for each axis not shrunk, from StartForAxis/StopForAxis; the walk is Eval's
// StridedSliceStartForAxis/StridedSliceEndForAxis, where the begin and end
// masks apply after the clamp and a shrunk axis stops at start + 1 (at start
// when start is past the axis). TFLM zeroes the ellipsis and new-axis masks
// and never sets `offset`, so neither takes part. Throws Failure naming
// `what` for what TFLM refuses, and for a walk that visits a different
// number of elements than the output shape holds (TFLM would leave bytes
// unwritten: a shrunk axis with a negative stride, or past its end).
StridedSlicePlan strided_slice_plan(const std::vector<int32_t>& input_shape, const StridedSliceParams& p,
                                    const std::string& what);

// The walk over a row-major input of `input_shape` with `element_bytes`
// per element: the output's bytes in TFLM's order.
std::vector<uint8_t> strided_slice_bytes(const StridedSlicePlan& plan, const std::vector<int32_t>& input_shape,
                                         const std::vector<uint8_t>& input, size_t element_bytes);

}  // namespace etns::tools::tflm
