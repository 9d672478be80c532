#pragma once

#include <array>
#include <cstdint>
#include <string>

// TFLM's int8 HARD_SWISH (hard_swish_common.cc's HardSwishPrepare, reference
// hard_swish.h's quantized HardSwish) as the 256-entry table
// etns_ops::lookup_table reads. The arithmetic is 16-bit fixed point.
namespace etns::tools::tflm {

// Prepare's parameters: both factors are float32 quotients of float32 scales
// (hires = s_in / 128, reluish scale 3 / 32768) widened to double, put
// through QuantizeMultiplier and rounded to 16 bits
// (DownScaleInt32ToInt16Multiplier).
struct HardSwishParams {
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int16_t output_multiplier = 0;  // hires / s_out
  int32_t output_exponent = 0;    // <= 0 by TFLM's check
  int16_t reluish_multiplier = 0;  // hires / (3 / 32768)
  int32_t reluish_exponent = 0;
};

// Throws Failure naming `what` where TFLM's Prepare fails (an output factor
// hires / s_out with a positive exponent, i.e. s_in >= about 128 * s_out) and
// for a factor needing a left shift above 30.
HardSwishParams hard_swish_params(float input_scale, int32_t input_zero_point, float output_scale,
                                  int32_t output_zero_point, const std::string& what);

// Entry (uint8_t)q: TFLM's int16 steps on x = q - zp_in (see the .cpp).
std::array<int8_t, 256> hard_swish_table(const HardSwishParams& p);

}  // namespace etns::tools::tflm
