#pragma once

#include <cstdint>
#include <vector>

// TFLM's RESIZE_NEAREST_NEIGHBOR source indices (reference
// resize_nearest_neighbor.h, GetNearestNeighbor): the input row or column
// every output row or column copies. The arithmetic is float32, as TFLM's on
// the M55: scale = (in - 1) / float(out - 1) with align_corners and out > 1,
// else in / float(out); the position (i + offset) * scale, offset 0.5 with
// half_pixel_centers; rounded half away from zero (TfLiteRound) with
// align_corners, else floored; then at most in - 1, and with
// half_pixel_centers at least 0.
namespace etns::tools::tflm {

int32_t nearest_neighbor(int32_t output_index, int32_t input_size, int32_t output_size, bool align_corners,
                         bool half_pixel_centers);

// The index of each of `output_size` outputs.
std::vector<int32_t> nearest_neighbors(int32_t input_size, int32_t output_size, bool align_corners,
                                       bool half_pixel_centers);

}  // namespace etns::tools::tflm
