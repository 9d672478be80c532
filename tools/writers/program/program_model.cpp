#include "tools/writers/program/program_model.h"

#include <cstring>
#include <memory>

#include "runtime/core/arena.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"
#include "runtime/pte/program_generated.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/runtime_errors.h"

namespace etns::tools {

namespace fb = executorch_flatbuffer;
using runtime::ValueKind;

size_t ModelTensor::numel() const {
  size_t n = 1;
  for (int32_t size : sizes) n *= size > 0 ? static_cast<size_t>(size) : 0;
  return n;
}

size_t ModelTensor::nbytes() const { return numel() * runtime::element_size(dtype); }

bool ModelTensor::operator==(const ModelTensor& o) const {
  if (dtype != o.dtype || sizes != o.sizes || dim_order != o.dim_order || storage != o.storage ||
      shape_dynamism != o.shape_dynamism || requires_grad != o.requires_grad) {
    return false;
  }
  switch (storage) {
    case TensorStorage::Constant: return data == o.data;
    case TensorStorage::Planned: return memory_id == o.memory_id && offset == o.offset;
    case TensorStorage::Unplanned: return true;
  }
  return false;
}

ModelValue ModelValue::null() { return ModelValue{}; }

ModelValue ModelValue::integer(int64_t value) {
  ModelValue v;
  v.kind = ValueKind::Int;
  v.int_value = value;
  return v;
}

ModelValue ModelValue::boolean(bool value) {
  ModelValue v;
  v.kind = ValueKind::Bool;
  v.bool_value = value;
  return v;
}

ModelValue ModelValue::real(double value) {
  ModelValue v;
  v.kind = ValueKind::Double;
  v.double_value = value;
  return v;
}

ModelValue ModelValue::string(std::string value) {
  ModelValue v;
  v.kind = ValueKind::String;
  v.string_value = std::move(value);
  return v;
}

ModelValue ModelValue::int_list(std::vector<int64_t> value_indices) {
  ModelValue v;
  v.kind = ValueKind::IntList;
  v.items = std::move(value_indices);
  return v;
}

ModelValue ModelValue::tensor_value(ModelTensor tensor) {
  ModelValue v;
  v.kind = ValueKind::Tensor;
  v.tensor = std::move(tensor);
  return v;
}

bool ModelValue::operator==(const ModelValue& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case ValueKind::None:
    case ValueKind::Null: return true;
    case ValueKind::Int: return int_value == o.int_value;
    case ValueKind::Bool: return bool_value == o.bool_value;
    // Bit patterns, not ==: a round trip must keep -0.0 and every NaN.
    case ValueKind::Double:
      return std::memcmp(&double_value, &o.double_value, sizeof(double)) == 0;
    case ValueKind::String: return string_value == o.string_value;
    case ValueKind::IntList:
    case ValueKind::TensorList:
    case ValueKind::OptionalTensorList: return items == o.items;
    case ValueKind::DoubleList:
      return double_items.size() == o.double_items.size() &&
             (double_items.empty() || std::memcmp(double_items.data(), o.double_items.data(),
                                                  double_items.size() * sizeof(double)) == 0);
    case ValueKind::BoolList: return bool_items == o.bool_items;
    case ValueKind::Tensor: return tensor == o.tensor;
  }
  return false;
}

int32_t ProgramModel::add_value(ModelValue value) {
  values.push_back(std::move(value));
  return static_cast<int32_t>(values.size() - 1);
}

uint32_t ProgramModel::add_operator(const std::string& name, const std::string& overload) {
  for (size_t k = 0; k < operators.size(); ++k) {
    if (operators[k].name == name && operators[k].overload == overload) return static_cast<uint32_t>(k);
  }
  operators.push_back({name, overload});
  return static_cast<uint32_t>(operators.size() - 1);
}

