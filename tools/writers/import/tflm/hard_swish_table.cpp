#include "tools/writers/import/tflm/hard_swish_table.h"

#include <algorithm>
#include <limits>

#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {
namespace {

// DownScaleInt32ToInt16Multiplier: round to the top 16 bits, saturating just
// below 2^31.
int16_t down_scale(int32_t multiplier) {
  constexpr int32_t kRoundingOffset = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRoundingOffset) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((multiplier + kRoundingOffset) >> 16);
}

// gemmlowp's SaturatingRoundingDoublingHighMul on int16: round(a * b / 2^15)
// with halves away from zero; INT16_MIN squared saturates.
int16_t rounding_high_mul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  const int32_t ab = int32_t{a} * int32_t{b};
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// hard_swish.h's SaturatingDoublingHighMul: a * b / 2^15 truncated toward zero.
int16_t truncating_high_mul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((int32_t{a} * int32_t{b}) / (1 << 15));
}

// hard_swish.h's SaturatingLeftShift: value * 2^amount clamped to int16.
int16_t saturating_left_shift(int16_t value, int amount) {
  const int64_t result = int64_t{value} * (int64_t{1} << amount);
  return static_cast<int16_t>(std::clamp<int64_t>(result, std::numeric_limits<int16_t>::min(),
                                                  std::numeric_limits<int16_t>::max()));
}

// gemmlowp's RoundingDivideByPOT instantiated for int16, step by step: the
// mask is (2^exponent - 1) narrowed to int16, so from exponent 16 on it is
// all ones (TFLM's behaviour there, kept).
int16_t rounding_divide_by_pot(int16_t x, int exponent) {
  const auto mask = static_cast<int16_t>((int64_t{1} << exponent) - 1);
  const auto remainder = static_cast<int16_t>(x & mask);
  const auto threshold = static_cast<int16_t>((mask >> 1) + (x < 0 ? 1 : 0));
  return static_cast<int16_t>((x >> exponent) + (remainder > threshold ? 1 : 0));
}

}  // namespace

HardSwishParams hard_swish_params(float input_scale, int32_t input_zero_point, float output_scale,
                                  int32_t output_zero_point, const std::string& what) {
  HardSwishParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  const float hires_input_scale = (1.0F / 128.0F) * input_scale;
  const float reluish_scale = 3.0F / 32768.0F;
  const float output_factor = hires_input_scale / output_scale;
  const Requant out = quantize_multiplier(static_cast<double>(output_factor), what + ": output factor");
  if (out.shift > 0) {
    throw Failure(what + ": output factor " + std::to_string(output_factor) +
                  " has a positive exponent (TFLite Micro needs input scale / 128 below the output scale)");
  }
  p.output_multiplier = down_scale(out.multiplier);
  p.output_exponent = out.shift;
  const float reluish_factor = hires_input_scale / reluish_scale;
  const Requant reluish = quantize_multiplier(static_cast<double>(reluish_factor), what + ": reluish factor");
  p.reluish_multiplier = down_scale(reluish.multiplier);
  p.reluish_exponent = reluish.shift;
  return p;
}

std::array<int8_t, 256> hard_swish_table(const HardSwishParams& p) {
  std::array<int8_t, 256> table{};
  for (int32_t q = -128; q <= 127; ++q) {
    const auto x = static_cast<int16_t>(q - p.input_zero_point);
    // x * 128 fits int16 (|x| <= 255).
    const auto hires = static_cast<int16_t>(x * (1 << 7));
    const int16_t preshift_output = rounding_high_mul(hires, p.output_multiplier);
    // hires on a scale where 3 is 32768, saturating: the left shift in two
    // parts so that only the last one's saturation shows.
    int16_t reluish = hires;
    if (p.reluish_exponent > 0) reluish = saturating_left_shift(reluish, p.reluish_exponent - 1);
    reluish = rounding_high_mul(reluish, p.reluish_multiplier);
    if (p.reluish_exponent > 0) reluish = saturating_left_shift(reluish, 1);
    if (p.reluish_exponent < 0) reluish = rounding_divide_by_pot(reluish, -p.reluish_exponent);
    // [-1, 1] to [0, 1].
    reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
    const int16_t preshift = truncating_high_mul(reluish, preshift_output);
    int16_t y = rounding_divide_by_pot(preshift, -p.output_exponent);
    y = static_cast<int16_t>(y + p.output_zero_point);  // int16, wrapping as TFLM's += does
    table[static_cast<uint8_t>(q)] = static_cast<int8_t>(std::clamp<int16_t>(y, -128, 127));
  }
  return table;
}

}  // namespace etns::tools::tflm
