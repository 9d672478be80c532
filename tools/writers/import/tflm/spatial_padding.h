#pragma once

#include <cstdint>

#include "tools/writers/tflite/tflite_model.h"

// TFLite's padding of the convolutions and pools (tflm_numerics.h).
namespace etns::tools::tflm {

// TFLite's padding for one spatial dim: SAME pads to out = ceil(in / stride)
// with the odd row or column on the far side; VALID pads nothing.
struct SpatialPadding {
  int32_t out = 0;   // output size
  int32_t near = 0;  // top or left
  int32_t far = 0;   // bottom or right
};
SpatialPadding spatial_padding(tflite::Padding padding, int32_t in, int32_t filter, int32_t stride, int32_t dilation);

}  // namespace etns::tools::tflm