KernelCall ProgramModel::call(const runtime::OperatorContract& contract,
                              const std::vector<std::pair<const char*, int32_t>>& named) {
  std::vector<int32_t> args(contract.count, -1);
  for (const auto& [name, v] : named) {
    const int position = contract.find(name);
    if (position < 0 || args[static_cast<size_t>(position)] >= 0) {
      throw Failure(std::string(contract.name) + ": argument '" + name + "' unknown or given twice");
    }
    args[static_cast<size_t>(position)] = v;
  }
  for (uint8_t k = 0; k < contract.count; ++k) {
    if (args[k] < 0) {
      throw Failure(std::string(contract.name) + ": argument '" + contract.args[k].name + "' is missing");
    }
  }
  args.push_back(args.back());  // the return slot
  const std::string full = contract.name;
  const size_t dot = full.rfind('.');
  KernelCall call;
  call.op_index = add_operator(full.substr(0, dot), dot == std::string::npos ? "" : full.substr(dot + 1));
  call.args = std::move(args);
  return call;
}

bool ProgramModel::operator==(const ProgramModel& o) const {
  return version == o.version && method_name == o.method_name && values == o.values &&
         inputs == o.inputs && outputs == o.outputs && operators == o.operators &&
         instructions == o.instructions && non_const_buffer_sizes == o.non_const_buffer_sizes &&
         encoded_inp_str == o.encoded_inp_str && encoded_out_str == o.encoded_out_str;
}

namespace {

std::string value_name(size_t index) { return "value " + std::to_string(index); }

void check_index(int64_t index, size_t value_count, const std::string& where) {
  if (index < 0 || static_cast<uint64_t>(index) >= value_count) {
    throw Failure(where + ": value index " + std::to_string(index) + ", expected < " +
                  std::to_string(value_count));
  }
}

void check_tensor(const ProgramModel& model, const ModelTensor& t, size_t index,
                  bool check_placement) {
  const std::string where = value_name(index);
  if (!runtime::is_valid(t.dtype)) {
    throw Failure(where + ": scalar type " + std::to_string(static_cast<int>(t.dtype)) +
                  " is not a ScalarType");
  }
  if (t.sizes.size() > runtime::kMaxTensorRank) {
    throw Failure(where + ": rank " + std::to_string(t.sizes.size()) + ", at most " +
                  std::to_string(runtime::kMaxTensorRank));
  }
  if (t.dim_order.size() != t.sizes.size()) {
    throw Failure(where + ": dim_order has " + std::to_string(t.dim_order.size()) +
                  " entries for rank " + std::to_string(t.sizes.size()));
  }
  uint32_t seen = 0;
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    if (t.sizes[d] < 0) {
      throw Failure(where + ": sizes[" + std::to_string(d) + "] = " + std::to_string(t.sizes[d]) +
                    ", expected >= 0");
    }
    const uint8_t dim = t.dim_order[d];
    if (dim >= t.sizes.size() || (seen & (1u << dim)) != 0) {
      throw Failure(where + ": dim_order is not a permutation of 0.." +
                    std::to_string(t.sizes.size() - 1));
    }
    seen |= 1u << dim;
  }
  if (t.shape_dynamism > 1) {
    throw Failure(where + ": shape_dynamism " + std::to_string(t.shape_dynamism) +
                  ", expected 0 (STATIC) or 1 (DYNAMIC_BOUND)");
  }
  switch (t.storage) {
    case TensorStorage::Constant:
      if (t.data.size() != t.nbytes()) {
        throw Failure(where + ": constant tensor of " + std::to_string(t.nbytes()) +
                      " bytes holds " + std::to_string(t.data.size()) + " bytes of data");
      }
      break;
    case TensorStorage::Planned: {
      if (!check_placement) break;
      const size_t arenas = model.non_const_buffer_sizes.size() - 1;
      if (t.memory_id < 1 || t.memory_id > arenas) {
        throw Failure(where + ": memory_id " + std::to_string(t.memory_id) + ", expected 1.." +
                      std::to_string(arenas));
      }
      const uint64_t capacity = static_cast<uint64_t>(model.non_const_buffer_sizes[t.memory_id]);
      if (t.offset > capacity || t.nbytes() > capacity - t.offset) {
        throw Failure(where + ": bytes [" + std::to_string(t.offset) + ", " +
                      std::to_string(t.offset + t.nbytes()) + ") exceed planned arena " +
                      std::to_string(t.memory_id) + " of " + std::to_string(capacity) + " bytes");
      }
      break;
    }
    case TensorStorage::Unplanned: break;
  }
}

