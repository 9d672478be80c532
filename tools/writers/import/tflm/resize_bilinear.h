#pragma once

#include <cstdint>
#include <vector>

// TFLM's RESIZE_BILINEAR on int8 (reference resize_bilinear.h,
// ResizeBilinearInteger and ComputeInterpolationValuesInteger): positions
// with 10 fractional bits. The scale is
//   scale_10 = (1024 * in + out / 2) / out
// or, with align_corners and out > 1, (1024 * (in - 1) + (out - 1) / 2) /
// (out - 1); output index i sits at
//   scaled = i * scale_10 (+ scale_10 / 2 - 512 with half_pixel_centers)
// (C division: truncated), reads lower = max(scaled / 1024, 0) and
// upper = min((scaled + 1023) / 1024, in - 1), and weighs them by
// 1024 - f and f, f = scaled - 1024 * lower. TFLM computes all of it in
// int32; here in int64, equal to it wherever TFLM's does not overflow (the
// caller checks with int32_overflow). Nothing bounds lower above: for some
// sizes it is `in` or more, where TFLM reads past its input.
namespace etns::tools::tflm {

struct BilinearSource {
  int64_t scaled = 0;
  int64_t lower = 0;
  int64_t upper = 0;
  int64_t fraction = 0;  // scaled - 1024 * lower
};

int64_t bilinear_scale_10(int32_t input_size, int32_t output_size, bool align_corners);

// The source of each of `output_size` outputs.
std::vector<BilinearSource> bilinear_sources(int32_t input_size, int32_t output_size, bool align_corners,
                                             bool half_pixel_centers);

// Whether TFLM's int32 arithmetic overflows for these sizes (the scale's
// numerator, or a position plus 1023).
bool bilinear_int32_overflow(int32_t input_size, int32_t output_size, bool align_corners, bool half_pixel_centers);

}  // namespace etns::tools::tflm
