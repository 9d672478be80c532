#pragma once

#include "tools/writers/import/import_context.h"
#include "tools/writers/tflite/tflite_model.h"

// The importer's builtin table: one import function per TFLite builtin (or
// family), each in its own file in this folder, as TFLite Micro keeps one
// kernel per file. An import function checks its operator, derives every
// parameter as TFLM does, and adds its calls through the context
// (import_context.h); it fails with one line for anything the operators it
// maps to (cortex_m::, or etns's own etns_ops::) cannot compute exactly like
// TFLM.
//
// Adding a builtin: a file <builtin>.cpp here defining import_<builtin> (and
// <builtin>_test.cpp; the build finds both by name), its declaration below
// and its row in kBuiltins (builtins.cpp).
namespace etns::tools::builtins {

using ImportFunction = void (*)(OperatorImport& c);

// The import function of `builtin`, or nullptr when no cortex_m:: operator
// computes it like TFLite Micro.
ImportFunction find_import(tflite::Builtin builtin);

void import_conv2d(OperatorImport& c);            // conv2d.cpp
void import_depthwise_conv2d(OperatorImport& c);  // depthwise_conv2d.cpp
void import_transpose_conv(OperatorImport& c);    // transpose_conv.cpp
void import_fully_connected(OperatorImport& c);   // fully_connected.cpp
void import_average_pool2d(OperatorImport& c);    // pool2d.cpp
void import_max_pool2d(OperatorImport& c);        // pool2d.cpp
void import_add(OperatorImport& c);               // add.cpp
void import_mul(OperatorImport& c);               // mul.cpp
void import_sub(OperatorImport& c);               // sub.cpp: lookup_table negation, quantized_add
void import_minimum(OperatorImport& c);           // minimum_maximum.cpp
void import_maximum(OperatorImport& c);           // minimum_maximum.cpp
void import_softmax(OperatorImport& c);           // softmax.cpp
void import_reshape(OperatorImport& c);           // reshape.cpp: RESHAPE, SQUEEZE
void import_pad(OperatorImport& c);               // pad.cpp: PAD, PADV2
void import_transpose(OperatorImport& c);         // transpose.cpp
void import_quantize(OperatorImport& c);          // quantize.cpp
void import_dequantize(OperatorImport& c);        // dequantize.cpp
void import_batch_matmul(OperatorImport& c);      // batch_matmul.cpp
void import_leaky_relu(OperatorImport& c);        // leaky_relu.cpp: etns_ops::lookup_table
void import_mean(OperatorImport& c);              // reduce.cpp: etns_ops::quantized_reduce
void import_sum(OperatorImport& c);               // reduce.cpp
void import_reduce_max(OperatorImport& c);        // reduce.cpp
void import_unidirectional_sequence_lstm(OperatorImport& c);  // unidirectional_sequence_lstm.cpp: etns_ops::lstm_s8
void import_relu(OperatorImport& c);              // relu.cpp: etns_ops::lookup_table
void import_relu_n1_to_1(OperatorImport& c);      // relu.cpp: etns_ops::lookup_table
void import_relu6(OperatorImport& c);             // relu.cpp: etns_ops::lookup_table
void import_hard_swish(OperatorImport& c);        // hard_swish.cpp: etns_ops::lookup_table
void import_logistic(OperatorImport& c);          // logistic.cpp: etns_ops::lookup_table
void import_tanh(OperatorImport& c);              // tanh.cpp: etns_ops::lookup_table
void import_shape(OperatorImport& c);             // shape.cpp: folded at import
void import_strided_slice(OperatorImport& c);     // strided_slice.cpp: folded at import
void import_pack(OperatorImport& c);              // pack.cpp: folded at import
void import_expand_dims(OperatorImport& c);       // expand_dims.cpp: aten::view_copy, or folded
void import_slice(OperatorImport& c);             // slice.cpp: etns_ops::slice_copy, or folded
void import_split(OperatorImport& c);             // split.cpp: etns_ops::slice_copy per output
void import_split_v(OperatorImport& c);           // split.cpp
void import_unpack(OperatorImport& c);            // unpack.cpp: etns_ops::slice_copy per output
void import_concatenation(OperatorImport& c);     // concatenation.cpp: cortex_m::pad, maximum
void import_space_to_depth(OperatorImport& c);    // space_to_depth.cpp: cortex_m::transpose between views
void import_depth_to_space(OperatorImport& c);    // space_to_depth.cpp
void import_space_to_batch_nd(OperatorImport& c);  // space_to_batch_nd.cpp: cortex_m::pad, two cortex_m::transpose
void import_batch_to_space_nd(OperatorImport& c);  // space_to_batch_nd.cpp: two cortex_m::transpose, slice_copy
void import_resize_nearest_neighbor(OperatorImport& c);  // resize_nearest_neighbor.cpp: etns_ops::gather_hw
void import_resize_bilinear(OperatorImport& c);   // resize_bilinear.cpp: etns_ops::resize_bilinear
void import_prelu(OperatorImport& c);             // prelu.cpp: etns_ops::lookup_table (one alpha value)
void import_gather(OperatorImport& c);            // gather.cpp: etns_ops::gather, or folded
void import_squared_difference(OperatorImport& c);  // squared_difference.cpp: etns_ops::squared_difference
void import_arg_max(OperatorImport& c);           // arg_min_max.cpp: etns_ops::arg_reduce, or folded
void import_arg_min(OperatorImport& c);           // arg_min_max.cpp

}  // namespace etns::tools::builtins