void check_items(const ProgramModel& model, const ModelValue& list, size_t index, ValueKind item_kind,
                 bool allow_none) {
  for (size_t i = 0; i < list.items.size(); ++i) {
    const int64_t item = list.items[i];
    if (allow_none && item == -1) continue;
    const std::string where = value_name(index) + " item " + std::to_string(i);
    check_index(item, model.values.size(), where);
    const ValueKind got = model.values[static_cast<size_t>(item)].kind;
    if (got != item_kind && !(allow_none && got == ValueKind::Null)) {
      throw Failure(where + ": names value " + std::to_string(item) + " of kind " +
                    runtime::to_string(got) + ", expected " + runtime::to_string(item_kind));
    }
  }
}

void check_io(const ProgramModel& model, const std::vector<int32_t>& indices, const char* what) {
  for (size_t i = 0; i < indices.size(); ++i) {
    const std::string where = std::string(what) + " " + std::to_string(i);
    check_index(indices[i], model.values.size(), where);
    const ModelValue& value = model.values[static_cast<size_t>(indices[i])];
    if (value.kind != ValueKind::Tensor || value.tensor.storage == TensorStorage::Constant) {
      throw Failure(where + ": value " + std::to_string(indices[i]) +
                    " is not a non-constant tensor");
    }
  }
}

}  // namespace

void check_model(const ProgramModel& model, bool check_placement) {
  if (model.method_name.empty()) throw Failure("the method has no name");
  if (model.non_const_buffer_sizes.empty()) {
    throw Failure("non_const_buffer_sizes is empty; entry 0 is reserved and must be there");
  }
  for (size_t k = 1; k < model.non_const_buffer_sizes.size(); ++k) {
    if (model.non_const_buffer_sizes[k] < 0) {
      throw Failure("non_const_buffer_sizes[" + std::to_string(k) + "] is negative");
    }
  }
  if (model.values.size() > static_cast<size_t>(INT32_MAX)) throw Failure("too many values");
  for (size_t i = 0; i < model.values.size(); ++i) {
    const ModelValue& value = model.values[i];
    switch (value.kind) {
      case ValueKind::None: throw Failure(value_name(i) + ": kind None is not a value");
      case ValueKind::Tensor: check_tensor(model, value.tensor, i, check_placement); break;
      case ValueKind::IntList: check_items(model, value, i, ValueKind::Int, false); break;
      case ValueKind::TensorList: check_items(model, value, i, ValueKind::Tensor, false); break;
      case ValueKind::OptionalTensorList: check_items(model, value, i, ValueKind::Tensor, true); break;
      default: break;
    }
  }
  check_io(model, model.inputs, "input");
  check_io(model, model.outputs, "output");
  for (size_t k = 0; k < model.operators.size(); ++k) {
    const ModelOperator& op = model.operators[k];
    if (op.name.empty()) throw Failure("operator " + std::to_string(k) + " has no name");
    // The loader builds "name.overload" in ExecuTorch's 100-byte buffer.
    const size_t key_bytes = op.name.size() + (op.overload.empty() ? 0 : 1 + op.overload.size());
    if (key_bytes >= 100) {
      throw Failure("operator " + std::to_string(k) + ": name of " + std::to_string(key_bytes) +
                    " bytes, at most 99");
    }
  }
  for (size_t i = 0; i < model.instructions.size(); ++i) {
    const KernelCall& call = model.instructions[i];
    const std::string where = "instruction c0i" + std::to_string(i);
    if (call.op_index >= model.operators.size()) {
      throw Failure(where + ": op_index " + std::to_string(call.op_index) + ", expected < " +
                    std::to_string(model.operators.size()));
    }
    if (call.args.empty()) throw Failure(where + ": a kernel call without arguments");
    for (size_t a = 0; a < call.args.size(); ++a) {
      check_index(call.args[a], model.values.size(), where + " argument " + std::to_string(a));
    }
  }
}

