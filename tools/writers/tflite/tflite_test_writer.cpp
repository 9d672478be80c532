#include "tools/writers/tflite/tflite_test_writer.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "tools/common/failure.h"
#include "tools/writers/tflite/tflite_reader.h"
#include "tools/writers/tflite/tflite_schema_generated.h"

namespace etns::tools::tflite {
namespace {

namespace fb = etns::tflite_fb;

// Outside data starts at this alignment, as the large-model writers place it.
constexpr uint64_t kExternalAlignment = 16;
// Operator codes above this go only in builtin_code (PLACEHOLDER_FOR_GREATER_OP_CODES).
constexpr int32_t kLastByteCode = 127;
constexpr uint64_t kMaxBuffers = uint64_t{1} << 24;

// One buffer's data: the first tensor naming the buffer gives it.
std::vector<const std::vector<uint8_t>*> buffer_data(const Model& model, const WriteOptions& options) {
  uint64_t count = 1;
  for (const Tensor& tensor : model.tensors) count = std::max<uint64_t>(count, uint64_t{tensor.buffer} + 1);
  if (options.buffer_count != 0) count = options.buffer_count;
  // A test model names a few buffers; an index in the millions is a mistake.
  if (count > kMaxBuffers) throw Failure("write_tflite: " + std::to_string(count) + " buffers");
  std::vector<const std::vector<uint8_t>*> data(count, nullptr);
  for (size_t i = 0; i < model.tensors.size(); ++i) {
    const Tensor& tensor = model.tensors[i];
    if (tensor.buffer >= count) {
      if (!tensor.data.empty()) {
        throw Failure("write_tflite: tensor " + std::to_string(i) + " has data for buffer " +
                      std::to_string(tensor.buffer) + ", past buffer_count " + std::to_string(count));
      }
      continue;
    }
    const std::vector<uint8_t>*& slot = data[tensor.buffer];
    if (slot == nullptr || slot->empty()) {
      slot = &tensor.data;
    } else if (!tensor.data.empty() && tensor.data != *slot) {
      throw Failure("write_tflite: tensors name buffer " + std::to_string(tensor.buffer) + " with different data");
    }
  }
  return data;
}

flatbuffers::Offset<void> write_options(flatbuffers::FlatBufferBuilder& fbb, uint32_t type, const Options& o) {
  const auto padding = static_cast<fb::Padding>(o.padding);
  const auto activation = static_cast<fb::ActivationFunctionType>(o.activation);
  switch (static_cast<fb::BuiltinOptions>(type)) {
    case fb::BuiltinOptions::Conv2DOptions:
      return fb::CreateConv2DOptions(fbb, padding, o.stride_w, o.stride_h, activation, o.dilation_w, o.dilation_h)
          .Union();
    case fb::BuiltinOptions::DepthwiseConv2DOptions:
      return fb::CreateDepthwiseConv2DOptions(fbb, padding, o.stride_w, o.stride_h, o.depth_multiplier, activation,
                                              o.dilation_w, o.dilation_h)
          .Union();
    case fb::BuiltinOptions::Pool2DOptions:
      return fb::CreatePool2DOptions(fbb, padding, o.stride_w, o.stride_h, o.filter_w, o.filter_h, activation)
          .Union();
    case fb::BuiltinOptions::FullyConnectedOptions:
      return fb::CreateFullyConnectedOptions(fbb, activation, o.weights_format, o.keep_num_dims,
                                             o.asymmetric_quantize_inputs)
          .Union();
    case fb::BuiltinOptions::SoftmaxOptions:
      return fb::CreateSoftmaxOptions(fbb, o.beta).Union();
    case fb::BuiltinOptions::AddOptions:
      return fb::CreateAddOptions(fbb, activation, o.pot_scale_int16).Union();
    case fb::BuiltinOptions::SubOptions:
      return fb::CreateSubOptions(fbb, activation, o.pot_scale_int16).Union();
    case fb::BuiltinOptions::MulOptions:
      return fb::CreateMulOptions(fbb, activation).Union();
    case fb::BuiltinOptions::ReshapeOptions:
      return fb::CreateReshapeOptions(fbb, o.new_shape.empty() ? 0 : fbb.CreateVector(o.new_shape)).Union();
    case fb::BuiltinOptions::SqueezeOptions:
      return fb::CreateSqueezeOptions(fbb, o.squeeze_dims.empty() ? 0 : fbb.CreateVector(o.squeeze_dims)).Union();
    case fb::BuiltinOptions::TransposeConvOptions:
      return fb::CreateTransposeConvOptions(fbb, padding, o.stride_w, o.stride_h, activation).Union();
    case fb::BuiltinOptions::LeakyReluOptions:
      return fb::CreateLeakyReluOptions(fbb, o.alpha).Union();
    case fb::BuiltinOptions::BatchMatMulOptions:
      return fb::CreateBatchMatMulOptions(fbb, o.adj_x, o.adj_y, o.asymmetric_quantize_inputs).Union();
    case fb::BuiltinOptions::ConcatenationOptions:
      return fb::CreateConcatenationOptions(fbb, o.axis, activation).Union();
    case fb::BuiltinOptions::GatherOptions:
      return fb::CreateGatherOptions(fbb, o.axis, o.batch_dims).Union();
    case fb::BuiltinOptions::StridedSliceOptions:
      return fb::CreateStridedSliceOptions(fbb, o.begin_mask, o.end_mask, o.ellipsis_mask, o.new_axis_mask,
                                           o.shrink_axis_mask, o.offset)
          .Union();
    case fb::BuiltinOptions::SplitOptions:
      return fb::CreateSplitOptions(fbb, o.num_splits).Union();
    case fb::BuiltinOptions::SplitVOptions:
      return fb::CreateSplitVOptions(fbb, o.num_splits).Union();
    case fb::BuiltinOptions::ShapeOptions:
      return fb::CreateShapeOptions(fbb, static_cast<fb::TensorType>(o.out_type)).Union();
    case fb::BuiltinOptions::PackOptions:
      return fb::CreatePackOptions(fbb, o.values_count, o.axis).Union();
    case fb::BuiltinOptions::UnpackOptions:
      return fb::CreateUnpackOptions(fbb, o.num, o.axis).Union();
    case fb::BuiltinOptions::ReducerOptions:
      return fb::CreateReducerOptions(fbb, o.keep_dims).Union();
    case fb::BuiltinOptions::SpaceToDepthOptions:
      return fb::CreateSpaceToDepthOptions(fbb, o.block_size).Union();
    case fb::BuiltinOptions::DepthToSpaceOptions:
      return fb::CreateDepthToSpaceOptions(fbb, o.block_size).Union();
    case fb::BuiltinOptions::ResizeNearestNeighborOptions:
      return fb::CreateResizeNearestNeighborOptions(fbb, o.align_corners, o.half_pixel_centers).Union();
    case fb::BuiltinOptions::ResizeBilinearOptions:
      return fb::CreateResizeBilinearOptions(fbb, o.align_corners, o.half_pixel_centers).Union();
    case fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions:
      return fb::CreateUnidirectionalSequenceLSTMOptions(fbb, activation, o.cell_clip, o.proj_clip, o.time_major,
                                                         o.asymmetric_quantize_inputs, o.diagonal_recurrent_tensors)
          .Union();
    default:
      // Any other tag, known or not: a table without fields.
      return flatbuffers::Offset<void>(fbb.EndTable(fbb.StartTable()));
  }
}

// The flatbuffer, with buffer i's data at external_offsets[i] when that is
// non-zero and inline otherwise.
std::vector<uint8_t> build(const Model& model, const WriteOptions& options,
                           const std::vector<const std::vector<uint8_t>*>& data,
                           const std::vector<uint64_t>& external_offsets) {
  flatbuffers::FlatBufferBuilder fbb;

  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  for (size_t i = 0; i < data.size(); ++i) {
    const std::vector<uint8_t>* bytes = data[i];
    auto raw = std::find_if(options.raw_locations.begin(), options.raw_locations.end(),
                            [&](const RawBufferLocation& r) { return r.buffer == i; });
    if (raw != options.raw_locations.end()) {
      buffers.push_back(fb::CreateBuffer(fbb, 0, raw->offset, raw->size));
    } else if (bytes == nullptr || bytes->empty()) {
      buffers.push_back(fb::CreateBuffer(fbb));
    } else if (external_offsets[i] != 0) {
      buffers.push_back(fb::CreateBuffer(fbb, 0, external_offsets[i], bytes->size()));
    } else {
      fbb.ForceVectorAlignment(bytes->size(), sizeof(uint8_t), kExternalAlignment);
      buffers.push_back(fb::CreateBuffer(fbb, fbb.CreateVector(*bytes)));
    }
  }

  // Distinct codes in order of first use.
  std::map<std::tuple<int32_t, int32_t, std::string>, uint32_t> code_index;
  std::vector<flatbuffers::Offset<fb::OperatorCode>> codes;
  std::vector<uint32_t> opcode_of;
  for (const Operator& op : model.operators) {
    const auto key = std::make_tuple(op.builtin, op.version, op.custom_code);
    auto found = code_index.find(key);
    if (found == code_index.end()) {
      if (options.legacy_opcodes && op.builtin > kLastByteCode) {
        throw Failure("write_tflite: " + builtin_name(op.builtin) + " cannot be written as a legacy code");
      }
      const auto byte_code = static_cast<int8_t>(std::clamp(op.builtin, -128, kLastByteCode));
      const int32_t builtin_code = options.legacy_opcodes ? 0 : op.builtin;
      codes.push_back(fb::CreateOperatorCode(fbb, byte_code,
                                             op.custom_code.empty() ? 0 : fbb.CreateString(op.custom_code),
                                             op.version, builtin_code));
      found = code_index.emplace(key, static_cast<uint32_t>(codes.size() - 1)).first;
    }
    opcode_of.push_back(found->second);
  }

  std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
  for (const Tensor& tensor : model.tensors) {
    flatbuffers::Offset<fb::QuantizationParameters> quantization = 0;
    if (tensor.has_quantization) {
      quantization = fb::CreateQuantizationParameters(
          fbb, fbb.CreateVector(tensor.quantization.scales), fbb.CreateVector(tensor.quantization.zero_points),
          fb::QuantizationDetails::NONE, 0, tensor.quantization.quantized_dimension);
    }
    tensors.push_back(fb::CreateTensor(
        fbb, fbb.CreateVector(tensor.shape), static_cast<fb::TensorType>(tensor.type), tensor.buffer,
        fbb.CreateString(tensor.name), quantization, tensor.is_variable, 0,
        tensor.shape_signature.empty() ? 0 : fbb.CreateVector(tensor.shape_signature)));
  }

  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  for (size_t i = 0; i < model.operators.size(); ++i) {
    const Operator& op = model.operators[i];
    uint32_t type = op.builtin_options_type;
    if (type == 0 && op.options.present) type = expected_options_type(op.builtin);
    const flatbuffers::Offset<void> table = type == 0 ? 0 : write_options(fbb, type, op.options);
    operators.push_back(fb::CreateOperator(fbb, opcode_of[i], fbb.CreateVector(op.inputs),
                                           fbb.CreateVector(op.outputs), static_cast<fb::BuiltinOptions>(type), table,
                                           op.has_custom_options ? fbb.CreateVector(std::vector<uint8_t>()) : 0,
                                           op.intermediates.empty() ? 0 : fbb.CreateVector(op.intermediates)));
  }

  const auto subgraph = fb::CreateSubGraph(fbb, fbb.CreateVector(tensors), fbb.CreateVector(model.inputs),
                                           fbb.CreateVector(model.outputs), fbb.CreateVector(operators),
                                           fbb.CreateString(model.subgraph_name));
  const std::vector<flatbuffers::Offset<fb::SubGraph>> subgraphs(options.subgraph_copies, subgraph);
  const auto root = fb::CreateModel(fbb, model.version, fbb.CreateVector(codes), fbb.CreateVector(subgraphs),
                                    fbb.CreateString(model.description), fbb.CreateVector(buffers));
  fb::FinishModelBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

int32_t code(Builtin builtin) { return static_cast<int32_t>(builtin); }

// Recognisable constant bytes: first, first + 7, ... (mod 256).
std::vector<uint8_t> bytes_of(size_t n, uint8_t first) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(first + 7 * i);
  return out;
}

std::vector<uint8_t> int32_bytes(const std::vector<int32_t>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// An int8 tensor quantised per tensor, as activations are.
Tensor activation(const std::string& name, std::vector<int32_t> shape, float scale, int64_t zero_point) {
  Tensor t;
  t.name = name;
  t.type = TensorType::Int8;
  t.shape = std::move(shape);
  t.has_quantization = true;
  t.quantization.scales = {scale};
  t.quantization.zero_points = {zero_point};
  return t;
}

// One operator writing tensor 3, with the options table its code expects.
Operator with_options(Builtin builtin, std::vector<int32_t> inputs, Options options) {
  Operator op;
  op.builtin = code(builtin);
  op.inputs = std::move(inputs);
  op.outputs = {3};
  op.builtin_options_type = expected_options_type(op.builtin);
  options.present = true;
  op.options = std::move(options);
  return op;
}

uint64_t align_up(uint64_t value) { return (value + kExternalAlignment - 1) / kExternalAlignment * kExternalAlignment; }

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

bool same_float(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

std::string options_difference(const Options& a, const Options& b) {
  if (a.present != b.present) return "options present";
  if (a.padding != b.padding) return "padding";
  if (a.stride_w != b.stride_w || a.stride_h != b.stride_h) return "stride";
  if (a.dilation_w != b.dilation_w || a.dilation_h != b.dilation_h) return "dilation";
  if (a.depth_multiplier != b.depth_multiplier) return "depth_multiplier";
  if (a.filter_w != b.filter_w || a.filter_h != b.filter_h) return "filter";
  if (a.activation != b.activation) return "activation";
  if (!same_float(a.beta, b.beta)) return "beta";
  if (a.keep_num_dims != b.keep_num_dims) return "keep_num_dims";
  if (a.weights_format != b.weights_format) return "weights_format";
  if (a.asymmetric_quantize_inputs != b.asymmetric_quantize_inputs) return "asymmetric_quantize_inputs";
  if (a.new_shape != b.new_shape) return "new_shape";
  if (a.squeeze_dims != b.squeeze_dims) return "squeeze_dims";
  if (a.adj_x != b.adj_x || a.adj_y != b.adj_y) return "adj_x/adj_y";
  if (a.pot_scale_int16 != b.pot_scale_int16) return "pot_scale_int16";
  if (!same_float(a.alpha, b.alpha)) return "alpha";
  if (a.axis != b.axis) return "axis";
  if (a.batch_dims != b.batch_dims) return "batch_dims";
  if (a.values_count != b.values_count) return "values_count";
  if (a.num != b.num) return "num";
  if (a.num_splits != b.num_splits) return "num_splits";
  if (a.begin_mask != b.begin_mask || a.end_mask != b.end_mask) return "begin_mask/end_mask";
  if (a.ellipsis_mask != b.ellipsis_mask || a.new_axis_mask != b.new_axis_mask) return "ellipsis_mask/new_axis_mask";
  if (a.shrink_axis_mask != b.shrink_axis_mask) return "shrink_axis_mask";
  if (a.offset != b.offset) return "offset";
  if (a.out_type != b.out_type) return "out_type";
  if (a.keep_dims != b.keep_dims) return "keep_dims";
  if (a.cell_clip != b.cell_clip || a.proj_clip != b.proj_clip) return "cell_clip/proj_clip";
  if (a.time_major != b.time_major) return "time_major";
  if (a.diagonal_recurrent_tensors != b.diagonal_recurrent_tensors) return "diagonal_recurrent_tensors";
  if (a.block_size != b.block_size) return "block_size";
  if (a.align_corners != b.align_corners || a.half_pixel_centers != b.half_pixel_centers) {
    return "align_corners/half_pixel_centers";
  }
  return "";
}

std::string tensor_difference(const Tensor& a, const Tensor& b) {
  if (a.name != b.name) return "name";
  if (a.type != b.type) return "type";
  if (a.shape != b.shape) return "shape";
  if (a.shape_signature != b.shape_signature) return "shape_signature";
  if (a.has_quantization != b.has_quantization) return "has_quantization";
  if (!same_floats(a.quantization.scales, b.quantization.scales)) return "scales";
  if (a.quantization.zero_points != b.quantization.zero_points) return "zero_points";
  if (a.quantization.quantized_dimension != b.quantization.quantized_dimension) return "quantized_dimension";
  if (a.buffer != b.buffer) return "buffer";
  if (a.data != b.data) return "data";
  if (a.is_variable != b.is_variable) return "is_variable";
  return "";
}

std::string operator_difference(const Operator& a, const Operator& b) {
  if (a.builtin != b.builtin) return "builtin";
  if (a.version != b.version) return "version";
  if (a.custom_code != b.custom_code) return "custom_code";
  if (a.inputs != b.inputs) return "inputs";
  if (a.outputs != b.outputs) return "outputs";
  if (a.intermediates != b.intermediates) return "intermediates";
  if (a.builtin_options_type != b.builtin_options_type) return "builtin_options_type";
  if (a.has_custom_options != b.has_custom_options) return "has_custom_options";
  const std::string options = options_difference(a.options, b.options);
  return options.empty() ? "" : "options: " + options;
}

}  // namespace

std::vector<uint8_t> write_tflite(const Model& model, const WriteOptions& options) {
  const std::vector<const std::vector<uint8_t>*> data = buffer_data(model, options);
  std::vector<uint64_t> offsets(data.size(), 0);
  if (!options.external_buffers) return build(model, options, data, offsets);

  // The offsets depend on the flatbuffer's size, which depends only on which
  // offset fields are written, not on their values: measure with a
  // placeholder, then write the real offsets and check the size held.
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i] != nullptr && !data[i]->empty()) offsets[i] = kExternalAlignment;
  }
  const size_t flatbuffer_size = build(model, options, data, offsets).size();
  uint64_t end = flatbuffer_size;
  for (size_t i = 0; i < data.size(); ++i) {
    if (offsets[i] == 0) continue;
    offsets[i] = align_up(end);
    end = offsets[i] + data[i]->size();
  }
  std::vector<uint8_t> file = build(model, options, data, offsets);
  if (file.size() != flatbuffer_size) throw Failure("write_tflite: the flatbuffer changed size between passes");
  file.resize(end, 0);
  for (size_t i = 0; i < data.size(); ++i) {
    if (offsets[i] != 0) std::memcpy(file.data() + offsets[i], data[i]->data(), data[i]->size());
  }
  return file;
}

