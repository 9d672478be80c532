#pragma once

#include <cstdint>
#include <string>

#include "tools/program/quantized_graph.h"
#include "tools/tflite/tflite_model.h"

// The parameters TensorFlow Lite Micro derives from a model's quantisation
// and options, computed as TFLM computes them, so that an imported program's
// cortex_m:: arguments reproduce TFLM's integer arithmetic bit for bit
// (docs/numerics.md, "Imported TFLite models"). Scales are the file's
// float32 values.
namespace etns::tools::tflm {

// TFLM's QuantizeMultiplier: x = m * 2^e (frexp), M = round(m * 2^31) with
// halves away from zero (std::round), M = 2^31 carried into the exponent,
// and an exponent below -31 flushed to (0, 0). x = 0 gives (0, 0). Throws
// Failure naming `what` for a negative or non-finite x, or an exponent
// above 30 (a factor no int8 kernel can apply).
Requant quantize_multiplier(double x, const std::string& what);

// A convolution channel's factor: double(s_in) * double(s_w) / double(s_out)
// (PopulateConvolutionQuantizationParams, per channel).
Requant conv_channel_multiplier(float s_in, float s_w, float s_out, const std::string& what);

// FULLY_CONNECTED's per-tensor factor: the product s_in * s_w rounded to
// float32 first, then divided in double (GetQuantizedConvolutionMultipler).
Requant fully_connected_multiplier(float s_in, float s_w, float s_out, const std::string& what);

// The int8 clamp of a fused activation on the output grid
// (CalculateActivationRangeQuantized): zp + round(x / s) in float, halves
// away from zero. TANH and SIGN_BIT have no clamp form: Failure.
struct ActivationRange {
  int32_t min = -128;
  int32_t max = 127;
};
ActivationRange activation_range(tflite::Activation activation, float s_out, int32_t zp_out,
                                 const std::string& what);

// TFLite's padding for one spatial dim: SAME pads to out = ceil(in / stride)
// with the odd row or column on the far side; VALID pads nothing.
struct SpatialPadding {
  int32_t out = 0;   // output size
  int32_t near = 0;  // top or left
  int32_t far = 0;   // bottom or right
};
SpatialPadding spatial_padding(tflite::Padding padding, int32_t in, int32_t filter, int32_t stride, int32_t dilation);

// SOFTMAX's (input_multiplier, input_left_shift, diff_min) for int8 with
// kScaledDiffIntegerBits = 5 (PreprocessSoftmaxScaling,
// CalculateInputRadius).
struct SoftmaxParams {
  int32_t multiplier = 0;
  int32_t left_shift = 0;
  int32_t diff_min = 0;
};
SoftmaxParams softmax_params(float beta, float s_in, const std::string& what);

// ADD's int8 parameters with left shift 20: each input scaled by
// s / (2 max(s1, s2)), the sum by 2 max(s1, s2) / (2^20 s_out).
struct AddParams {
  Requant input1;
  Requant input2;
  Requant output;
};
AddParams add_params(float s1, float s2, float s_out, const std::string& what);

// MUL's factor: double(s1) * double(s2) / double(s_out).
Requant mul_multiplier(float s1, float s2, float s_out, const std::string& what);

}  // namespace etns::tools::tflm
