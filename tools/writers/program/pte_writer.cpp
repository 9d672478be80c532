#include "tools/writers/program/pte_writer.h"

#include <map>

#include "runtime/pte/program_generated.h"
#include "tools/common/failure.h"

namespace etns::tools {

namespace fb = executorch_flatbuffer;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using runtime::ValueKind;

namespace {

// Big enough for small programs in one go; the builder grows deterministically.
constexpr size_t kInitialBuilderBytes = 16 * 1024;

size_t align_up(size_t n, size_t alignment) { return (n + alignment - 1) / alignment * alignment; }

void put_le(std::vector<uint8_t>& out, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// The constant segment: deduplicated buffers, 16-aligned, in value order.
struct ConstantSegment {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> offsets = {0};       // offsets[0] is the reserved placeholder
  std::vector<uint32_t> buffer_of_value;     // data_buffer_idx per value (0 = not a constant)
};

ConstantSegment layout_constants(const ProgramModel& model) {
  ConstantSegment segment;
  segment.buffer_of_value.assign(model.values.size(), 0);
  std::map<std::vector<uint8_t>, uint32_t> buffer_of_bytes;
  for (size_t i = 0; i < model.values.size(); ++i) {
    const ModelValue& value = model.values[i];
    if (value.kind != ValueKind::Tensor || value.tensor.storage != TensorStorage::Constant) continue;
    const auto found = buffer_of_bytes.find(value.tensor.data);
    if (found != buffer_of_bytes.end()) {
      segment.buffer_of_value[i] = found->second;
      continue;
    }
    const uint32_t buffer = static_cast<uint32_t>(segment.offsets.size());
    segment.bytes.resize(align_up(segment.bytes.size(), kConstantAlignment), 0);
    segment.offsets.push_back(segment.bytes.size());
    segment.bytes.insert(segment.bytes.end(), value.tensor.data.begin(), value.tensor.data.end());
    buffer_of_bytes.emplace(value.tensor.data, buffer);
    segment.buffer_of_value[i] = buffer;
  }
  return segment;
}

Offset<fb::Tensor> write_tensor(FlatBufferBuilder& b, const ModelTensor& t, uint32_t data_buffer_idx) {
  const auto sizes = b.CreateVector(t.sizes);
  const auto dim_order = b.CreateVector(t.dim_order);
  Offset<fb::AllocationDetails> allocation = 0;
  if (t.storage == TensorStorage::Planned) {
    allocation = fb::CreateAllocationDetails(b, t.memory_id, static_cast<uint32_t>(t.offset),
                                             static_cast<uint32_t>(t.offset >> 32));
  }
  return fb::CreateTensor(b, static_cast<fb::ScalarType>(t.dtype), /*storage_offset=*/0, sizes,
                          dim_order, t.requires_grad, data_buffer_idx, allocation, /*layout=*/0,
                          static_cast<fb::TensorShapeDynamism>(t.shape_dynamism));
}

Offset<fb::EValue> write_value(FlatBufferBuilder& b, const ModelValue& v, uint32_t data_buffer_idx) {
  const auto type = static_cast<fb::KernelTypes>(v.kind);
  switch (v.kind) {
    case ValueKind::None: break;  // check_model refuses it
    case ValueKind::Null: return fb::CreateEValue(b, type, fb::CreateNull(b).Union());
    case ValueKind::Int: return fb::CreateEValue(b, type, fb::CreateInt(b, v.int_value).Union());
    case ValueKind::Bool: return fb::CreateEValue(b, type, fb::CreateBool(b, v.bool_value).Union());
    case ValueKind::Double:
      return fb::CreateEValue(b, type, fb::CreateDouble(b, v.double_value).Union());
    case ValueKind::String: {
      const auto s = b.CreateString(v.string_value);
      return fb::CreateEValue(b, type, fb::CreateString(b, s).Union());
    }
    case ValueKind::IntList: {
      const auto items = b.CreateVector(v.items);
      return fb::CreateEValue(b, type, fb::CreateIntList(b, items).Union());
    }
    case ValueKind::DoubleList: {
      const auto items = b.CreateVector(v.double_items);
      return fb::CreateEValue(b, type, fb::CreateDoubleList(b, items).Union());
    }
    case ValueKind::BoolList: {
      const auto items = b.CreateVector(v.bool_items);
      return fb::CreateEValue(b, type, fb::CreateBoolList(b, items).Union());
    }
    case ValueKind::TensorList:
    case ValueKind::OptionalTensorList: {
      const std::vector<int32_t> narrow(v.items.begin(), v.items.end());
      const auto items = b.CreateVector(narrow);
      const auto member = v.kind == ValueKind::TensorList
                              ? fb::CreateTensorList(b, items).Union()
                              : fb::CreateOptionalTensorList(b, items).Union();
      return fb::CreateEValue(b, type, member);
    }
    case ValueKind::Tensor:
      return fb::CreateEValue(b, type, write_tensor(b, v.tensor, data_buffer_idx).Union());
  }
  throw Failure("value kind None cannot be written");
}

}  // namespace

std::vector<uint8_t> write_program(const ProgramModel& model) {
  check_model(model);
  for (const ModelValue& value : model.values) {
    if (value.kind == ValueKind::TensorList || value.kind == ValueKind::OptionalTensorList) {
      for (int64_t item : value.items) {
        if (item > INT32_MAX) throw Failure("a tensor list item does not fit in int32");
      }
    }
  }
  const ConstantSegment constants = layout_constants(model);

  FlatBufferBuilder b(kInitialBuilderBytes);
  b.ForceDefaults(false);  // absent field = schema default, as ExecuTorch's files do
  b.DedupVtables(true);

  std::vector<Offset<fb::EValue>> values;
  values.reserve(model.values.size());
  for (size_t i = 0; i < model.values.size(); ++i) {
    values.push_back(write_value(b, model.values[i], constants.buffer_of_value[i]));
  }
  const auto values_vector = b.CreateVector(values);
  const auto inputs = b.CreateVector(model.inputs);
  const auto outputs = b.CreateVector(model.outputs);

  std::vector<Offset<fb::Operator>> operators;
  for (const ModelOperator& op : model.operators) {
    const auto name = b.CreateString(op.name);
    const auto overload = b.CreateString(op.overload);
    operators.push_back(fb::CreateOperator(b, name, overload));
  }
  const auto operators_vector = b.CreateVector(operators);

  std::vector<Offset<fb::Instruction>> instructions;
  for (const KernelCall& call : model.instructions) {
    const auto args = b.CreateVector(call.args);
    const auto kernel_call = fb::CreateKernelCall(b, static_cast<int32_t>(call.op_index), args);
    instructions.push_back(
        fb::CreateInstruction(b, fb::InstructionArguments::KernelCall, kernel_call.Union()));
  }
  const auto instructions_vector = b.CreateVector(instructions);
  const std::vector<int32_t> none;
  const auto chain_inputs = b.CreateVector(none);
  const auto chain_outputs = b.CreateVector(none);
  const auto chain = fb::CreateChain(b, chain_inputs, chain_outputs, instructions_vector);
  const auto chains = b.CreateVector(std::vector<Offset<fb::Chain>>{chain});

  const auto delegates = b.CreateVector(std::vector<Offset<fb::BackendDelegate>>{});
  const auto buffer_sizes = b.CreateVector(model.non_const_buffer_sizes);
  const auto encoded_inp = b.CreateString(model.encoded_inp_str);
  const auto encoded_out = b.CreateString(model.encoded_out_str);
  const auto container = fb::CreateContainerMetadata(b, encoded_inp, encoded_out);
  const auto method_name = b.CreateString(model.method_name);
  const auto plan = fb::CreateExecutionPlan(b, method_name, container, values_vector, inputs,
                                            outputs, chains, operators_vector, delegates,
                                            buffer_sizes);
  const auto plans = b.CreateVector(std::vector<Offset<fb::ExecutionPlan>>{plan});

  const auto constant_buffers = b.CreateVector(std::vector<Offset<fb::Buffer>>{});
  const auto delegate_data = b.CreateVector(std::vector<Offset<fb::BackendDelegateInlineData>>{});
  const auto segment = fb::CreateDataSegment(b, 0, constants.bytes.size());
  const auto segments = b.CreateVector(std::vector<Offset<fb::DataSegment>>{segment});
  const auto offsets = b.CreateVector(constants.offsets);
  const auto constant_segment = fb::CreateSubsegmentOffsets(b, 0, offsets);
  const auto program = fb::CreateProgram(b, model.version, plans, constant_buffers, delegate_data,
                                         segments, constant_segment);
  fb::FinishProgramBuffer(b, program);

  const uint8_t* flatbuffer = b.GetBufferPointer();
  const size_t flatbuffer_size = b.GetSize();
  const bool has_constants = constants.offsets.size() > 1;
  if (!has_constants) return std::vector<uint8_t>(flatbuffer, flatbuffer + flatbuffer_size);

  // Splice the extended header in after the identifier. Every flatbuffer
  // offset is relative except the root's, so only the root moves; the header
  // is a multiple of 16 bytes, so every alignment is kept.
  const uint64_t program_size = flatbuffer_size + kExtendedHeaderLength;
  const uint64_t segment_base = align_up(program_size, kSegmentAlignment);
  std::vector<uint8_t> file;
  file.reserve(segment_base + constants.bytes.size());
  const uint32_t root = static_cast<uint32_t>(flatbuffer[0]) | uint32_t{flatbuffer[1]} << 8 |
                        uint32_t{flatbuffer[2]} << 16 | uint32_t{flatbuffer[3]} << 24;
  put_le(file, root + kExtendedHeaderLength, 4);
  file.insert(file.end(), flatbuffer + 4, flatbuffer + 8);  // "ET12"
  file.insert(file.end(), {'e', 'h', '0', '0'});
  put_le(file, kExtendedHeaderLength, 4);
  put_le(file, program_size, 8);
  put_le(file, segment_base, 8);
  put_le(file, constants.bytes.size(), 8);
  file.insert(file.end(), flatbuffer + 8, flatbuffer + flatbuffer_size);
  file.resize(segment_base, 0);
  file.insert(file.end(), constants.bytes.begin(), constants.bytes.end());
  return file;
}

}  // namespace etns::tools
