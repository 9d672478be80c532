#pragma once

#include <cstdint>
#include <string>
#include <vector>

// A TFLite model (a `.tflite` flatbuffer) as plain data: what `etns import`
// needs of the one subgraph a microcontroller model has. read_tflite
// (tflite_reader.h) fills it from a verified file; the importer
// (tools/writers/import/) turns it into an ExecuTorch program. Enum values are the
// TFLite schema's.
namespace etns::tools::tflite {

enum class TensorType : int8_t {
  Float32 = 0,
  Float16 = 1,
  Int32 = 2,
  UInt8 = 3,
  Int64 = 4,
  String = 5,
  Bool = 6,
  Int16 = 7,
  Complex64 = 8,
  Int8 = 9,
  Float64 = 10,
  Complex128 = 11,
  UInt64 = 12,
  Resource = 13,
  Variant = 14,
  UInt32 = 15,
  UInt16 = 16,
  Int4 = 17,
};
// "int8", "float32", ...; "type <n>" for a value outside the list.
std::string to_string(TensorType type);

// "[1,49,10,1]" for messages; a shape of more than 8 dims is cut short
// with its rank.
std::string shape_text(const std::vector<int32_t>& shape);

// The builtin operators the importer knows by name; any other code is kept
// as its number (BuiltinOperator in the schema).
enum class Builtin : int32_t {
  Add = 0,
  AveragePool2d = 1,
  Concatenation = 2,
  Conv2d = 3,
  DepthwiseConv2d = 4,
  DepthToSpace = 5,
  Dequantize = 6,
  FullyConnected = 9,
  Logistic = 14,
  MaxPool2d = 17,
  Mul = 18,
  Relu = 19,
  ReluN1To1 = 20,
  Relu6 = 21,
  Reshape = 22,
  ResizeBilinear = 23,
  Softmax = 25,
  SpaceToDepth = 26,
  Tanh = 28,
  Custom = 32,
  Pad = 34,
  Gather = 36,
  BatchToSpaceNd = 37,
  SpaceToBatchNd = 38,
  Transpose = 39,
  Mean = 40,
  Sub = 41,
  Squeeze = 43,
  UnidirectionalSequenceLstm = 44,
  StridedSlice = 45,
  Split = 49,
  Prelu = 54,
  Maximum = 55,
  ArgMax = 56,
  Minimum = 57,
  PadV2 = 60,
  Slice = 65,
  TransposeConv = 67,
  ExpandDims = 70,
  Sum = 74,
  Shape = 77,
  ArgMin = 79,
  ReduceMax = 82,
  Pack = 83,
  Unpack = 88,
  ResizeNearestNeighbor = 97,
  LeakyRelu = 98,
  SquaredDifference = 99,
  SplitV = 102,
  Quantize = 114,
  HardSwish = 117,
  BatchMatmul = 126,
};
// "CONV_2D", ...; "BUILTIN_<n>" for a code without a name here.
std::string builtin_name(int32_t code);

enum class Padding : int8_t { Same = 0, Valid = 1 };

enum class Activation : int8_t {
  None = 0,
  Relu = 1,
  ReluN1To1 = 2,
  Relu6 = 3,
  Tanh = 4,
  SignBit = 5,
};
std::string to_string(Activation activation);

// Per-tensor (one scale) or per-channel quantisation along
// `quantized_dimension`. Present only when the file gives scales.
struct Quantization {
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int32_t quantized_dimension = 0;
};

struct Tensor {
  std::string name;
  TensorType type = TensorType::Float32;
  std::vector<int32_t> shape;            // as stored: activations NHWC
  std::vector<int32_t> shape_signature;  // empty when absent; -1 = dynamic
  bool has_quantization = false;         // scales present
  Quantization quantization;
  uint32_t buffer = 0;        // index into the model's buffers (0: none)
  std::vector<uint8_t> data;  // the buffer's bytes; empty for activations
  bool is_variable = false;
};

// The options of the operators in scope, read from builtin_options; the
// fields an operator's options table lacks keep their defaults (the
// schema's). `present` says whether the operator had options at all.
struct Options {
  bool present = false;
  Padding padding = Padding::Same;
  int32_t stride_w = 1;
  int32_t stride_h = 1;
  int32_t dilation_w = 1;
  int32_t dilation_h = 1;
  int32_t depth_multiplier = 0;          // DEPTHWISE_CONV_2D
  int32_t filter_w = 0;                  // pools
  int32_t filter_h = 0;
  Activation activation = Activation::None;
  float beta = 0.0F;                     // SOFTMAX
  bool keep_num_dims = false;            // FULLY_CONNECTED
  int8_t weights_format = 0;             // FULLY_CONNECTED: 0 DEFAULT
  bool asymmetric_quantize_inputs = false;
  std::vector<int32_t> new_shape;        // RESHAPE (optional)
  std::vector<int32_t> squeeze_dims;     // SQUEEZE
  bool adj_x = false;                    // BATCH_MATMUL
  bool adj_y = false;
  bool pot_scale_int16 = true;           // ADD, SUB
  float alpha = 0.0F;                    // LEAKY_RELU
  int32_t axis = 0;                      // CONCATENATION, GATHER, PACK, UNPACK
  int32_t batch_dims = 0;                // GATHER
  int32_t values_count = 0;              // PACK
  int32_t num = 0;                       // UNPACK
  int32_t num_splits = 0;                // SPLIT, SPLIT_V
  int32_t begin_mask = 0;                // STRIDED_SLICE
  int32_t end_mask = 0;
  int32_t ellipsis_mask = 0;
  int32_t new_axis_mask = 0;
  int32_t shrink_axis_mask = 0;
  bool offset = false;
  TensorType out_type = TensorType::Float32;  // SHAPE
  bool keep_dims = false;                // MEAN, SUM, REDUCE_MAX
  float cell_clip = 0.0F;                // UNIDIRECTIONAL_SEQUENCE_LSTM (0: none)
  float proj_clip = 0.0F;
  bool time_major = false;
  bool diagonal_recurrent_tensors = false;
  int32_t block_size = 0;                // SPACE_TO_DEPTH, DEPTH_TO_SPACE
  bool align_corners = false;            // RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR
  bool half_pixel_centers = false;
};

struct Operator {
  int32_t builtin = 0;       // resolved: max(deprecated_builtin_code, builtin_code)
  int32_t version = 1;       // the operator code's version
  std::string custom_code;   // CUSTOM only
  std::vector<int32_t> inputs;   // tensor indices; -1 = optional input absent
  std::vector<int32_t> outputs;
  std::vector<int32_t> intermediates;  // tensors for internal values (LSTM); often none
  Options options;
  uint32_t builtin_options_type = 0;  // the union's type tag as stored (0: none)
  bool has_custom_options = false;
};

struct Model {
  uint32_t version = 0;  // schema version (3)
  std::string description;
  std::string subgraph_name;
  std::vector<Tensor> tensors;
  std::vector<Operator> operators;  // execution order
  std::vector<int32_t> inputs;      // tensor indices
  std::vector<int32_t> outputs;
  // What the file gets wrong that TFLite Micro ignores, and how it was read:
  // one line each, "tensor <t> ("<name>"): ..." (import --report lists them).
  std::vector<std::string> tolerated;
};

}  // namespace etns::tools::tflite
