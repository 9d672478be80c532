#include "tools/writers/tflite/tflite_reader.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "runtime/core/checked_size.h"
#include "tools/common/failure.h"
#include "tools/common/text.h"
#include "tools/writers/tflite/tflite_options.h"
#include "tools/writers/tflite/tflite_schema_generated.h"

namespace etns::tools::tflite {
namespace {

namespace fb = etns::tflite_fb;

// Fields are read in place from the caller's vector, whose storage operator
// new aligns at least this much; the verifier checks field alignment relative
// to the start of the file.
static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 8, "flatbuffer fields need 8-byte-aligned storage");

constexpr uint32_t kSchemaVersion = 3;
// Shapes in messages: enough dims to recognise one, never a megabyte of them.
constexpr size_t kShownDims = 8;

std::string text(const flatbuffers::String* string) {
  return string == nullptr ? std::string() : std::string(string->data(), string->size());
}

std::string tensor_label(size_t index, const std::string& name) {
  return "tensor " + std::to_string(index) + " (\"" + printable(name) + "\")";
}

std::string operator_label(size_t index, const Operator& op) {
  std::string name = builtin_name(op.builtin);
  if (op.builtin == static_cast<int32_t>(Builtin::Custom)) name += " \"" + printable(op.custom_code) + "\"";
  return "operator " + std::to_string(index) + " (" + name + ")";
}

// The bytes a buffer holds, wherever they are; checked to lie inside the file.
struct BufferBytes {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
};

std::vector<BufferBytes> locate_buffers(const fb::Model& model, const std::vector<uint8_t>& file,
                                        const std::string& context) {
  std::vector<BufferBytes> buffers;
  if (model.buffers() == nullptr) return buffers;
  buffers.reserve(model.buffers()->size());
  for (uint32_t i = 0; i < model.buffers()->size(); ++i) {
    const fb::Buffer* buffer = model.buffers()->Get(i);
    const std::string where = "buffer " + std::to_string(i);
    BufferBytes bytes;
    // The schema defines offset 0 and 1 as "no outside data" (1 is a
    // placeholder some writers leave); the inline vector then holds the data.
    if (buffer->offset() > 1) {
      if (buffer->data() != nullptr && buffer->data()->size() > 0) {
        fail(context, where + ": has both inline data (" + std::to_string(buffer->data()->size()) +
                          " bytes) and data at offset " + std::to_string(buffer->offset()));
      }
      uint64_t end = 0;
      if (!runtime::checked_add(buffer->offset(), buffer->size(), &end) || end > file.size()) {
        fail(context, where + ": data at offset " + std::to_string(buffer->offset()) + " of " +
                          std::to_string(buffer->size()) + " bytes lies outside the file (" +
                          std::to_string(file.size()) + " bytes)");
      }
      bytes.data = file.data() + buffer->offset();
      bytes.size = buffer->size();
    } else if (buffer->data() != nullptr) {
      bytes.data = buffer->data()->Data();
      bytes.size = buffer->data()->size();
    }
    buffers.push_back(bytes);
  }
  return buffers;
}

struct OperatorCode {
  int32_t builtin = 0;
  int32_t version = 1;
  std::string custom_code;
};

std::vector<OperatorCode> read_operator_codes(const fb::Model& model, const std::string& context) {
  std::vector<OperatorCode> codes;
  if (model.operator_codes() == nullptr) return codes;
  for (uint32_t i = 0; i < model.operator_codes()->size(); ++i) {
    const fb::OperatorCode* code = model.operator_codes()->Get(i);
    const std::string where = "operator code " + std::to_string(i);
    OperatorCode out;
    // Old files hold the code only in the byte (builtin_code 0 = ADD); new
    // ones put codes above 127 only in builtin_code: TFLite takes the larger.
    out.builtin = std::max<int32_t>(code->deprecated_builtin_code(), code->builtin_code());
    out.version = code->version();
    if (out.builtin < 0) fail(context, where + ": builtin code " + std::to_string(out.builtin));
    if (out.builtin == static_cast<int32_t>(Builtin::Custom)) {
      if (code->custom_code() == nullptr || code->custom_code()->size() == 0) {
        fail(context, where + ": CUSTOM without a custom_code");
      }
      out.custom_code = text(code->custom_code());
    }
    codes.push_back(std::move(out));
  }
  return codes;
}

TensorType read_type(fb::TensorType stored, const std::string& where, const std::string& context) {
  const int8_t value = static_cast<int8_t>(stored);
  if (value < 0 || value > static_cast<int8_t>(TensorType::Int4)) {
    fail(context, where + ": unknown tensor type " + std::to_string(value));
  }
  return static_cast<TensorType>(value);
}

// A static shape: no negative dim, and an extent times element size within
// kMaxTensorBytes. Returns the element count.
uint64_t check_shape(const Tensor& tensor, const std::string& where, const std::string& context) {
  for (size_t d = 0; d < tensor.shape.size(); ++d) {
    if (tensor.shape[d] == -1) {
      fail(context, where + ": dynamic shape " + shape_text(tensor.shape) + " (dimension " + std::to_string(d) +
                        " is -1); only static shapes can be imported");
    }
    if (tensor.shape[d] < 0) {
      fail(context, where + ": invalid shape " + shape_text(tensor.shape) + " (dimension " + std::to_string(d) +
                        " is " + std::to_string(tensor.shape[d]) + ")");
    }
  }
  // Types without a fixed size are bounded as one byte an element.
  const uint64_t size = std::max<uint32_t>(element_size(tensor.type), 1);
  runtime::ShapeSize extent;
  if (!runtime::shape_size(tensor.shape.data(), tensor.shape.size(), kMaxTensorBytes / size, &extent)) {
    fail(context, where + ": absurd dimensions " + shape_text(tensor.shape) + " (2 GiB or more of " +
                      to_string(tensor.type) + ")");
  }
  // The signature may generalise a dim to -1 (the converters leave the batch
  // dim unknown there); any other value must be the shape's.
  if (!tensor.shape_signature.empty()) {
    bool same = tensor.shape_signature.size() == tensor.shape.size();
    for (size_t d = 0; same && d < tensor.shape.size(); ++d) {
      same = tensor.shape_signature[d] == -1 || tensor.shape_signature[d] == tensor.shape[d];
    }
    if (!same) {
      fail(context, where + ": shape_signature " + shape_text(tensor.shape_signature) + " does not match shape " +
                        shape_text(tensor.shape));
    }
  }
  return extent.numel;
}

void read_quantization(const fb::QuantizationParameters* stored, Tensor& tensor, const std::string& where,
                       const std::string& context, std::vector<std::string>& tolerated) {
  if (stored == nullptr) return;
  if (stored->details_type() != fb::QuantizationDetails::NONE) {
    fail(context, where + ": custom quantization details are not supported");
  }
  const size_t scales = stored->scale() == nullptr ? 0 : stored->scale()->size();
  const size_t zero_points = stored->zero_point() == nullptr ? 0 : stored->zero_point()->size();
  if (scales != zero_points) {
    fail(context, where + ": " + std::to_string(scales) + " scales but " + std::to_string(zero_points) +
                      " zero points");
  }
  if (scales == 0) return;  // a quantization table without parameters: float
  int32_t dim = stored->quantized_dimension();
  const size_t rank = tensor.shape.size();
  // Old converters wrote a 4-D filter's quantized_dimension on its 1-D bias
  // too (TFLM's person_detect: 3 on shape [8]). TFLite Micro never reads a
  // bias's quantisation, and a 1-D tensor has one dimension to mean, so the
  // reader takes dimension 0 and says so.
  if (rank == 1 && dim > 0 && (scales == 1 || static_cast<size_t>(tensor.shape[0]) == scales)) {
    tolerated.push_back(where + ": quantized_dimension " + std::to_string(dim) + " outside shape " +
                        shape_text(tensor.shape) + ", read as dimension 0 (TFLite Micro ignores it)");
    dim = 0;
  }
  // A per-tensor scale of a 0-dim tensor names dimension 0, which it lacks.
  const bool dim_ok = dim >= 0 && (static_cast<size_t>(dim) < rank || (scales == 1 && dim == 0));
  if (!dim_ok) {
    fail(context, where + ": quantized_dimension " + std::to_string(dim) + " outside shape " +
                      shape_text(tensor.shape));
  }
  if (scales > 1 && static_cast<size_t>(tensor.shape[static_cast<size_t>(dim)]) != scales) {
    fail(context, where + ": " + std::to_string(scales) + " scales along quantized_dimension " +
                      std::to_string(dim) + " of shape " + shape_text(tensor.shape) + ", expected " +
                      std::to_string(tensor.shape[static_cast<size_t>(dim)]));
  }
  tensor.has_quantization = true;
  tensor.quantization.scales = copy_vector(stored->scale());
  tensor.quantization.zero_points = copy_vector(stored->zero_point());
  tensor.quantization.quantized_dimension = dim;
}

std::vector<Tensor> read_tensors(const fb::SubGraph& subgraph, const std::vector<BufferBytes>& buffers,
                                 const std::string& context, std::vector<std::string>& tolerated) {
  std::vector<Tensor> tensors;
  if (subgraph.tensors() == nullptr) return tensors;
  // Data is copied only once every tensor has passed, so that a file whose
  // tensors share a buffer too often is refused before it costs memory.
  std::vector<const BufferBytes*> sources;
  uint64_t constant_bytes = 0;
  for (uint32_t i = 0; i < subgraph.tensors()->size(); ++i) {
    const fb::Tensor* stored = subgraph.tensors()->Get(i);
    Tensor tensor;
    tensor.name = text(stored->name());
    const std::string where = tensor_label(i, tensor.name);
    tensor.type = read_type(stored->type(), where, context);
    tensor.shape = copy_vector(stored->shape());
    tensor.shape_signature = copy_vector(stored->shape_signature());
    tensor.is_variable = stored->is_variable();
    if (stored->sparsity() != nullptr) fail(context, where + ": sparse tensors are not supported");
    const uint64_t numel = check_shape(tensor, where, context);
    read_quantization(stored->quantization(), tensor, where, context, tolerated);

    tensor.buffer = stored->buffer();
    if (tensor.buffer >= buffers.size()) {
      fail(context, where + ": buffer " + std::to_string(tensor.buffer) + " out of range (the file has " +
                        std::to_string(buffers.size()) + " buffers)");
    }
    const BufferBytes& bytes = buffers[tensor.buffer];
    if (bytes.size > 0) {
      const uint32_t size = element_size(tensor.type);
      if (size == 0) {
        fail(context, where + ": constant data of type " + to_string(tensor.type) + " is not supported");
      }
      // numel * size <= kMaxTensorBytes: check_shape bounded the extent.
      if (bytes.size != numel * size) {
        fail(context, where + ": buffer " + std::to_string(tensor.buffer) + " holds " +
                          std::to_string(bytes.size) + " bytes, expected " + std::to_string(numel * size) + " (" +
                          to_string(tensor.type) + " " + shape_text(tensor.shape) + ")");
      }
      constant_bytes += bytes.size;  // stops at the first pass of 1 GiB: each term is <= 2 GiB
      if (constant_bytes > kMaxConstantBytes) {
        fail(context, where + ": the tensors' constant data passes 1 GiB (a copy for each tensor)");
      }
    }
    sources.push_back(&bytes);
    tensors.push_back(std::move(tensor));
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    tensors[i].data.assign(sources[i]->data, sources[i]->data + sources[i]->size);
  }
  return tensors;
}

std::vector<int32_t> read_tensor_indices(const flatbuffers::Vector<int32_t>* stored, size_t tensor_count,
                                         bool optional_allowed, const std::string& where,
                                         const std::string& context) {
  std::vector<int32_t> indices = copy_vector(stored);
  for (size_t i = 0; i < indices.size(); ++i) {
    const int32_t index = indices[i];
    if (index == -1 && optional_allowed) continue;
    if (index < 0 || static_cast<size_t>(index) >= tensor_count) {
      fail(context, where + " " + std::to_string(i) + " is tensor " + std::to_string(index) +
                        ", out of range (the subgraph has " + std::to_string(tensor_count) + " tensors)");
    }
  }
  return indices;
}

std::vector<Operator> read_operators(const fb::SubGraph& subgraph, const std::vector<OperatorCode>& codes,
                                     const std::vector<uint8_t>& file, size_t tensor_count,
                                     const std::string& context) {
  std::vector<Operator> operators;
  if (subgraph.operators() == nullptr) return operators;
  for (uint32_t i = 0; i < subgraph.operators()->size(); ++i) {
    const fb::Operator* stored = subgraph.operators()->Get(i);
    Operator op;
    const uint32_t opcode = stored->opcode_index();
    if (opcode >= codes.size()) {
      fail(context, "operator " + std::to_string(i) + ": opcode_index " + std::to_string(opcode) +
                        " out of range (the file has " + std::to_string(codes.size()) + " operator codes)");
    }
    op.builtin = codes[opcode].builtin;
    op.version = codes[opcode].version;
    op.custom_code = codes[opcode].custom_code;
    const std::string where = operator_label(i, op);
    op.inputs = read_tensor_indices(stored->inputs(), tensor_count, true, where + ": input", context);
    op.outputs = read_tensor_indices(stored->outputs(), tensor_count, false, where + ": output", context);
    op.intermediates =
        read_tensor_indices(stored->intermediates(), tensor_count, false, where + ": intermediate", context);

    const fb::BuiltinOptions type = stored->builtin_options_type();
    op.builtin_options_type = static_cast<uint8_t>(type);
    if (type != fb::BuiltinOptions::NONE && stored->builtin_options() == nullptr) {
      fail(context, where + ": builtin_options of type " + options_type_name(op.builtin_options_type) +
                        " without a table");
    }
    op.options.present = type != fb::BuiltinOptions::NONE;
    if (const KnownOperator* known = find_known(op.builtin)) {
      if (type != fb::BuiltinOptions::NONE && type != known->options) {
        const std::string expected = known->options == fb::BuiltinOptions::NONE
                                         ? std::string("none")
                                         : options_type_name(static_cast<uint8_t>(known->options));
        fail(context, where + ": builtin_options is " + options_type_name(op.builtin_options_type) +
                          ", expected " + expected);
      }
      if (op.options.present) read_options(*stored, type, op.options, where, context);
    }

    if (stored->large_custom_options_offset() > 1) {
      uint64_t end = 0;
      if (!runtime::checked_add(stored->large_custom_options_offset(), stored->large_custom_options_size(),
                                &end) ||
          end > file.size()) {
        fail(context, where + ": custom options at offset " +
                          std::to_string(stored->large_custom_options_offset()) + " of " +
                          std::to_string(stored->large_custom_options_size()) +
                          " bytes lie outside the file (" + std::to_string(file.size()) + " bytes)");
      }
      op.has_custom_options = true;
    }
    if (stored->custom_options() != nullptr) op.has_custom_options = true;
    operators.push_back(std::move(op));
  }
  return operators;
}

constexpr const char* kTypeNames[] = {"float32", "float16", "int32",    "uint8",      "int64",  "string",
                                      "bool",    "int16",   "complex64", "int8",      "float64", "complex128",
                                      "uint64",  "resource", "variant",  "uint32",    "uint16", "int4"};

// BuiltinOperator names by code, from the TFLite schema (0 to 161).
constexpr const char* kBuiltinNames[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE",
    "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU",
    "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
    "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB",
    "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP",
    "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
    "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE",
    "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT",
    "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR",
    "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE",
    "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE",
    "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK",
    "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
    "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM",
    "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D",
    "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT",
    "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
    "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU",
    "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
    "UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
};
static_assert(std::size(kBuiltinNames) == 162, "BuiltinOperator names 0 to 161");

constexpr const char* kActivationNames[] = {"NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH", "SIGN_BIT"};

}  // namespace