namespace {

// What the model cannot hold: refused by name rather than dropped.
void refuse_if(bool condition, const std::string& context, const std::string& what) {
  if (condition) throw Failure(context + ": " + what + " (the program model does not hold it)");
}

template <typename T>
bool non_empty(const flatbuffers::Vector<T>* v) {
  return v != nullptr && v->size() > 0;
}

std::string text(const flatbuffers::String* s) { return s != nullptr ? s->str() : std::string(); }

// A tensor as the runtime parsed it (dtype, sizes, dim order, constant
// bytes); from the verified flatbuffer only what the device does not keep:
// where a planned tensor lives and two flags the runtime ignores.
ModelTensor read_tensor(const fb::Tensor& t, const runtime::Tensor& loaded, size_t index,
                        const std::string& context) {
  refuse_if(t.extra_tensor_info() != nullptr, context,
            value_name(index) + " has extra_tensor_info");
  ModelTensor tensor;
  tensor.dtype = loaded.dtype;
  tensor.sizes.assign(loaded.sizes, loaded.sizes + loaded.rank);
  tensor.dim_order.assign(loaded.dim_order, loaded.dim_order + loaded.rank);
  tensor.shape_dynamism = static_cast<uint8_t>(t.shape_dynamism());
  tensor.requires_grad = t.requires_grad();
  if (loaded.is_constant) {
    tensor.storage = TensorStorage::Constant;
    const auto* bytes = static_cast<const uint8_t*>(loaded.data);
    tensor.data.assign(bytes, bytes + loaded.nbytes);
  } else if (t.allocation_info() != nullptr) {
    tensor.storage = TensorStorage::Planned;
    tensor.memory_id = t.allocation_info()->memory_id();
    tensor.offset = static_cast<uint64_t>(t.allocation_info()->memory_offset_low()) |
                    static_cast<uint64_t>(t.allocation_info()->memory_offset_high()) << 32;
  } else {
    tensor.storage = TensorStorage::Unplanned;
  }
  return tensor;
}

// One value as the runtime's loader parsed and checked it: the tools read a
// program through the runtime (runtime/exec/method.cpp), never beside it.
ModelValue read_value(const fb::EValue& source, const runtime::EValue& loaded, size_t index,
                      const std::string& context) {
  ModelValue value;
  value.kind = loaded.kind;
  switch (loaded.kind) {
    case ValueKind::None:
    case ValueKind::Null: break;
    case ValueKind::Int: value.int_value = loaded.int_value; break;
    case ValueKind::Bool: value.bool_value = loaded.bool_value; break;
    case ValueKind::Double: value.double_value = loaded.double_value; break;
    case ValueKind::String: value.string_value.assign(loaded.string.chars, loaded.string.size); break;
    case ValueKind::IntList:
      value.items.assign(loaded.int_list.item_indices, loaded.int_list.item_indices + loaded.int_list.size);
      break;
    case ValueKind::DoubleList:
      value.double_items.assign(loaded.double_list.items, loaded.double_list.items + loaded.double_list.size);
      break;
    case ValueKind::BoolList:
      for (uint32_t i = 0; i < loaded.bool_list.size; ++i) {
        value.bool_items.push_back(loaded.bool_list.items[i] != 0 ? 1 : 0);
      }
      break;
    case ValueKind::TensorList:
    case ValueKind::OptionalTensorList:
      value.items.assign(loaded.tensor_list.item_indices,
                         loaded.tensor_list.item_indices + loaded.tensor_list.size);
      break;
    case ValueKind::Tensor:
      value.tensor = read_tensor(*source.val_as_Tensor(), loaded.tensor, index, context);
      break;
  }
  return value;
}

}  // namespace

