#pragma once

#include <string>

#include "tools/writers/program/quantized_graph.h"

// TFLM's requantisation factors (tflm_numerics.h): QuantizeMultiplier and
// the factors the convolutions, FULLY_CONNECTED and MUL feed it.
namespace etns::tools::tflm {

// TFLM's QuantizeMultiplier: x = m * 2^e (frexp), M = round(m * 2^31) with
// halves away from zero (std::round), M = 2^31 carried into the exponent,
// and an exponent below -31 flushed to (0, 0). x = 0 gives (0, 0). Throws
// Failure naming `what` for a negative or non-finite x, or an exponent
// above 30 (a factor no int8 kernel can apply).
Requant quantize_multiplier(double x, const std::string& what);

// The same for a factor of either sign (LEAKY_RELU's alpha may be negative):
// frexp keeps the sign, and the carry at M = 2^31 never applies to a negative
// M, so a mantissa rounding to -2^31 stays INT32_MIN, as in TFLM. Throws
// Failure naming `what` for a non-finite x or an exponent above 30.
Requant signed_quantize_multiplier(double x, const std::string& what);

// A convolution channel's factor: double(s_in) * double(s_w) / double(s_out)
// (PopulateConvolutionQuantizationParams, per channel).
Requant conv_channel_multiplier(float s_in, float s_w, float s_out, const std::string& what);

// FULLY_CONNECTED's per-tensor factor: the product s_in * s_w rounded to
// float32 first, then divided in double (GetQuantizedConvolutionMultipler).
Requant fully_connected_multiplier(float s_in, float s_w, float s_out, const std::string& what);

// MUL's factor: double(s1) * double(s2) / double(s_out).
Requant mul_multiplier(float s1, float s2, float s_out, const std::string& what);

}  // namespace etns::tools::tflm
