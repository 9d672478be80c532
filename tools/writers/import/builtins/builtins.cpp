#include "tools/writers/import/builtins/builtins.h"

namespace etns::tools::builtins {
namespace {

using tflite::Builtin;

struct BuiltinImport {
  Builtin builtin;
  ImportFunction import;
};

// One row per TFLite builtin the importer maps.
constexpr BuiltinImport kBuiltins[] = {
    {Builtin::Conv2d, import_conv2d},
    {Builtin::DepthwiseConv2d, import_depthwise_conv2d},
    {Builtin::TransposeConv, import_transpose_conv},
    {Builtin::FullyConnected, import_fully_connected},
    {Builtin::AveragePool2d, import_average_pool2d},
    {Builtin::MaxPool2d, import_max_pool2d},
    {Builtin::Add, import_add},
    {Builtin::Mul, import_mul},
    {Builtin::Sub, import_sub},
    {Builtin::Minimum, import_minimum},
    {Builtin::Maximum, import_maximum},
    {Builtin::Softmax, import_softmax},
    {Builtin::Reshape, import_reshape},
    {Builtin::Squeeze, import_reshape},
    {Builtin::Pad, import_pad},
    {Builtin::PadV2, import_pad},
    {Builtin::Transpose, import_transpose},
    {Builtin::Quantize, import_quantize},
    {Builtin::Dequantize, import_dequantize},
    {Builtin::BatchMatmul, import_batch_matmul},
    {Builtin::LeakyRelu, import_leaky_relu},
    {Builtin::Mean, import_mean},
    {Builtin::Sum, import_sum},
    {Builtin::ReduceMax, import_reduce_max},
    {Builtin::UnidirectionalSequenceLstm, import_unidirectional_sequence_lstm},
    {Builtin::Relu, import_relu},
    {Builtin::ReluN1To1, import_relu_n1_to_1},
    {Builtin::Relu6, import_relu6},
    {Builtin::HardSwish, import_hard_swish},
    {Builtin::Logistic, import_logistic},
    {Builtin::Tanh, import_tanh},
    {Builtin::Shape, import_shape},
    {Builtin::StridedSlice, import_strided_slice},
    {Builtin::Pack, import_pack},
    {Builtin::ExpandDims, import_expand_dims},
    {Builtin::Concatenation, import_concatenation},
    {Builtin::Slice, import_slice},
    {Builtin::Split, import_split},
    {Builtin::SplitV, import_split_v},
    {Builtin::Unpack, import_unpack},
    {Builtin::SpaceToDepth, import_space_to_depth},
    {Builtin::DepthToSpace, import_depth_to_space},
    {Builtin::SpaceToBatchNd, import_space_to_batch_nd},
    {Builtin::BatchToSpaceNd, import_batch_to_space_nd},
    {Builtin::ResizeNearestNeighbor, import_resize_nearest_neighbor},
    {Builtin::ResizeBilinear, import_resize_bilinear},
    {Builtin::Prelu, import_prelu},
    {Builtin::Gather, import_gather},
    {Builtin::SquaredDifference, import_squared_difference},
    {Builtin::ArgMax, import_arg_max},
    {Builtin::ArgMin, import_arg_min},
};

}  // namespace

ImportFunction find_import(Builtin builtin) {
  for (const BuiltinImport& row : kBuiltins) {
    if (row.builtin == builtin) return row.import;
  }
  return nullptr;
}

}  // namespace etns::tools::builtins