std::string shape_text(const std::vector<int32_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i == kShownDims) {
      out += ",... (" + std::to_string(shape.size()) + " dims)";
      break;
    }
    if (i > 0) out += ",";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

std::string to_string(TensorType type) {
  const auto value = static_cast<int8_t>(type);
  if (value >= 0 && static_cast<size_t>(value) < std::size(kTypeNames)) return kTypeNames[value];
  return "type " + std::to_string(value);
}

std::string builtin_name(int32_t code) {
  if (code >= 0 && static_cast<size_t>(code) < std::size(kBuiltinNames)) return kBuiltinNames[code];
  return "BUILTIN_" + std::to_string(code);
}

std::string to_string(Activation activation) {
  const auto value = static_cast<int8_t>(activation);
  if (value >= 0 && static_cast<size_t>(value) < std::size(kActivationNames)) return kActivationNames[value];
  return "activation " + std::to_string(value);
}

uint32_t element_size(TensorType type) {
  switch (type) {
    case TensorType::Bool:
    case TensorType::Int8:
    case TensorType::UInt8:
      return 1;
    case TensorType::Float16:
    case TensorType::Int16:
    case TensorType::UInt16:
      return 2;
    case TensorType::Float32:
    case TensorType::Int32:
    case TensorType::UInt32:
      return 4;
    case TensorType::Int64:
    case TensorType::UInt64:
    case TensorType::Float64:
    case TensorType::Complex64:
      return 8;
    case TensorType::Complex128:
      return 16;
    case TensorType::String:
    case TensorType::Resource:
    case TensorType::Variant:
    case TensorType::Int4:
      return 0;
  }
  return 0;
}

