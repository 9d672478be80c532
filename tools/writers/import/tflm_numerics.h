#pragma once

// The parameters TensorFlow Lite Micro derives from a model's quantisation
// and options, computed as TFLM computes them, so that an imported program's
// cortex_m:: arguments reproduce TFLM's integer arithmetic bit for bit
// (docs/numerics.md, "Imported TFLite models"). Scales are the file's
// float32 values. One header per kind of derivation, in tools/writers/import/tflm/:
#include "tools/writers/import/tflm/activation_range.h"  // a fused activation's clamp
#include "tools/writers/import/tflm/add_params.h"        // ADD's three multipliers
#include "tools/writers/import/tflm/leaky_relu_table.h"  // LEAKY_RELU's factors and table
#include "tools/writers/import/tflm/multipliers.h"       // QuantizeMultiplier and the factors fed to it
#include "tools/writers/import/tflm/softmax_params.h"    // SOFTMAX's multiplier, shift and diff_min
#include "tools/writers/import/tflm/spatial_padding.h"   // SAME and VALID padding
