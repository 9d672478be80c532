#include "tools/writers/import/tflm/spatial_padding.h"

#include <algorithm>

namespace etns::tools::tflm {

SpatialPadding spatial_padding(tflite::Padding padding, int32_t in, int32_t filter, int32_t stride,
                               int32_t dilation) {
  const int64_t effective = (static_cast<int64_t>(filter) - 1) * dilation + 1;
  SpatialPadding p;
  if (padding == tflite::Padding::Same) {
    p.out = static_cast<int32_t>((static_cast<int64_t>(in) + stride - 1) / stride);
    const int64_t total = std::max<int64_t>((static_cast<int64_t>(p.out) - 1) * stride + effective - in, 0);
    p.near = static_cast<int32_t>(total / 2);
    p.far = static_cast<int32_t>(total - total / 2);
  } else {
    p.out = static_cast<int32_t>(std::max<int64_t>((static_cast<int64_t>(in) - effective + stride) / stride, 0));
  }
  return p;
}

}  // namespace etns::tools::tflm