ProgramModel read_program(const std::vector<uint8_t>& bytes, const std::string& context) {
  // The loader reads the flatbuffer in place and wants 16-byte alignment.
  AlignedBytes file(bytes.size());
  if (!bytes.empty()) std::memcpy(file.data(), bytes.data(), bytes.size());

  refuse_tflite_model(file.data(), file.size(), context);
  RuntimeLogCapture log;
  runtime::Result<runtime::Program> loaded_program =
      runtime::Program::load(runtime::Span<const uint8_t>(file.data(), file.size()));
  log.check(loaded_program.ok() ? runtime::Error::Ok : loaded_program.error(), context);
  const runtime::Program& program = *loaded_program;
  const fb::Program& p = program.flatbuffer();

  refuse_if(program.method_count() != 1, context,
            std::to_string(program.method_count()) + " methods");
  refuse_if(non_empty(p.backend_delegate_data()), context, "backend delegate data");
  refuse_if(non_empty(p.mutable_data_segments()), context, "mutable data segments");
  refuse_if(non_empty(p.named_data()), context, "named data");

  // Everything the loader checks (values, lists, tensors, instructions) is
  // checked here by loading the method unbound; the model is then read from
  // the verified flatbuffer.
  const std::string name = program.method_name(0);
  std::vector<uint8_t> method_memory((size_t{1} << 20) + 64 * bytes.size());
  std::vector<uint8_t> temporary_memory(4096);
  runtime::Arena method_arena("method",
                              runtime::Span<uint8_t>(method_memory.data(), method_memory.size()));
  runtime::Arena temporary_arena(
      "temporary", runtime::Span<uint8_t>(temporary_memory.data(), temporary_memory.size()));
  runtime::MethodMemory memory;
  memory.method = &method_arena;
  memory.temporary = &temporary_arena;
  runtime::Result<runtime::Method> loaded_method =
      runtime::Method::load_unbound(program, name.c_str(), memory);
  log.check(loaded_method.ok() ? runtime::Error::Ok : loaded_method.error(), context);
  const runtime::Method& method = *loaded_method;
  const fb::ExecutionPlan& plan = *p.execution_plan()->Get(0);

  refuse_if(plan.chains()->size() != 1, context,
            "method '" + name + "' has " + std::to_string(plan.chains()->size()) + " chains");
  const fb::Chain& chain = *plan.chains()->Get(0);
  refuse_if(non_empty(chain.inputs()) || non_empty(chain.outputs()), context,
            "chain inputs or outputs");
  refuse_if(non_empty(plan.non_const_buffer_device()), context, "non_const_buffer_device");

  ProgramModel model;
  model.version = p.version();
  model.method_name = name;
  if (plan.container_meta_type() != nullptr) {
    model.encoded_inp_str = text(plan.container_meta_type()->encoded_inp_str());
    model.encoded_out_str = text(plan.container_meta_type()->encoded_out_str());
  }
  for (size_t i = 0; i < method.value_count(); ++i) {
    model.values.push_back(
        read_value(*plan.values()->Get(static_cast<uint32_t>(i)), method.value(i), i, context));
  }
  model.inputs.assign(plan.inputs()->begin(), plan.inputs()->end());
  model.outputs.assign(plan.outputs()->begin(), plan.outputs()->end());
  if (plan.operators() != nullptr) {
    for (const fb::Operator* op : *plan.operators()) {
      model.operators.push_back({text(op->name()), text(op->overload())});
    }
  }
  for (const fb::Instruction* instruction : *chain.instructions()) {
    const fb::KernelCall* call = instruction->instr_args_as_KernelCall();
    KernelCall kernel_call;
    kernel_call.op_index = static_cast<uint32_t>(call->op_index());
    kernel_call.args.assign(call->args()->begin(), call->args()->end());
    model.instructions.push_back(std::move(kernel_call));
  }
  model.non_const_buffer_sizes.assign(plan.non_const_buffer_sizes()->begin(),
                                      plan.non_const_buffer_sizes()->end());
  if (model.non_const_buffer_sizes.empty()) model.non_const_buffer_sizes = {0};
  // What the loader accepts, the model must too; a mismatch is a bug here.
  check_model(model);
  return model;
}

}  // namespace etns::tools
