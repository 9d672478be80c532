#include "tools/writers/import/tflm/multipliers.h"

#include <cmath>

#include "tools/common/failure.h"

namespace etns::tools::tflm {

Requant signed_quantize_multiplier(double x, const std::string& what) {
  if (!std::isfinite(x)) throw Failure(what + ": factor is not finite");
  if (x == 0.0) return {};
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  int64_t multiplier = static_cast<int64_t>(std::round(mantissa * 2147483648.0));
  if (multiplier == (int64_t{1} << 31)) {
    multiplier = int64_t{1} << 30;
    exponent += 1;
  }
  // Below 2^-32 the factor rounds every int32 accumulator to 0: TFLM
  // flushes it, and so do we (the channel outputs its zero point).
  if (exponent < -31) return {};
  if (exponent > 30) throw Failure(what + ": factor " + std::to_string(x) + " needs a left shift above 30");
  return {static_cast<int32_t>(multiplier), exponent};
}

Requant quantize_multiplier(double x, const std::string& what) {
  if (!(x >= 0.0) || !std::isfinite(x)) throw Failure(what + ": factor is not finite and >= 0");
  return signed_quantize_multiplier(x, what);
}

Requant conv_channel_multiplier(float s_in, float s_w, float s_out, const std::string& what) {
  return quantize_multiplier(static_cast<double>(s_in) * static_cast<double>(s_w) / static_cast<double>(s_out), what);
}

Requant fully_connected_multiplier(float s_in, float s_w, float s_out, const std::string& what) {
  const float product = s_in * s_w;  // float32 on purpose: TFLM rounds the product first
  return quantize_multiplier(static_cast<double>(product) / static_cast<double>(s_out), what);
}

Requant mul_multiplier(float s1, float s2, float s_out, const std::string& what) {
  return quantize_multiplier(static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(s_out), what);
}

}  // namespace etns::tools::tflm