uint32_t expected_options_type(int32_t builtin) {
  const KnownOperator* known = find_known(builtin);
  return known == nullptr ? 0 : static_cast<uint8_t>(known->options);
}

std::string options_type_name(uint32_t type) {
  if (type >= 1 && type <= static_cast<uint32_t>(fb::BuiltinOptions::MAX)) {
    return fb::EnumNameBuiltinOptions(static_cast<fb::BuiltinOptions>(type));
  }
  return "type " + std::to_string(type);
}

Model read_tflite(const std::vector<uint8_t>& bytes, const std::string& context) {
  // The root offset, then the 4-byte file identifier.
  constexpr size_t kHeaderBytes = 8;
  if (bytes.size() < kHeaderBytes) {
    fail(context, "not a TFLite model (" + std::to_string(bytes.size()) + " bytes, shorter than a flatbuffer header)");
  }
  if (!fb::ModelBufferHasIdentifier(bytes.data())) {
    fail(context, "not a TFLite model (file identifier \"" +
                      printable(std::string(reinterpret_cast<const char*>(bytes.data()) + 4, 4)) +
                      "\", expected \"TFL3\")");
  }
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    fail(context, std::to_string(bytes.size()) + " bytes: larger than the 2 GiB a flatbuffer can address");
  }
  flatbuffers::Verifier::Options limits;
  limits.max_depth = 64;
  limits.max_tables = 1000000;
  flatbuffers::Verifier verifier(bytes.data(), bytes.size(), limits);
  if (!fb::VerifyModelBuffer(verifier)) {
    fail(context, "corrupt or truncated TFLite file: a table, vector or string lies outside its " +
                      std::to_string(bytes.size()) + " bytes, is misaligned or nested too deep");
  }
  const fb::Model& stored = *fb::GetModel(bytes.data());
  if (stored.version() != kSchemaVersion) {
    fail(context, "schema version " + std::to_string(stored.version()) + ", expected " +
                      std::to_string(kSchemaVersion));
  }
  const uint32_t subgraphs = stored.subgraphs() == nullptr ? 0 : stored.subgraphs()->size();
  if (subgraphs == 0) fail(context, "no subgraph (the model has 0; etns imports exactly one)");
  if (subgraphs > 1) {
    fail(context, "several subgraphs (the model has " + std::to_string(subgraphs) + "; etns imports exactly one)");
  }

  const std::vector<BufferBytes> buffers = locate_buffers(stored, bytes, context);
  const std::vector<OperatorCode> codes = read_operator_codes(stored, context);
  const fb::SubGraph& subgraph = *stored.subgraphs()->Get(0);

  Model model;
  model.version = stored.version();
  model.description = text(stored.description());
  model.subgraph_name = text(subgraph.name());
  model.tensors = read_tensors(subgraph, buffers, context, model.tolerated);
  model.inputs = read_tensor_indices(subgraph.inputs(), model.tensors.size(), false, "subgraph input", context);
  model.outputs = read_tensor_indices(subgraph.outputs(), model.tensors.size(), false, "subgraph output", context);
  model.operators = read_operators(subgraph, codes, bytes, model.tensors.size(), context);
  return model;
}

}  // namespace etns::tools::tflite