Model example_classifier() {
  Model m;
  m.version = 3;
  m.description = "etns test model";
  m.subgraph_name = "main";

  Tensor input = activation("input", {1, 4, 4, 2}, 0.5F, -3);
  input.shape_signature = {-1, 4, 4, 2};
  Tensor weights = activation("conv/weights", {3, 2, 2, 2}, 0.0F, 0);
  weights.quantization.scales = {0.01F, 0.02F, 0.03F};
  weights.quantization.zero_points = {0, 0, 0};
  weights.buffer = 1;
  weights.data = bytes_of(24, 1);
  Tensor bias;
  bias.name = "conv/bias";
  bias.type = TensorType::Int32;
  bias.shape = {3};
  bias.has_quantization = true;
  bias.quantization.scales = {0.005F, 0.01F, 0.015F};
  bias.quantization.zero_points = {0, 0, 0};
  bias.buffer = 2;
  bias.data = int32_bytes({-100, 0, 100});
  Tensor conv = activation("conv", {1, 2, 2, 3}, 0.25F, -128);
  Tensor shape;
  shape.name = "reshape/shape";
  shape.type = TensorType::Int32;
  shape.shape = {2};
  shape.buffer = 3;
  shape.data = int32_bytes({-1, 12});
  Tensor flat = activation("flat", {1, 12}, 0.25F, -128);
  Tensor fc_weights = activation("fc/weights", {4, 12}, 0.004F, 0);
  fc_weights.buffer = 4;
  fc_weights.data = bytes_of(48, 9);
  Tensor fc_bias;
  fc_bias.name = "fc/bias";
  fc_bias.type = TensorType::Int32;
  fc_bias.shape = {4};
  fc_bias.buffer = 5;
  fc_bias.data = int32_bytes({1, -2, 3, -4});
  Tensor logits = activation("logits", {1, 4}, 0.1F, 7);
  Tensor probabilities = activation("probabilities", {1, 4}, 1.0F / 256, -128);
  m.tensors = {input, weights, bias, conv, shape, flat, fc_weights, fc_bias, logits, probabilities};
  m.inputs = {0};
  m.outputs = {9};

  Operator conv_op;
  conv_op.builtin = code(Builtin::Conv2d);
  conv_op.version = 3;
  conv_op.inputs = {0, 1, 2};
  conv_op.outputs = {3};
  conv_op.builtin_options_type = expected_options_type(conv_op.builtin);
  conv_op.options.present = true;
  conv_op.options.padding = Padding::Valid;
  conv_op.options.stride_w = 2;
  conv_op.options.stride_h = 2;
  conv_op.options.activation = Activation::Relu;
  Operator reshape;
  reshape.builtin = code(Builtin::Reshape);
  reshape.inputs = {3, 4};
  reshape.outputs = {5};
  Operator fc;
  fc.builtin = code(Builtin::FullyConnected);
  fc.version = 4;
  fc.inputs = {5, 6, 7};
  fc.outputs = {8};
  fc.builtin_options_type = expected_options_type(fc.builtin);
  fc.options.present = true;
  Operator softmax;
  softmax.builtin = code(Builtin::Softmax);
  softmax.version = 2;
  softmax.inputs = {8};
  softmax.outputs = {9};
  softmax.builtin_options_type = expected_options_type(softmax.builtin);
  softmax.options.present = true;
  softmax.options.beta = 1.0F;
  m.operators = {conv_op, reshape, fc, softmax};
  return m;
}

