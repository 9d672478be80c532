#include "tools/writers/import/tflm/resize_bilinear.h"

#include <algorithm>

namespace etns::tools::tflm {

int64_t bilinear_scale_10(int32_t input_size, int32_t output_size, bool align_corners) {
  if (align_corners && output_size > 1) {
    return (int64_t{1024} * (input_size - 1) + (output_size - 1) / 2) / (output_size - 1);
  }
  return (int64_t{1024} * input_size + output_size / 2) / output_size;
}

std::vector<BilinearSource> bilinear_sources(int32_t input_size, int32_t output_size, bool align_corners,
                                             bool half_pixel_centers) {
  const int64_t scale = bilinear_scale_10(input_size, output_size, align_corners);
  std::vector<BilinearSource> out;
  out.reserve(static_cast<size_t>(output_size));
  for (int32_t i = 0; i < output_size; ++i) {
    BilinearSource s;
    s.scaled = i * scale + (half_pixel_centers ? scale / 2 - 512 : 0);
    s.lower = std::max<int64_t>(s.scaled / 1024, 0);
    s.upper = std::min<int64_t>((s.scaled + 1023) / 1024, input_size - 1);
    s.fraction = s.scaled - 1024 * s.lower;
    out.push_back(s);
  }
  return out;
}

bool bilinear_int32_overflow(int32_t input_size, int32_t output_size, bool align_corners, bool half_pixel_centers) {
  if (int64_t{1024} * input_size + output_size / 2 > INT32_MAX) return true;
  for (const BilinearSource& s : bilinear_sources(input_size, output_size, align_corners, half_pixel_centers)) {
    if (s.scaled + 1023 > INT32_MAX) return true;
  }
  return false;
}

}  // namespace etns::tools::tflm
