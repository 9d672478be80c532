#include "tools/writers/tflite/tflite_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>

#include "tests/support/rng.h"
#include "tests/support/shared_data.h"
#include "tools/common/failure.h"
#include "tools/writers/tflite/tflite_test_writer.h"

namespace etns::tools::tflite {
namespace {

constexpr const char* kContext = "test.tflite";

int32_t code(Builtin builtin) { return static_cast<int32_t>(builtin); }

std::vector<uint8_t> int32_bytes(const std::vector<int32_t>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// The one line read_tflite refuses `bytes` with ("" when it reads them).
std::string refusal(const std::vector<uint8_t>& bytes) {
  try {
    (void)read_tflite(bytes, kContext);
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "";
}

std::string refusal(const Model& model, const WriteOptions& options = {}) {
  return refusal(write_tflite(model, options));
}

std::string expected(const std::string& what) { return std::string(kContext) + ": " + what; }

void expect_round_trip(const Model& model, const WriteOptions& options) {
  const Model read = read_tflite(write_tflite(model, options), kContext);
  EXPECT_EQ(first_difference(model, read), "");
}

TEST(TfliteReader, RoundTripsTheSmallModel) {
  expect_round_trip(example_classifier(), {});
}

TEST(TfliteReader, RoundTripsEveryOperatorAndItsOptions) {
  expect_round_trip(example_operators(), {});
}

TEST(TfliteReader, ReadsDataStoredAfterTheFlatbuffer) {
  WriteOptions outside;
  outside.external_buffers = true;
  const std::vector<uint8_t> inline_file = write_tflite(example_classifier());
  const std::vector<uint8_t> outside_file = write_tflite(example_classifier(), outside);
  // Buffers are laid out after the flatbuffer in order: the file ends with
  // the last one, the fully connected bias.
  const std::vector<uint8_t> fc_bias = example_classifier().tensors[7].data;
  ASSERT_GT(outside_file.size(), fc_bias.size());
  EXPECT_TRUE(std::equal(fc_bias.begin(), fc_bias.end(), outside_file.end() - static_cast<ptrdiff_t>(fc_bias.size())));
  EXPECT_NE(inline_file.size(), outside_file.size());
  expect_round_trip(example_classifier(), outside);
  expect_round_trip(example_operators(), outside);
}

// LEAKY_RELU's LeakyReluOptions (union tag 75) carries alpha, any sign.
TEST(TfliteReader, RoundTripsLeakyReluAlpha) {
  Model m = example_operators();
  Operator leaky;
  leaky.builtin = code(Builtin::LeakyRelu);
  leaky.inputs = {0};
  leaky.outputs = {3};
  leaky.builtin_options_type = expected_options_type(leaky.builtin);
  leaky.options.present = true;
  leaky.options.alpha = -0.375F;
  m.operators.push_back(leaky);
  EXPECT_EQ(leaky.builtin_options_type, 75U);
  const Model read = read_tflite(write_tflite(m), kContext);
  EXPECT_EQ(first_difference(m, read), "");
  EXPECT_EQ(read.operators.back().options.alpha, -0.375F);
}

// UNIDIRECTIONAL_SEQUENCE_LSTM (44) carries UnidirectionalSequenceLSTMOptions
// (union tag 71) and names its internal tensors in `intermediates`, which the
// schema once marked deprecated; the reader keeps them.
TEST(TfliteReader, RoundTripsLstmOptionsAndIntermediates) {
  Model m = example_operators();
  Operator lstm;
  lstm.builtin = code(Builtin::UnidirectionalSequenceLstm);
  lstm.inputs = {0, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, 2, 2, 2, 2, -1, -1, 3, 3, -1, -1, -1, -1};
  lstm.outputs = {3};
  lstm.intermediates = {2, 1, 0};
  lstm.builtin_options_type = expected_options_type(lstm.builtin);
  lstm.options.present = true;
  lstm.options.activation = Activation::Tanh;
  lstm.options.cell_clip = 10.0F;
  lstm.options.proj_clip = 0.5F;
  lstm.options.time_major = true;
  lstm.options.asymmetric_quantize_inputs = true;
  lstm.options.diagonal_recurrent_tensors = true;
  m.operators.push_back(lstm);
  EXPECT_EQ(lstm.builtin_options_type, 71U);
  const Model read = read_tflite(write_tflite(m), kContext);
  EXPECT_EQ(first_difference(m, read), "");
  const Operator& r = read.operators.back();
  EXPECT_EQ(r.intermediates, (std::vector<int32_t>{2, 1, 0}));
  EXPECT_EQ(r.options.activation, Activation::Tanh);
  EXPECT_EQ(r.options.cell_clip, 10.0F);
  EXPECT_EQ(r.options.proj_clip, 0.5F);
  EXPECT_TRUE(r.options.time_major);
  EXPECT_TRUE(r.options.diagonal_recurrent_tensors);
  EXPECT_EQ(builtin_name(44), "UNIDIRECTIONAL_SEQUENCE_LSTM");
  // An intermediate outside the subgraph is refused like an output.
  m.operators.back().intermediates = {2, 40};
  EXPECT_EQ(refusal(m), expected("operator " + std::to_string(m.operators.size() - 1) +
                                 " (UNIDIRECTIONAL_SEQUENCE_LSTM): intermediate 1 is tensor 40, out of range (the "
                                 "subgraph has " + std::to_string(m.tensors.size()) + " tensors)"));
}

// MEAN (40), SUM (74) and REDUCE_MAX (82) carry ReducerOptions (union tag 27):
// keep_dims, false when the table leaves it out.
TEST(TfliteReader, ReadsReducerKeepDims) {
  Model m = example_operators();
  const Model read = read_tflite(write_tflite(m), kContext);
  ASSERT_EQ(first_difference(m, read), "");
  // The reductions are the first MEAN and the two operators after it.
  size_t mean = 0;
  while (mean < read.operators.size() && read.operators[mean].builtin != 40) ++mean;
  ASSERT_LE(mean + 3, read.operators.size());
  EXPECT_EQ(read.operators[mean].builtin, 40);
  EXPECT_EQ(read.operators[mean + 1].builtin, 74);
  EXPECT_EQ(read.operators[mean + 2].builtin, 82);
  for (size_t i = mean; i < mean + 3; ++i) EXPECT_EQ(read.operators[i].builtin_options_type, 27U) << i;
  EXPECT_TRUE(read.operators[mean].options.keep_dims);
  EXPECT_FALSE(read.operators[mean + 1].options.keep_dims);
  EXPECT_TRUE(read.operators[mean + 2].options.keep_dims);
  EXPECT_EQ(builtin_name(40), "MEAN");
  EXPECT_EQ(builtin_name(74), "SUM");
  EXPECT_EQ(builtin_name(82), "REDUCE_MAX");
  // A ReducerOptions table on another builtin is refused.
  m.operators[mean].builtin = code(Builtin::Add);
  EXPECT_EQ(refusal(m), expected("operator " + std::to_string(mean) +
                                 " (ADD): builtin_options is ReducerOptions, expected AddOptions"));
}

// SPACE_TO_DEPTH (26), DEPTH_TO_SPACE (5) and RESIZE_NEAREST_NEIGHBOR (97)
// with their options tables (union tags 19, 94, 74), fields read.
TEST(TfliteReader, ReadsBlockSizeAndResizeFlags) {
  Model m = example_operators();
  const Model read = read_tflite(write_tflite(m), kContext);
  ASSERT_EQ(first_difference(m, read), "");
  size_t first = 0;
  while (first < read.operators.size() && read.operators[first].builtin != 26) ++first;
  ASSERT_LE(first + 3, read.operators.size());
  EXPECT_EQ(read.operators[first].builtin_options_type, 19U);
  EXPECT_EQ(read.operators[first].options.block_size, 2);
  EXPECT_EQ(read.operators[first + 1].builtin, 5);
  EXPECT_EQ(read.operators[first + 1].builtin_options_type, 94U);
  EXPECT_EQ(read.operators[first + 1].options.block_size, 3);
  EXPECT_EQ(read.operators[first + 2].builtin, 97);
  EXPECT_EQ(read.operators[first + 2].builtin_options_type, 74U);
  EXPECT_TRUE(read.operators[first + 2].options.align_corners);
  EXPECT_TRUE(read.operators[first + 2].options.half_pixel_centers);
  EXPECT_EQ(builtin_name(26), "SPACE_TO_DEPTH");
  EXPECT_EQ(builtin_name(5), "DEPTH_TO_SPACE");
  EXPECT_EQ(builtin_name(97), "RESIZE_NEAREST_NEIGHBOR");
  // RESIZE_BILINEAR (23), ResizeBilinearOptions (tag 15) past its two
  // deprecated sizes.
  ASSERT_LE(first + 4, read.operators.size());
  EXPECT_EQ(read.operators[first + 3].builtin, 23);
  EXPECT_EQ(read.operators[first + 3].builtin_options_type, 15U);
  EXPECT_TRUE(read.operators[first + 3].options.align_corners);
  EXPECT_FALSE(read.operators[first + 3].options.half_pixel_centers);
  EXPECT_EQ(builtin_name(23), "RESIZE_BILINEAR");
}

TEST(TfliteReader, ResolvesLegacyOperatorCodes) {
  // Old converters left builtin_code 0 (ADD) and put the code in the byte.
  WriteOptions legacy;
  legacy.legacy_opcodes = true;
  expect_round_trip(example_classifier(), legacy);
}

TEST(TfliteReader, NamesTypesOperatorsAndActivations) {
  EXPECT_EQ(to_string(TensorType::Int8), "int8");
  EXPECT_EQ(to_string(TensorType::Float32), "float32");
  EXPECT_EQ(to_string(TensorType::Int4), "int4");
  EXPECT_EQ(to_string(static_cast<TensorType>(42)), "type 42");
  EXPECT_EQ(builtin_name(code(Builtin::Conv2d)), "CONV_2D");
  EXPECT_EQ(builtin_name(code(Builtin::DepthwiseConv2d)), "DEPTHWISE_CONV_2D");
  EXPECT_EQ(builtin_name(code(Builtin::PadV2)), "PADV2");
  EXPECT_EQ(builtin_name(code(Builtin::TransposeConv)), "TRANSPOSE_CONV");
  EXPECT_EQ(builtin_name(code(Builtin::Quantize)), "QUANTIZE");
  EXPECT_EQ(builtin_name(code(Builtin::BatchMatmul)), "BATCH_MATMUL");
  EXPECT_EQ(builtin_name(code(Builtin::LeakyRelu)), "LEAKY_RELU");
  EXPECT_EQ(builtin_name(117), "HARD_SWISH");
  EXPECT_EQ(builtin_name(161), "RIGHT_SHIFT");
  EXPECT_EQ(builtin_name(162), "BUILTIN_162");
  EXPECT_EQ(builtin_name(-1), "BUILTIN_-1");
  EXPECT_EQ(to_string(Activation::Relu6), "RELU6");
  EXPECT_EQ(to_string(Activation::ReluN1To1), "RELU_N1_TO_1");
  EXPECT_EQ(to_string(static_cast<Activation>(9)), "activation 9");
  // The union's member order is the file format: spot-check the tags.
  EXPECT_EQ(expected_options_type(code(Builtin::Conv2d)), 1U);
  EXPECT_EQ(expected_options_type(code(Builtin::AveragePool2d)), 5U);
  EXPECT_EQ(expected_options_type(code(Builtin::FullyConnected)), 8U);
  EXPECT_EQ(expected_options_type(code(Builtin::Reshape)), 17U);
  EXPECT_EQ(expected_options_type(code(Builtin::Sub)), 28U);
  EXPECT_EQ(expected_options_type(code(Builtin::PadV2)), 43U);
  EXPECT_EQ(expected_options_type(code(Builtin::TransposeConv)), 49U);
  EXPECT_EQ(expected_options_type(code(Builtin::Quantize)), 89U);
  EXPECT_EQ(expected_options_type(code(Builtin::BatchMatmul)), 101U);
  EXPECT_EQ(expected_options_type(code(Builtin::Custom)), 0U);
  EXPECT_EQ(expected_options_type(150), 0U);
  EXPECT_EQ(options_type_name(5), "Pool2DOptions");
  EXPECT_EQ(options_type_name(0), "type 0");
  EXPECT_EQ(options_type_name(120), "type 120");
  EXPECT_EQ(element_size(TensorType::Int32), 4U);
  EXPECT_EQ(element_size(TensorType::String), 0U);
}

// --- The MLPerf Tiny models (../shared/models/mlperf-tiny, CENSUS.md) --------

std::vector<uint8_t> read_shared_model(const std::string& shared, const std::string& name) {
  return testing::read_file(shared + "/models/mlperf-tiny/" + name + ".tflite");
}

#define ETNS_REQUIRE_MLPERF(shared)                                                        \
  ETNS_REQUIRE_SHARED(shared);                                                             \
  if (!std::filesystem::exists(shared + "/models/mlperf-tiny/kws.tflite")) {               \
    GTEST_SKIP() << shared << "/models/mlperf-tiny is absent (the MLPerf Tiny models)";   \
  }

std::map<int32_t, int> count_builtins(const Model& m) {
  std::map<int32_t, int> counts;
  for (const Operator& op : m.operators) ++counts[op.builtin];
  return counts;
}

// The weight and bias bytes of the conv, depthwise and fully connected
// operators (CENSUS.md's "weights+bias bytes").
size_t weight_bytes(const Model& m) {
  size_t total = 0;
  for (const Operator& op : m.operators) {
    if (op.builtin != code(Builtin::Conv2d) && op.builtin != code(Builtin::DepthwiseConv2d) &&
        op.builtin != code(Builtin::FullyConnected)) {
      continue;
    }
    for (size_t k = 1; k < op.inputs.size(); ++k) {
      if (op.inputs[k] >= 0) total += m.tensors[static_cast<size_t>(op.inputs[k])].data.size();
    }
  }
  return total;
}

void expect_io(const Tensor& t, std::vector<int32_t> shape, float scale, int64_t zero_point) {
  EXPECT_EQ(t.type, TensorType::Int8) << t.name;
  EXPECT_EQ(t.shape, shape) << t.name;
  ASSERT_TRUE(t.has_quantization) << t.name;
  ASSERT_EQ(t.quantization.scales.size(), 1U) << t.name;
  EXPECT_FLOAT_EQ(t.quantization.scales[0], scale) << t.name;
  EXPECT_EQ(t.quantization.zero_points, std::vector<int64_t>{zero_point}) << t.name;
}

TEST(TfliteReaderMlperf, ReadsKwsAsTheCensusDescribesIt) {
  ETNS_REQUIRE_MLPERF(shared);
  const Model m = read_tflite(read_shared_model(shared, "kws"), "kws.tflite");
  EXPECT_EQ(m.version, 3U);
  EXPECT_EQ(m.description, "MLIR Converted.");
  EXPECT_EQ(m.subgraph_name, "main");
  ASSERT_EQ(m.tensors.size(), 35U);
  int int32_tensors = 0;
  for (const Tensor& t : m.tensors) int32_tensors += t.type == TensorType::Int32 ? 1 : 0;
  EXPECT_EQ(int32_tensors, 11);

  // CONV_2D 3, DEPTHWISE_CONV_2D 4, AVERAGE_POOL_2D 1, RESHAPE 22, FULLY_CONNECTED 9, SOFTMAX 25;
  // kws stores them only in deprecated_builtin_code.
  const std::vector<int32_t> codes = {3, 4, 3, 4, 3, 4, 3, 4, 3, 1, 22, 9, 25};
  const std::vector<int32_t> versions = {3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 4, 2};
  ASSERT_EQ(m.operators.size(), 13U);
  for (size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(m.operators[i].builtin, codes[i]) << "operator " << i;
    EXPECT_EQ(m.operators[i].version, versions[i]) << "operator " << i;
  }

  EXPECT_EQ(m.inputs, std::vector<int32_t>{0});
  EXPECT_EQ(m.outputs, std::vector<int32_t>{34});
  const Tensor& input = m.tensors[0];
  EXPECT_EQ(input.name, "input_1");
  expect_io(input, {1, 49, 10, 1}, 0.584702909F, 83);
  EXPECT_EQ(input.shape_signature, (std::vector<int32_t>{-1, 49, 10, 1}));
  expect_io(m.tensors[34], {1, 12}, 0.00390625F, -128);

  // Operator 0: t0 -> t22 through t17 [64,10,4,1] and bias t3; 10x4 s2,2 d1,1 SAME RELU.
  const Operator& conv = m.operators[0];
  EXPECT_EQ(conv.inputs, (std::vector<int32_t>{0, 17, 3}));
  EXPECT_EQ(conv.outputs, std::vector<int32_t>{22});
  EXPECT_EQ(conv.builtin_options_type, 1U);
  ASSERT_TRUE(conv.options.present);
  EXPECT_EQ(conv.options.padding, Padding::Same);
  EXPECT_EQ(conv.options.stride_w, 2);
  EXPECT_EQ(conv.options.stride_h, 2);
  EXPECT_EQ(conv.options.dilation_w, 1);
  EXPECT_EQ(conv.options.dilation_h, 1);
  EXPECT_EQ(conv.options.activation, Activation::Relu);
  const Tensor& weights = m.tensors[17];
  EXPECT_EQ(weights.type, TensorType::Int8);
  EXPECT_EQ(weights.shape, (std::vector<int32_t>{64, 10, 4, 1}));  // the 10x4 filter
  EXPECT_EQ(weights.data.size(), 2560U);
  ASSERT_TRUE(weights.has_quantization);
  EXPECT_EQ(weights.quantization.scales.size(), 64U);
  EXPECT_EQ(weights.quantization.zero_points, std::vector<int64_t>(64, 0));
  EXPECT_EQ(weights.quantization.quantized_dimension, 0);
  const auto [low, high] =
      std::minmax_element(weights.quantization.scales.begin(), weights.quantization.scales.end());
  EXPECT_FLOAT_EQ(*low, 0.000270306802F);
  EXPECT_FLOAT_EQ(*high, 0.0020227544F);
  EXPECT_EQ(m.tensors[3].type, TensorType::Int32);
  EXPECT_EQ(m.tensors[3].data.size(), 64U * 4);

  // Depthwise weights are per-channel along dim 3.
  EXPECT_EQ(m.tensors[5].shape, (std::vector<int32_t>{1, 3, 3, 64}));
  EXPECT_EQ(m.tensors[5].quantization.quantized_dimension, 3);
  EXPECT_EQ(m.operators[1].options.depth_multiplier, 1);

  const Operator& pool = m.operators[9];
  EXPECT_EQ(pool.options.filter_w, 5);
  EXPECT_EQ(pool.options.filter_h, 25);
  EXPECT_EQ(pool.options.stride_w, 5);
  EXPECT_EQ(pool.options.stride_h, 25);
  EXPECT_EQ(pool.options.padding, Padding::Valid);
  EXPECT_EQ(pool.options.activation, Activation::None);

  const Operator& reshape = m.operators[10];
  EXPECT_FALSE(reshape.options.present);
  EXPECT_EQ(reshape.inputs, (std::vector<int32_t>{31, 2}));
  EXPECT_EQ(m.tensors[2].data, int32_bytes({-1, 64}));

  const Operator& fc = m.operators[11];
  EXPECT_EQ(fc.inputs, (std::vector<int32_t>{32, 16, 1}));
  ASSERT_TRUE(fc.options.present);
  EXPECT_FALSE(fc.options.keep_num_dims);
  EXPECT_EQ(fc.options.weights_format, 0);
  EXPECT_FALSE(fc.options.asymmetric_quantize_inputs);
  EXPECT_EQ(fc.options.activation, Activation::None);
  EXPECT_EQ(m.tensors[16].quantization.scales.size(), 1U);

  EXPECT_FLOAT_EQ(m.operators[12].options.beta, 1.0F);
  EXPECT_EQ(weight_bytes(m), 24368U);
}

struct CensusRow {
  const char* name;
  size_t operators;
  size_t tensors;
  std::map<int32_t, int> by_type;
  size_t weight_bytes;
  std::vector<int32_t> input_shape;
  float input_scale;
  int64_t input_zero_point;
  std::vector<int32_t> output_shape;
  float output_scale;
  int64_t output_zero_point;
};

TEST(TfliteReaderMlperf, ReadsEveryModelWithItsCensusCounts) {
  ETNS_REQUIRE_MLPERF(shared);
  const std::vector<CensusRow> rows = {
      {"kws", 13, 35, {{3, 5}, {4, 4}, {1, 1}, {22, 1}, {9, 1}, {25, 1}}, 24368,
       {1, 49, 10, 1}, 0.584702909F, 83, {1, 12}, 0.00390625F, -128},
      {"vww", 31, 89, {{3, 14}, {4, 13}, {1, 1}, {22, 1}, {9, 1}, {25, 1}}, 219064,
       {1, 96, 96, 3}, 0.00392156886F, -128, {1, 2}, 0.00390625F, -128},
      {"ic", 16, 38, {{3, 9}, {0, 3}, {1, 1}, {22, 1}, {9, 1}, {25, 1}}, 78744,
       {1, 32, 32, 3}, 1.0F, -128, {1, 10}, 0.00390625F, -128},
      {"ad", 10, 31, {{9, 10}}, 270880, {1, 640}, 0.391015232F, 89, {1, 640}, 0.364498466F, 96},
  };
  for (const CensusRow& row : rows) {
    SCOPED_TRACE(row.name);
    const Model m = read_tflite(read_shared_model(shared, row.name), std::string(row.name) + ".tflite");
    EXPECT_EQ(m.operators.size(), row.operators);
    EXPECT_EQ(m.tensors.size(), row.tensors);
    EXPECT_EQ(count_builtins(m), row.by_type);
    EXPECT_EQ(weight_bytes(m), row.weight_bytes);
    ASSERT_EQ(m.inputs.size(), 1U);
    ASSERT_EQ(m.outputs.size(), 1U);
    expect_io(m.tensors[static_cast<size_t>(m.inputs[0])], row.input_shape, row.input_scale, row.input_zero_point);
    expect_io(m.tensors[static_cast<size_t>(m.outputs[0])], row.output_shape, row.output_scale,
              row.output_zero_point);
    // What we read, we write and read back the same, inline or outside.
    expect_round_trip(m, {});
    WriteOptions outside;
    outside.external_buffers = true;
    expect_round_trip(m, outside);
  }
}

// --- Refusals: one line each, naming what and where --------------------------

TEST(TfliteReaderRefuses, EveryTruncationOfAFile) {
  const Model model = example_classifier();
  for (bool outside : {false, true}) {
    WriteOptions options;
    options.external_buffers = outside;
    const std::vector<uint8_t> file = write_tflite(model, options);
    // Outside data: where each buffer's bytes start (buffer 1, 2, ... in
    // order, each named by the first tensor that uses it).
    struct Placed {
      uint32_t buffer;
      size_t at;
      size_t size;
    };
    std::vector<Placed> placed;
    if (outside) {
      for (const Tensor& t : model.tensors) {
        if (t.data.empty()) continue;
        const auto at = std::find_end(file.begin(), file.end(), t.data.begin(), t.data.end());
        placed.push_back({t.buffer, static_cast<size_t>(at - file.begin()), t.data.size()});
      }
    }
    for (size_t n = 0; n < file.size(); ++n) {
      SCOPED_TRACE("outside " + std::to_string(outside) + ", first " + std::to_string(n) + " bytes");
      const std::string message = refusal(std::vector<uint8_t>(file.begin(), file.begin() + static_cast<ptrdiff_t>(n)));
      if (n < 8) {
        EXPECT_EQ(message, expected("not a TFLite model (" + std::to_string(n) +
                                    " bytes, shorter than a flatbuffer header)"));
        continue;
      }
      // The first buffer whose data the cut reaches, if the flatbuffer is whole.
      std::string cut_buffer;
      for (const Placed& p : placed) {
        if (cut_buffer.empty() && p.at + p.size > n) {
          cut_buffer = "buffer " + std::to_string(p.buffer) + ": data at offset " + std::to_string(p.at) + " of " +
                       std::to_string(p.size) + " bytes lies outside the file (" + std::to_string(n) + " bytes)";
        }
      }
      if (message.rfind(std::string(kContext) + ": buffer ", 0) == 0) {
        EXPECT_EQ(message, expected(cut_buffer));
      } else {
        EXPECT_EQ(message, expected("corrupt or truncated TFLite file: a table, vector or string lies outside its " +
                                    std::to_string(n) + " bytes, is misaligned or nested too deep"));
      }
    }
  }
}

TEST(TfliteReaderRefuses, CorruptBytesWithAMessageOrReadsThem) {
  const std::vector<uint8_t> file = write_tflite(example_operators());
  const std::vector<uint8_t> small = write_tflite(example_classifier());
  testing::Rng rng(0x746666);  // "tff"
  int refused = 0;
  int read = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<uint8_t> bytes = trial % 2 == 0 ? file : small;
    // One to four flipped bytes anywhere, the header included.
    const int flips = static_cast<int>(rng.uniform(1, 4));
    for (int f = 0; f < flips; ++f) {
      const auto at = static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(bytes.size()) - 1));
      bytes[at] = static_cast<uint8_t>(bytes[at] ^ rng.uniform(1, 255));
    }
    const std::string message = refusal(bytes);
    if (message.empty()) {
      ++read;
      continue;
    }
    ++refused;
    EXPECT_EQ(message.rfind(std::string(kContext) + ": ", 0), 0U) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(read, 0);
}

TEST(TfliteReaderRefuses, FilesThatAreNotTflite) {
  EXPECT_EQ(refusal(std::vector<uint8_t>{}),
            expected("not a TFLite model (0 bytes, shorter than a flatbuffer header)"));
  EXPECT_EQ(refusal(std::vector<uint8_t>{'T', 'F', 'L', '3', 0}),
            expected("not a TFLite model (5 bytes, shorter than a flatbuffer header)"));
  const std::string pte = std::string("\x18\0\0\0ET12", 8) + std::string(64, '\0');
  EXPECT_EQ(refusal(std::vector<uint8_t>(pte.begin(), pte.end())),
            expected("not a TFLite model (file identifier \"ET12\", expected \"TFL3\")"));
  const std::string text = "name: model\nversion: 3\n";
  EXPECT_EQ(refusal(std::vector<uint8_t>(text.begin(), text.end())),
            expected("not a TFLite model (file identifier \": mo\", expected \"TFL3\")"));
  std::vector<uint8_t> control(16, 0);
  control[4] = 0x1b;
  EXPECT_EQ(refusal(control), expected("not a TFLite model (file identifier \"\\x1b\\0\\0\\0\", expected \"TFL3\")"));
}

TEST(TfliteReaderRefuses, SchemaVersionsOtherThanThree) {
  Model m = example_classifier();
  m.version = 2;
  EXPECT_EQ(refusal(m), expected("schema version 2, expected 3"));
  m.version = 4;
  EXPECT_EQ(refusal(m), expected("schema version 4, expected 3"));
}

TEST(TfliteReaderRefuses, NoSubgraphOrSeveral) {
  WriteOptions options;
  options.subgraph_copies = 0;
  EXPECT_EQ(refusal(example_classifier(), options),
            expected("no subgraph (the model has 0; etns imports exactly one)"));
  options.subgraph_copies = 2;
  EXPECT_EQ(refusal(example_classifier(), options),
            expected("several subgraphs (the model has 2; etns imports exactly one)"));
}

TEST(TfliteReaderRefuses, DynamicAndNegativeShapes) {
  Model m = example_classifier();
  m.tensors[3].shape = {-1, 2, 2, 3};
  EXPECT_EQ(refusal(m), expected("tensor 3 (\"conv\"): dynamic shape [-1,2,2,3] (dimension 0 is -1); only static "
                                 "shapes can be imported"));
  m = example_classifier();
  m.tensors[5].shape = {1, -12};
  EXPECT_EQ(refusal(m), expected("tensor 5 (\"flat\"): invalid shape [1,-12] (dimension 1 is -12)"));
  m = example_classifier();
  m.tensors[0].shape_signature = {-1, 4, 5, 2};
  EXPECT_EQ(refusal(m), expected("tensor 0 (\"input\"): shape_signature [-1,4,5,2] does not match shape [1,4,4,2]"));
  m.tensors[0].shape_signature = {-1, 4, 4};
  EXPECT_EQ(refusal(m), expected("tensor 0 (\"input\"): shape_signature [-1,4,4] does not match shape [1,4,4,2]"));
}

TEST(TfliteReaderRefuses, AbsurdDimensions) {
  Model m = example_classifier();
  m.tensors[3].shape = {65536, 65536, 65536};
  EXPECT_EQ(refusal(m),
            expected("tensor 3 (\"conv\"): absurd dimensions [65536,65536,65536] (2 GiB or more of int8)"));
  // One byte under 2 GiB of int8 is accepted (2^31 - 1 elements, whose
  // products fit int32); exactly 2 GiB is not, nor 2 GiB of int32.
  m.tensors[3].shape = {2147483647};
  m.tensors[3].has_quantization = false;
  EXPECT_EQ(refusal(m), "");
  m.tensors[3].shape = {32768, 65536};
  EXPECT_EQ(refusal(m), expected("tensor 3 (\"conv\"): absurd dimensions [32768,65536] (2 GiB or more of int8)"));
  m.tensors[3].shape = {8192, 65536};
  m.tensors[3].type = TensorType::Int32;
  EXPECT_EQ(refusal(m), expected("tensor 3 (\"conv\"): absurd dimensions [8192,65536] (2 GiB or more of int32)"));
  // An empty dim hides nothing: the others are bounded as well.
  m.tensors[3].shape = {0, 65536, 65536, 65536};
  EXPECT_EQ(refusal(m),
            expected("tensor 3 (\"conv\"): absurd dimensions [0,65536,65536,65536] (2 GiB or more of int32)"));
}

TEST(TfliteReaderRefuses, BufferIndicesOutOfRange) {
  Model m = example_classifier();
  m.tensors[8].buffer = 40;
  WriteOptions options;
  options.buffer_count = 37;
  EXPECT_EQ(refusal(m, options), expected("tensor 8 (\"logits\"): buffer 40 out of range (the file has 37 buffers)"));
}

TEST(TfliteReaderRefuses, DataOutsideTheFile) {
  WriteOptions options;
  options.raw_locations = {{4, 1000000, 48}};
  // The offset and size fields' values do not change the file's size.
  const size_t size = write_tflite(example_classifier(), options).size();
  const std::string n = std::to_string(size);
  EXPECT_EQ(refusal(example_classifier(), options),
            expected("buffer 4: data at offset 1000000 of 48 bytes lies outside the file (" + n + " bytes)"));
  // An offset + size that wraps 64 bits.
  options.raw_locations = {{4, std::numeric_limits<uint64_t>::max() - 7, 48}};
  EXPECT_EQ(refusal(example_classifier(), options),
            expected("buffer 4: data at offset 18446744073709551608 of 48 bytes lies outside the file (" + n +
                     " bytes)"));
  // Inside the file but one byte too long; one byte shorter, it is read (and
  // then refused for its size, 48 bytes expected).
  options.raw_locations = {{4, 16, size - 15}};
  EXPECT_EQ(refusal(example_classifier(), options),
            expected("buffer 4: data at offset 16 of " + std::to_string(size - 15) + " bytes lies outside the file (" +
                     n + " bytes)"));
  options.raw_locations = {{4, 16, size - 16}};
  EXPECT_EQ(refusal(example_classifier(), options),
            expected("tensor 6 (\"fc/weights\"): buffer 4 holds " + std::to_string(size - 16) +
                     " bytes, expected 48 (int8 [4,12])"));
  options.raw_locations = {{4, size - 48, 48}};
  EXPECT_EQ(refusal(example_classifier(), options), "");
}

TEST(TfliteReaderRefuses, DataOfTheWrongSize) {
  Model m = example_classifier();
  m.tensors[1].data.pop_back();
  EXPECT_EQ(refusal(m), expected("tensor 1 (\"conv/weights\"): buffer 1 holds 23 bytes, expected 24 (int8 [3,2,2,2])"));
  m = example_classifier();
  m.tensors[7].data.resize(20);
  EXPECT_EQ(refusal(m), expected("tensor 7 (\"fc/bias\"): buffer 5 holds 20 bytes, expected 16 (int32 [4])"));
  // Data read from outside the flatbuffer is checked the same way.
  WriteOptions outside;
  outside.external_buffers = true;
  EXPECT_EQ(refusal(m, outside), expected("tensor 7 (\"fc/bias\"): buffer 5 holds 20 bytes, expected 16 (int32 [4])"));
  m = example_classifier();
  m.tensors[4].type = TensorType::String;
  EXPECT_EQ(refusal(m), expected("tensor 4 (\"reshape/shape\"): constant data of type string is not supported"));
}

TEST(TfliteReaderRefuses, ConstantDataCopiedPastTheLimit) {
  // One 64 MiB buffer named by 17 tensors: each would get a copy.
  Model m;
  m.version = 3;
  for (int i = 0; i < 17; ++i) {
    Tensor t;
    t.name = "w" + std::to_string(i);
    t.type = TensorType::Int8;
    t.shape = {65536, 1024};
    t.buffer = 1;
    if (i == 0) t.data.assign(uint64_t{64} << 20, 1);
    m.tensors.push_back(std::move(t));
  }
  static_assert(kMaxConstantBytes == uint64_t{16} << 26, "16 such tensors fit, the 17th does not");
  EXPECT_EQ(refusal(m), expected("tensor 16 (\"w16\"): the tensors' constant data passes 1 GiB (a copy for each "
                                 "tensor)"));
}

TEST(TfliteReaderRefuses, InconsistentQuantization) {
  Model m = example_classifier();
  m.tensors[1].quantization.scales.pop_back();
  m.tensors[1].quantization.zero_points.pop_back();
  EXPECT_EQ(refusal(m), expected("tensor 1 (\"conv/weights\"): 2 scales along quantized_dimension 0 of shape "
                                 "[3,2,2,2], expected 3"));
  m = example_classifier();
  m.tensors[1].quantization.zero_points.pop_back();
  EXPECT_EQ(refusal(m), expected("tensor 1 (\"conv/weights\"): 3 scales but 2 zero points"));
  m = example_classifier();
  m.tensors[1].quantization.quantized_dimension = 4;
  EXPECT_EQ(refusal(m), expected("tensor 1 (\"conv/weights\"): quantized_dimension 4 outside shape [3,2,2,2]"));
  m.tensors[1].quantization.quantized_dimension = -1;
  EXPECT_EQ(refusal(m), expected("tensor 1 (\"conv/weights\"): quantized_dimension -1 outside shape [3,2,2,2]"));
}

// TFLM's person_detect carries quantized_dimension 3 on its 1-D biases; TFLM
// never reads a bias's quantisation, so the reader takes dimension 0 and says
// so, where a weight's out-of-range dimension (above) is refused.
TEST(TfliteReader, ToleratesAQuantizedDimensionOutsideA1DTensor) {
  Model m = example_classifier();
  m.tensors[2].quantization.quantized_dimension = 3;
  const Model read = read_tflite(write_tflite(m), kContext);
  EXPECT_EQ(read.tensors[2].quantization.quantized_dimension, 0);
  EXPECT_EQ(read.tolerated, std::vector<std::string>{"tensor 2 (\"conv/bias\"): quantized_dimension 3 outside shape "
                                                     "[3], read as dimension 0 (TFLite Micro ignores it)"});
  EXPECT_TRUE(read_tflite(write_tflite(example_classifier()), kContext).tolerated.empty());
  m.tensors[2].quantization.scales.pop_back();
  m.tensors[2].quantization.zero_points.pop_back();
  EXPECT_EQ(refusal(m), expected("tensor 2 (\"conv/bias\"): quantized_dimension 3 outside shape [3]"));
}

TEST(TfliteReaderRefuses, OptionsOfAnotherOperator) {
  Model m = example_classifier();
  m.operators[0].builtin_options_type = 5;
  EXPECT_EQ(refusal(m), expected("operator 0 (CONV_2D): builtin_options is Pool2DOptions, expected Conv2DOptions"));
  m = example_operators();
  m.operators[20].builtin_options_type = 1;  // the CUSTOM operator
  EXPECT_EQ(refusal(m), expected("operator 20 (CUSTOM \"TFLite_Detection_PostProcess\"): builtin_options is "
                                 "Conv2DOptions, expected none"));
  // An operator etns does not know keeps whatever options it has.
  m = example_operators();
  m.operators[22].builtin_options_type = 1;
  m.operators[22].options.present = true;
  expect_round_trip(m, {});
}

TEST(TfliteReaderRefuses, UnknownEnumValues) {
  Model m = example_classifier();
  m.operators[0].options.padding = static_cast<Padding>(2);
  EXPECT_EQ(refusal(m), expected("operator 0 (CONV_2D): unknown padding 2"));
  m = example_classifier();
  m.operators[0].options.activation = static_cast<Activation>(6);
  EXPECT_EQ(refusal(m), expected("operator 0 (CONV_2D): unknown fused_activation_function 6"));
  m = example_classifier();
  m.tensors[3].type = static_cast<TensorType>(18);
  EXPECT_EQ(refusal(m), expected("tensor 3 (\"conv\"): unknown tensor type 18"));
}

TEST(TfliteReaderRefuses, TensorIndicesOutOfRange) {
  Model m = example_classifier();
  m.operators[2].inputs[1] = 10;
  EXPECT_EQ(refusal(m), expected("operator 2 (FULLY_CONNECTED): input 1 is tensor 10, out of range (the subgraph "
                                 "has 10 tensors)"));
  m = example_classifier();
  m.operators[3].outputs[0] = -1;  // only inputs may be absent
  EXPECT_EQ(refusal(m), expected("operator 3 (SOFTMAX): output 0 is tensor -1, out of range (the subgraph has 10 "
                                 "tensors)"));
  m = example_classifier();
  m.outputs = {9, 12};
  EXPECT_EQ(refusal(m), expected("subgraph output 1 is tensor 12, out of range (the subgraph has 10 tensors)"));
}

TEST(TfliteReaderRefuses, CustomOperatorsWithoutACode) {
  Model m = example_operators();
  m.operators[20].custom_code.clear();
  EXPECT_EQ(refusal(m), expected("operator code 20: CUSTOM without a custom_code"));
}

TEST(TfliteReaderRefuses, NamesFromTheFileAsPrintableText) {
  Model m = example_classifier();
  m.tensors[3].name = "conv\n\x1b[2J";
  m.tensors[3].shape = {-1};
  EXPECT_EQ(refusal(m), expected("tensor 3 (\"conv\\n\\x1b[2J\"): dynamic shape [-1] (dimension 0 is -1); only "
                                 "static shapes can be imported"));
}

}  // namespace
}  // namespace etns::tools::tflite
