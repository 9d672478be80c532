#include "tools/writers/import/tflm/resize_nearest.h"

#include <algorithm>
#include <cmath>

namespace etns::tools::tflm {

int32_t nearest_neighbor(int32_t output_index, int32_t input_size, int32_t output_size, bool align_corners,
                         bool half_pixel_centers) {
  const float scale = align_corners && output_size > 1
                          ? static_cast<float>(input_size - 1) / static_cast<float>(output_size - 1)
                          : static_cast<float>(input_size) / static_cast<float>(output_size);
  const float offset = half_pixel_centers ? 0.5F : 0.0F;
  const float position = (static_cast<float>(output_index) + offset) * scale;
  const int32_t nearest =
      align_corners ? static_cast<int32_t>(std::round(position)) : static_cast<int32_t>(std::floor(position));
  int32_t index = std::min(nearest, input_size - 1);
  if (half_pixel_centers) index = std::max(index, int32_t{0});
  return index;
}

std::vector<int32_t> nearest_neighbors(int32_t input_size, int32_t output_size, bool align_corners,
                                       bool half_pixel_centers) {
  std::vector<int32_t> out;
  out.reserve(static_cast<size_t>(output_size));
  for (int32_t i = 0; i < output_size; ++i) {
    out.push_back(nearest_neighbor(i, input_size, output_size, align_corners, half_pixel_centers));
  }
  return out;
}

}  // namespace etns::tools::tflm
