#include "tools/writers/tflite/tflite_options.h"

#include <string>

#include "tools/common/failure.h"

namespace etns::tools::tflite {

namespace fb = etns::tflite_fb;

void fail(const std::string& context, const std::string& what) { throw Failure(context + ": " + what); }

namespace {

Padding read_padding(fb::Padding stored, const std::string& where, const std::string& context) {
  const int8_t value = static_cast<int8_t>(stored);
  if (value != static_cast<int8_t>(Padding::Same) && value != static_cast<int8_t>(Padding::Valid)) {
    fail(context, where + ": unknown padding " + std::to_string(value));
  }
  return static_cast<Padding>(value);
}

Activation read_activation(fb::ActivationFunctionType stored, const std::string& where, const std::string& context) {
  const int8_t value = static_cast<int8_t>(stored);
  if (value < 0 || value > static_cast<int8_t>(Activation::SignBit)) {
    fail(context, where + ": unknown fused_activation_function " + std::to_string(value));
  }
  return static_cast<Activation>(value);
}

// The operators of the Builtin enum and the options type each carries.
constexpr KnownOperator kKnownOperators[] = {
    {Builtin::Add, fb::BuiltinOptions::AddOptions},
    {Builtin::AveragePool2d, fb::BuiltinOptions::Pool2DOptions},
    {Builtin::Conv2d, fb::BuiltinOptions::Conv2DOptions},
    {Builtin::DepthwiseConv2d, fb::BuiltinOptions::DepthwiseConv2DOptions},
    {Builtin::Dequantize, fb::BuiltinOptions::DequantizeOptions},
    {Builtin::FullyConnected, fb::BuiltinOptions::FullyConnectedOptions},
    {Builtin::MaxPool2d, fb::BuiltinOptions::Pool2DOptions},
    {Builtin::Mul, fb::BuiltinOptions::MulOptions},
    {Builtin::Reshape, fb::BuiltinOptions::ReshapeOptions},
    {Builtin::Softmax, fb::BuiltinOptions::SoftmaxOptions},
    {Builtin::Custom, fb::BuiltinOptions::NONE},
    {Builtin::Pad, fb::BuiltinOptions::PadOptions},
    {Builtin::Transpose, fb::BuiltinOptions::TransposeOptions},
    {Builtin::Sub, fb::BuiltinOptions::SubOptions},
    {Builtin::Squeeze, fb::BuiltinOptions::SqueezeOptions},
    {Builtin::UnidirectionalSequenceLstm, fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions},
    {Builtin::Maximum, fb::BuiltinOptions::MaximumMinimumOptions},
    {Builtin::Minimum, fb::BuiltinOptions::MaximumMinimumOptions},
    {Builtin::PadV2, fb::BuiltinOptions::PadV2Options},
    {Builtin::TransposeConv, fb::BuiltinOptions::TransposeConvOptions},
    {Builtin::LeakyRelu, fb::BuiltinOptions::LeakyReluOptions},
    {Builtin::Quantize, fb::BuiltinOptions::QuantizeOptions},
    {Builtin::BatchMatmul, fb::BuiltinOptions::BatchMatMulOptions},
    {Builtin::Logistic, fb::BuiltinOptions::NONE},
    {Builtin::Relu, fb::BuiltinOptions::NONE},
    {Builtin::ReluN1To1, fb::BuiltinOptions::NONE},
    {Builtin::Relu6, fb::BuiltinOptions::NONE},
    {Builtin::Tanh, fb::BuiltinOptions::NONE},
    {Builtin::HardSwish, fb::BuiltinOptions::HardSwishOptions},
    {Builtin::Concatenation, fb::BuiltinOptions::ConcatenationOptions},
    {Builtin::Gather, fb::BuiltinOptions::GatherOptions},
    {Builtin::StridedSlice, fb::BuiltinOptions::StridedSliceOptions},
    {Builtin::Split, fb::BuiltinOptions::SplitOptions},
    {Builtin::Slice, fb::BuiltinOptions::SliceOptions},
    {Builtin::ExpandDims, fb::BuiltinOptions::ExpandDimsOptions},
    {Builtin::Shape, fb::BuiltinOptions::ShapeOptions},
    {Builtin::Pack, fb::BuiltinOptions::PackOptions},
    {Builtin::Unpack, fb::BuiltinOptions::UnpackOptions},
    {Builtin::SplitV, fb::BuiltinOptions::SplitVOptions},
    {Builtin::Mean, fb::BuiltinOptions::ReducerOptions},
    {Builtin::Sum, fb::BuiltinOptions::ReducerOptions},
    {Builtin::ReduceMax, fb::BuiltinOptions::ReducerOptions},
    {Builtin::SpaceToDepth, fb::BuiltinOptions::SpaceToDepthOptions},
    {Builtin::DepthToSpace, fb::BuiltinOptions::DepthToSpaceOptions},
    {Builtin::SpaceToBatchNd, fb::BuiltinOptions::SpaceToBatchNDOptions},
    {Builtin::BatchToSpaceNd, fb::BuiltinOptions::BatchToSpaceNDOptions},
    {Builtin::ResizeNearestNeighbor, fb::BuiltinOptions::ResizeNearestNeighborOptions},
    {Builtin::ResizeBilinear, fb::BuiltinOptions::ResizeBilinearOptions},
    {Builtin::Prelu, fb::BuiltinOptions::NONE},
    {Builtin::SquaredDifference, fb::BuiltinOptions::SquaredDifferenceOptions},
    {Builtin::ArgMax, fb::BuiltinOptions::ArgMaxOptions},
    {Builtin::ArgMin, fb::BuiltinOptions::ArgMinOptions},
};

}  // namespace

// Fills `options` from the operator's table of type `type`, which the caller
// has checked is the one its operator expects.
void read_options(const fb::Operator& stored, fb::BuiltinOptions type, Options& o, const std::string& where,
                  const std::string& context) {
  switch (type) {
    case fb::BuiltinOptions::Conv2DOptions: {
      const fb::Conv2DOptions& t = *stored.builtin_options_as_Conv2DOptions();
      o.padding = read_padding(t.padding(), where, context);
      o.stride_w = t.stride_w();
      o.stride_h = t.stride_h();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      o.dilation_w = t.dilation_w_factor();
      o.dilation_h = t.dilation_h_factor();
      break;
    }
    case fb::BuiltinOptions::DepthwiseConv2DOptions: {
      const fb::DepthwiseConv2DOptions& t = *stored.builtin_options_as_DepthwiseConv2DOptions();
      o.padding = read_padding(t.padding(), where, context);
      o.stride_w = t.stride_w();
      o.stride_h = t.stride_h();
      o.depth_multiplier = t.depth_multiplier();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      o.dilation_w = t.dilation_w_factor();
      o.dilation_h = t.dilation_h_factor();
      break;
    }
    case fb::BuiltinOptions::Pool2DOptions: {
      const fb::Pool2DOptions& t = *stored.builtin_options_as_Pool2DOptions();
      o.padding = read_padding(t.padding(), where, context);
      o.stride_w = t.stride_w();
      o.stride_h = t.stride_h();
      o.filter_w = t.filter_width();
      o.filter_h = t.filter_height();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      break;
    }
    case fb::BuiltinOptions::FullyConnectedOptions: {
      const fb::FullyConnectedOptions& t = *stored.builtin_options_as_FullyConnectedOptions();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      o.weights_format = t.weights_format();
      o.keep_num_dims = t.keep_num_dims();
      o.asymmetric_quantize_inputs = t.asymmetric_quantize_inputs();
      break;
    }
    case fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions: {
      const fb::UnidirectionalSequenceLSTMOptions& t = *stored.builtin_options_as_UnidirectionalSequenceLSTMOptions();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      o.cell_clip = t.cell_clip();
      o.proj_clip = t.proj_clip();
      o.time_major = t.time_major();
      o.asymmetric_quantize_inputs = t.asymmetric_quantize_inputs();
      o.diagonal_recurrent_tensors = t.diagonal_recurrent_tensors();
      break;
    }
    case fb::BuiltinOptions::SoftmaxOptions:
      o.beta = stored.builtin_options_as_SoftmaxOptions()->beta();
      break;
    case fb::BuiltinOptions::AddOptions: {
      const fb::AddOptions& t = *stored.builtin_options_as_AddOptions();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      o.pot_scale_int16 = t.pot_scale_int16();
      break;
    }
    case fb::BuiltinOptions::SubOptions: {
      const fb::SubOptions& t = *stored.builtin_options_as_SubOptions();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      o.pot_scale_int16 = t.pot_scale_int16();
      break;
    }
    case fb::BuiltinOptions::MulOptions:
      o.activation = read_activation(stored.builtin_options_as_MulOptions()->fused_activation_function(), where,
                                     context);
      break;
    case fb::BuiltinOptions::ReshapeOptions:
      o.new_shape = copy_vector(stored.builtin_options_as_ReshapeOptions()->new_shape());
      break;
    case fb::BuiltinOptions::SqueezeOptions:
      o.squeeze_dims = copy_vector(stored.builtin_options_as_SqueezeOptions()->squeeze_dims());
      break;
    case fb::BuiltinOptions::TransposeConvOptions: {
      const fb::TransposeConvOptions& t = *stored.builtin_options_as_TransposeConvOptions();
      o.padding = read_padding(t.padding(), where, context);
      o.stride_w = t.stride_w();
      o.stride_h = t.stride_h();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      break;
    }
    case fb::BuiltinOptions::LeakyReluOptions:
      o.alpha = stored.builtin_options_as_LeakyReluOptions()->alpha();
      break;
    case fb::BuiltinOptions::BatchMatMulOptions: {
      const fb::BatchMatMulOptions& t = *stored.builtin_options_as_BatchMatMulOptions();
      o.adj_x = t.adj_x();
      o.adj_y = t.adj_y();
      o.asymmetric_quantize_inputs = t.asymmetric_quantize_inputs();
      break;
    }
    case fb::BuiltinOptions::ConcatenationOptions: {
      const fb::ConcatenationOptions& t = *stored.builtin_options_as_ConcatenationOptions();
      o.axis = t.axis();
      o.activation = read_activation(t.fused_activation_function(), where, context);
      break;
    }
    case fb::BuiltinOptions::GatherOptions: {
      const fb::GatherOptions& t = *stored.builtin_options_as_GatherOptions();
      o.axis = t.axis();
      o.batch_dims = t.batch_dims();
      break;
    }
    case fb::BuiltinOptions::StridedSliceOptions: {
      const fb::StridedSliceOptions& t = *stored.builtin_options_as_StridedSliceOptions();
      o.begin_mask = t.begin_mask();
      o.end_mask = t.end_mask();
      o.ellipsis_mask = t.ellipsis_mask();
      o.new_axis_mask = t.new_axis_mask();
      o.shrink_axis_mask = t.shrink_axis_mask();
      o.offset = t.offset();
      break;
    }
    case fb::BuiltinOptions::SplitOptions:
      o.num_splits = stored.builtin_options_as_SplitOptions()->num_splits();
      break;
    case fb::BuiltinOptions::SplitVOptions:
      o.num_splits = stored.builtin_options_as_SplitVOptions()->num_splits();
      break;
    case fb::BuiltinOptions::ShapeOptions:
      o.out_type = static_cast<TensorType>(stored.builtin_options_as_ShapeOptions()->out_type());
      break;
    case fb::BuiltinOptions::PackOptions: {
      const fb::PackOptions& t = *stored.builtin_options_as_PackOptions();
      o.values_count = t.values_count();
      o.axis = t.axis();
      break;
    }
    case fb::BuiltinOptions::UnpackOptions: {
      const fb::UnpackOptions& t = *stored.builtin_options_as_UnpackOptions();
      o.num = t.num();
      o.axis = t.axis();
      break;
    }
    case fb::BuiltinOptions::ReducerOptions:
      o.keep_dims = stored.builtin_options_as_ReducerOptions()->keep_dims();
      break;
    case fb::BuiltinOptions::SpaceToDepthOptions:
      o.block_size = stored.builtin_options_as_SpaceToDepthOptions()->block_size();
      break;
    case fb::BuiltinOptions::DepthToSpaceOptions:
      o.block_size = stored.builtin_options_as_DepthToSpaceOptions()->block_size();
      break;
    case fb::BuiltinOptions::ResizeNearestNeighborOptions: {
      const fb::ResizeNearestNeighborOptions& t = *stored.builtin_options_as_ResizeNearestNeighborOptions();
      o.align_corners = t.align_corners();
      o.half_pixel_centers = t.half_pixel_centers();
      break;
    }
    case fb::BuiltinOptions::ResizeBilinearOptions: {
      const fb::ResizeBilinearOptions& t = *stored.builtin_options_as_ResizeBilinearOptions();
      o.align_corners = t.align_corners();
      o.half_pixel_centers = t.half_pixel_centers();
      break;
    }
    default:
      break;  // PAD, PADV2, TRANSPOSE, MAXIMUM/MINIMUM, QUANTIZE, DEQUANTIZE, SLICE, EXPAND_DIMS: empty tables
  }
}

const KnownOperator* find_known(int32_t builtin) {
  for (const KnownOperator& known : kKnownOperators) {
    if (static_cast<int32_t>(known.builtin) == builtin) return &known;
  }
  return nullptr;
}

}  // namespace etns::tools::tflite