namespace {

// One operator of every builtin the importer knows, each with options other
// than the defaults, so that a round trip through the writer and the reader
// shows every field.
std::vector<Operator> example_builtin_operators() {
  Options conv;
  conv.padding = Padding::Valid;
  conv.stride_w = 3;
  conv.stride_h = 4;
  conv.dilation_w = 2;
  conv.dilation_h = 5;
  conv.activation = Activation::Relu6;
  Options depthwise = conv;
  depthwise.depth_multiplier = 2;
  Options pool;
  pool.stride_w = 2;
  pool.stride_h = 2;
  pool.filter_w = 3;
  pool.filter_h = 2;
  pool.activation = Activation::ReluN1To1;
  Options fc;
  fc.activation = Activation::Tanh;
  fc.keep_num_dims = true;
  fc.weights_format = 1;
  fc.asymmetric_quantize_inputs = true;
  Options softmax;
  softmax.beta = 0.75F;
  Options add;
  add.activation = Activation::Relu;
  add.pot_scale_int16 = false;
  Options mul;
  mul.activation = Activation::SignBit;
  Options reshape;
  reshape.new_shape = {1, -1};
  Options squeeze;
  squeeze.squeeze_dims = {0, 2};
  Options transpose_conv;
  transpose_conv.padding = Padding::Valid;
  transpose_conv.stride_w = 2;
  transpose_conv.stride_h = 3;
  transpose_conv.activation = Activation::Relu;
  Options batch_matmul;
  batch_matmul.adj_x = true;
  batch_matmul.adj_y = true;
  batch_matmul.asymmetric_quantize_inputs = true;
  return {
      with_options(Builtin::Conv2d, {0, 4}, conv),
      with_options(Builtin::DepthwiseConv2d, {0, 4}, depthwise),
      with_options(Builtin::AveragePool2d, {0}, pool),
      with_options(Builtin::MaxPool2d, {0}, pool),
      with_options(Builtin::FullyConnected, {0, 1, -1}, fc),
      with_options(Builtin::Softmax, {0}, softmax),
      with_options(Builtin::Add, {0, 1}, add),
      with_options(Builtin::Sub, {0, 1}, add),
      with_options(Builtin::Mul, {0, 1}, mul),
      with_options(Builtin::Reshape, {0}, reshape),
      with_options(Builtin::Squeeze, {0}, squeeze),
      with_options(Builtin::TransposeConv, {2, 1, 0, -1}, transpose_conv),
      with_options(Builtin::BatchMatmul, {0, 1}, batch_matmul),
      with_options(Builtin::Pad, {0, 2}, {}),
      with_options(Builtin::PadV2, {0, 2, 1}, {}),
      with_options(Builtin::Transpose, {0, 2}, {}),
      with_options(Builtin::Maximum, {0, 1}, {}),
      with_options(Builtin::Minimum, {0, 1}, {}),
      with_options(Builtin::Quantize, {0}, {}),
      with_options(Builtin::Dequantize, {0}, {}),
  };
}

// The data-movement and shape builtins (after the others, so that the
// operator indices tests name stay put), each with options other than the
// defaults.
std::vector<Operator> example_data_movement_operators() {
  Options concatenation;
  concatenation.axis = -2;
  concatenation.activation = Activation::Relu6;
  Options gather;
  gather.axis = 1;
  gather.batch_dims = 1;
  Options strided_slice;
  strided_slice.begin_mask = 1;
  strided_slice.end_mask = 2;
  strided_slice.ellipsis_mask = 4;
  strided_slice.new_axis_mask = 8;
  strided_slice.shrink_axis_mask = 16;
  strided_slice.offset = true;
  Options split;
  split.num_splits = 3;
  Options shape;
  shape.out_type = TensorType::Int64;
  Options pack;
  pack.values_count = 2;
  pack.axis = -1;
  Options unpack;
  unpack.num = 4;
  unpack.axis = 3;
  return {
      with_options(Builtin::Concatenation, {0, 1}, concatenation),
      with_options(Builtin::Gather, {0, 2}, gather),
      with_options(Builtin::StridedSlice, {0, 2, 2, 2}, strided_slice),
      with_options(Builtin::Split, {2, 0}, split),
      with_options(Builtin::SplitV, {0, 2, 2}, split),
      with_options(Builtin::Slice, {0, 2, 2}, {}),
      with_options(Builtin::ExpandDims, {0, 2}, {}),
      with_options(Builtin::Shape, {0}, shape),
      with_options(Builtin::Pack, {0, 1}, pack),
      with_options(Builtin::Unpack, {0}, unpack),
  };
}

// MEAN, SUM and REDUCE_MAX (after the data-movement builtins, so that the
// indices tests name stay put), keep_dims both ways.
std::vector<Operator> example_reduction_operators() {
  Options keep;
  keep.keep_dims = true;
  Options drop;  // a ReducerOptions table holding the default
  return {
      with_options(Builtin::Mean, {0, 2}, keep),
      with_options(Builtin::Sum, {0, 2}, drop),
      with_options(Builtin::ReduceMax, {0, 2}, keep),
  };
}

// SPACE_TO_DEPTH, DEPTH_TO_SPACE, RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR (after the
// reductions, so that the indices tests name stay put), options other than
// the defaults.
std::vector<Operator> example_resampling_operators() {
  Options space_to_depth;
  space_to_depth.block_size = 2;
  Options depth_to_space;
  depth_to_space.block_size = 3;
  Options resize;
  resize.align_corners = true;
  resize.half_pixel_centers = true;
  Options resize_bilinear;
  resize_bilinear.align_corners = true;
  return {
      with_options(Builtin::SpaceToDepth, {0}, space_to_depth),
      with_options(Builtin::DepthToSpace, {0}, depth_to_space),
      with_options(Builtin::ResizeNearestNeighbor, {0, 2}, resize),
      with_options(Builtin::ResizeBilinear, {0, 2}, resize_bilinear),
  };
}

// What the reader keeps without knowing it: a custom operator, a builtin with
// options it does not read (REDUCE_PROD's ReducerOptions), a code above 127.
std::vector<Operator> example_unknown_operators() {
  Operator custom;
  custom.builtin = code(Builtin::Custom);
  custom.custom_code = "TFLite_Detection_PostProcess";
  custom.inputs = {0};
  custom.outputs = {3};
  custom.has_custom_options = true;
  std::vector<Operator> operators = {custom};
  Operator mean;  // REDUCE_PROD with its ReducerOptions (27): kept as a type tag
  mean.builtin = 81;
  mean.inputs = {0, 2};
  mean.outputs = {3};
  mean.builtin_options_type = 27;
  mean.options.present = true;
  operators.push_back(mean);
  Operator gelu;  // a code above 127
  gelu.builtin = 150;
  gelu.version = 2;
  gelu.inputs = {0};
  gelu.outputs = {3};
  operators.push_back(gelu);
  return operators;
}

}  // namespace

