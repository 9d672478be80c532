#pragma once

// The parameters TensorFlow Lite Micro derives from a model's quantisation
// and options, computed as TFLM computes them, so that an imported program's
// cortex_m:: arguments reproduce TFLM's integer arithmetic bit for bit
// (docs/numerics.md, "Imported TFLite models"). Scales are the file's
// float32 values. One header per kind of derivation, in tools/writers/import/tflm/:
#include "tools/writers/import/tflm/activation_range.h"  // a fused activation's clamp
#include "tools/writers/import/tflm/add_params.h"        // ADD's three multipliers
#include "tools/writers/import/tflm/fixed_point.h"       // gemmlowp's logistic and tanh on raw int32
#include "tools/writers/import/tflm/hard_swish_table.h"  // HARD_SWISH's 16-bit factors and table
#include "tools/writers/import/tflm/leaky_relu_table.h"  // LEAKY_RELU's factors and table
#include "tools/writers/import/tflm/logistic_table.h"    // LOGISTIC's input rescaling and table
#include "tools/writers/import/tflm/lstm_params.h"       // UNIDIRECTIONAL_SEQUENCE_LSTM's factors and biases
#include "tools/writers/import/tflm/multipliers.h"       // QuantizeMultiplier and the factors fed to it
#include "tools/writers/import/tflm/reduce_params.h"     // MEAN, SUM, REDUCE_MAX: branch, axes, scale
#include "tools/writers/import/tflm/quantize_table.h"    // QUANTIZE int8 -> int8: Requantize's table
#include "tools/writers/import/tflm/relu_table.h"        // RELU, RELU_N1_TO_1, RELU6 tables
#include "tools/writers/import/tflm/softmax_params.h"    // SOFTMAX's multiplier, shift and diff_min
#include "tools/writers/import/tflm/spatial_padding.h"   // SAME and VALID padding
#include "tools/writers/import/tflm/strided_slice.h"     // STRIDED_SLICE's walk
#include "tools/writers/import/tflm/sub_params.h"        // SUB's three multipliers, in float
#include "tools/writers/import/tflm/tanh_table.h"        // TANH's table