Model example_operators() {
  Model m;
  m.version = 3;
  Tensor constant;
  constant.name = "c";
  constant.type = TensorType::Int32;
  constant.shape = {2};
  constant.buffer = 1;
  constant.data = int32_bytes({0, 1});
  Tensor weights = activation("w", {4, 1, 1, 4}, 0.0F, 0);
  weights.quantization.scales = {0.5F, 0.25F, 0.125F, 0.0625F};
  weights.quantization.zero_points = {0, 0, 0, 0};
  weights.buffer = 2;
  weights.data = bytes_of(16, 3);
  m.tensors = {activation("a", {1, 2, 2, 4}, 0.5F, 1), activation("b", {1, 2, 2, 4}, 0.5F, 2), constant,
               activation("out", {1, 2, 2, 4}, 0.5F, 3), weights};
  m.inputs = {0, 1};
  m.outputs = {3};
  m.operators = example_builtin_operators();
  for (Operator& op : example_unknown_operators()) m.operators.push_back(std::move(op));
  for (Operator& op : example_data_movement_operators()) m.operators.push_back(std::move(op));
  for (Operator& op : example_reduction_operators()) m.operators.push_back(std::move(op));
  for (Operator& op : example_resampling_operators()) m.operators.push_back(std::move(op));
  return m;
}

std::string first_difference(const Model& a, const Model& b) {
  if (a.version != b.version) return "version";
  if (a.description != b.description) return "description";
  if (a.subgraph_name != b.subgraph_name) return "subgraph_name";
  if (a.inputs != b.inputs) return "inputs";
  if (a.outputs != b.outputs) return "outputs";
  if (a.tensors.size() != b.tensors.size()) {
    return "tensor count " + std::to_string(a.tensors.size()) + " vs " + std::to_string(b.tensors.size());
  }
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const std::string difference = tensor_difference(a.tensors[i], b.tensors[i]);
    if (!difference.empty()) {
      return "tensor " + std::to_string(i) + " (\"" + a.tensors[i].name + "\"): " + difference + " differ";
    }
  }
  if (a.operators.size() != b.operators.size()) {
    return "operator count " + std::to_string(a.operators.size()) + " vs " + std::to_string(b.operators.size());
  }
  for (size_t i = 0; i < a.operators.size(); ++i) {
    const std::string difference = operator_difference(a.operators[i], b.operators[i]);
    if (!difference.empty()) return "operator " + std::to_string(i) + ": " + difference + " differ";
  }
  return "";
}

}  // namespace etns::tools::tflite
