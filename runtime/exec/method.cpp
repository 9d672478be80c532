#include "runtime/exec/method.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/checked_size.h"
#include "runtime/core/default_nan.h"
#include "runtime/core/escape.h"
#include "runtime/core/format.h"
#include "runtime/core/log.h"
#include "runtime/pte/program_generated.h"

namespace etns::runtime {

namespace fb = executorch_flatbuffer;

namespace {

// ExecuTorch builds "name.overload" in a 100-byte buffer; we keep its limit.
constexpr size_t kMaxOperatorNameBytes = 100;

// The Cortex-M55 addresses planned memory with 32 bits. The host keeps the same
// limit, so both refuse a size the device cannot hold with the same line
// instead of the device truncating it.
constexpr int64_t kMaxPlannedBufferBytes = INT64_C(0xFFFFFFFF);

Result<int64_t> planned_size_at(const flatbuffers::Vector<int64_t>& sizes, uint32_t k) {
  const int64_t bytes = sizes.Get(k);
  ETNS_RETURN_IF(bytes < 0 || bytes > kMaxPlannedBufferBytes, Error::InvalidProgram,
                 "non_const_buffer_sizes[%" PRIu32 "] = %lld, expected 0..%lld", k,
                 static_cast<long long>(bytes), static_cast<long long>(kMaxPlannedBufferBytes));
  return bytes;
}

// Parses one tensor value: shape, layout, and where its bytes live.
Error parse_tensor(const Program& program, const fb::Tensor& t, size_t index,
                   const MethodMeta& meta, Span<Span<uint8_t>> planned, Tensor* out) {
  const int8_t type_code = static_cast<int8_t>(t.scalar_type());
  const ScalarType dtype = static_cast<ScalarType>(type_code);
  ETNS_RETURN_IF(!is_valid(dtype), Error::InvalidProgram,
                 "value %zu: scalar type %d is not a ScalarType", index, type_code);
  ETNS_RETURN_IF(t.sizes() == nullptr, Error::InvalidProgram, "value %zu: tensor has no sizes",
                 index);
  ETNS_RETURN_IF(t.dim_order() == nullptr, Error::InvalidProgram,
                 "value %zu: tensor has no dim_order", index);
  const size_t rank = t.sizes()->size();
  ETNS_RETURN_IF(rank > kMaxTensorRank, Error::NotSupported,
                 "value %zu: rank %zu, at most %zu supported", index, rank, kMaxTensorRank);
  ETNS_RETURN_IF(t.dim_order()->size() != rank, Error::InvalidProgram,
                 "value %zu: dim_order has %u entries for rank %zu", index,
                 static_cast<unsigned>(t.dim_order()->size()), rank);
  ETNS_RETURN_IF(t.storage_offset() != 0, Error::NotSupported,
                 "value %zu: storage_offset %" PRId32 ", only 0 is supported", index,
                 t.storage_offset());
  ETNS_RETURN_IF(t.shape_dynamism() == fb::TensorShapeDynamism::DYNAMIC_UNBOUND,
                 Error::NotSupported, "value %zu: DYNAMIC_UNBOUND shapes are not supported", index);
  ETNS_RETURN_IF(t.extra_tensor_info() != nullptr &&
                     t.extra_tensor_info()->location() == fb::TensorDataLocation::EXTERNAL,
                 Error::NotSupported, "value %zu: external (.ptd) tensor data is not supported",
                 index);

  uint32_t seen_dims = 0;
  const size_t element_bytes = element_size(dtype);
  for (uint32_t d = 0; d < rank; ++d) {
    const int32_t size = t.sizes()->Get(d);
    ETNS_RETURN_IF(size < 0, Error::InvalidProgram,
                   "value %zu: sizes[%" PRIu32 "] = %" PRId32 ", expected >= 0", index, d, size);
    const uint8_t dim = t.dim_order()->Get(d);
    ETNS_RETURN_IF(dim >= rank || (seen_dims & (1u << dim)) != 0, Error::InvalidProgram,
                   "value %zu: dim_order is not a permutation of 0..%zu", index, rank - 1);
    seen_dims |= 1u << dim;
  }
  // Every dim is bounded, empty tensors' too: the extent (empty dims counted as
  // 1) bounds whatever product of dims a kernel forms, so no kernel's size
  // arithmetic can wrap on the 32-bit target.
  ShapeSize shape;
  ETNS_RETURN_IF(!shape_size(t.sizes()->data(), rank, (uint64_t{1} << 31) / element_bytes, &shape),
                 Error::InvalidProgram,
                 "value %zu: tensor of more than 2 GiB (empty dims counted as 1)", index);
  const uint64_t numel = shape.numel;

  out->dtype = dtype;
  out->rank = static_cast<uint8_t>(rank);
  out->sizes = t.sizes()->data();
  out->dim_order = t.dim_order()->data();
  out->numel = static_cast<size_t>(numel);
  out->nbytes = static_cast<size_t>(numel) * element_bytes;

  const uint32_t buffer = t.data_buffer_idx();
  const fb::AllocationDetails* allocation = t.allocation_info();
  if (buffer > 0 && allocation == nullptr) {
    ETNS_ASSIGN_OR_RETURN(const uint8_t* data, program.constant_data(buffer, out->nbytes, element_bytes, index));
    out->data = const_cast<uint8_t*>(data);  // constants are never written: kernels take them const
    out->is_constant = true;
    return Error::Ok;
  }
  ETNS_RETURN_IF(allocation == nullptr, Error::NotSupported,
                 "value %zu: tensor has neither constant data nor a memory plan", index);
  ETNS_RETURN_IF(buffer > 0, Error::NotSupported,
                 "value %zu: planned tensors with initial data (mutable segments) are not supported",
                 index);
  const uint32_t memory_id = allocation->memory_id();
  ETNS_RETURN_IF(memory_id < 1 || memory_id > meta.planned_buffer_count, Error::InvalidProgram,
                 "value %zu: memory_id %" PRIu32 ", expected 1..%zu", index, memory_id,
                 meta.planned_buffer_count);
  // Buffers hold at most 4 GiB (kMaxPlannedBufferBytes): an offset past that
  // fails the bounds check below on every target alike.
  const uint64_t offset = static_cast<uint64_t>(allocation->memory_offset_low()) |
                          static_cast<uint64_t>(allocation->memory_offset_high()) << 32;
  const uint64_t capacity = meta.planned_buffer_bytes[memory_id - 1];
  ETNS_RETURN_IF(offset > capacity || out->nbytes > capacity - offset, Error::InvalidProgram,
                 "value %zu: tensor bytes [%llu, %llu) exceed planned buffer %" PRIu32
                 " of %llu bytes",
                 index, static_cast<unsigned long long>(offset),
                 static_cast<unsigned long long>(offset + out->nbytes), memory_id,
                 static_cast<unsigned long long>(capacity));
  // Planned buffers start 16-byte aligned, so the offset tells alignment:
  // kernels read and write their elements in place.
  ETNS_RETURN_IF(offset % element_bytes != 0, Error::InvalidProgram,
                 "value %zu: offset %llu in planned buffer %" PRIu32 " is not a multiple of its "
                 "elements' %zu bytes",
                 index, static_cast<unsigned long long>(offset), memory_id, element_bytes);
  out->data = planned.empty() ? nullptr : planned[memory_id - 1].data() + offset;
  return Error::Ok;
}

// Checks an index list whose items name values of one kind (IntList items, tensor lists).
template <typename Index>
Error check_item_indices(const Index* items, uint32_t count, size_t index, Span<EValue> values,
                         ValueKind kind, bool allow_none) {
  for (uint32_t i = 0; i < count; ++i) {
    const int64_t item = static_cast<int64_t>(items[i]);
    if (allow_none && item == -1) continue;
    ETNS_RETURN_IF(item < 0 || static_cast<uint64_t>(item) >= values.size(), Error::InvalidProgram,
                   "value %zu: list item %" PRIu32 " = value index %lld, expected < %zu", index,
                   i, static_cast<long long>(item), values.size());
    const ValueKind got = values[static_cast<size_t>(item)].kind;
    const bool ok = got == kind || (allow_none && got == ValueKind::Null);
    ETNS_RETURN_IF(!ok, Error::InvalidProgram,
                   "value %zu: list item %" PRIu32 " names value %lld of kind %s, expected %s",
                   index, i, static_cast<long long>(item), to_string(got), to_string(kind));
  }
  return Error::Ok;
}

// Parses the value table: first every value, then the lists that name other values.
Error parse_values(const Program& program, const fb::ExecutionPlan& plan, const MethodMeta& meta,
                   Span<Span<uint8_t>> planned, Span<EValue> values) {
  for (uint32_t i = 0; i < values.size(); ++i) {
    const fb::EValue* source = plan.values()->Get(i);
    EValue& value = values[i];
    const uint8_t tag = static_cast<uint8_t>(source->val_type());
    ETNS_RETURN_IF(tag == 0 || tag > static_cast<uint8_t>(ValueKind::OptionalTensorList),
                   Error::InvalidProgram, "value %" PRIu32 ": kind tag %u, expected 1..11", i, tag);
    value.kind = static_cast<ValueKind>(tag);
    ETNS_RETURN_IF(source->val() == nullptr && value.kind != ValueKind::Null, Error::InvalidProgram,
                   "value %" PRIu32 ": %s has no payload", i, to_string(value.kind));
    switch (value.kind) {
      case ValueKind::Null:
      case ValueKind::None:
        break;
      case ValueKind::Int:
        value.int_value = source->val_as_Int()->int_val();
        break;
      case ValueKind::Bool:
        value.bool_value = source->val_as_Bool()->bool_val();
        break;
      case ValueKind::Double:
        value.double_value = source->val_as_Double()->double_val();
        break;
      case ValueKind::String: {
        const flatbuffers::String* s = source->val_as_String()->string_val();
        value.string = StringView{s != nullptr ? s->c_str() : "", s != nullptr ? s->size() : 0};
        break;
      }
      case ValueKind::Tensor:
        value.tensor = Tensor{};
        ETNS_TRY(parse_tensor(program, *source->val_as_Tensor(), i, meta, planned, &value.tensor));
        break;
      case ValueKind::IntList: {
        const auto* items = source->val_as_IntList()->items();
        ETNS_RETURN_IF(items == nullptr, Error::InvalidProgram, "value %" PRIu32 ": IntList has no items", i);
        value.int_list = IntList{items->data(), items->size(), values.data()};
        break;
      }
      case ValueKind::DoubleList: {
        const auto* items = source->val_as_DoubleList()->items();
        ETNS_RETURN_IF(items == nullptr, Error::InvalidProgram, "value %" PRIu32 ": DoubleList has no items", i);
        value.double_list = InlineList<double>{items->data(), items->size()};
        break;
      }
      case ValueKind::BoolList: {
        const auto* items = source->val_as_BoolList()->items();
        ETNS_RETURN_IF(items == nullptr, Error::InvalidProgram, "value %" PRIu32 ": BoolList has no items", i);
        value.bool_list = InlineList<uint8_t>{items->data(), items->size()};
        break;
      }
      case ValueKind::TensorList:
      case ValueKind::OptionalTensorList: {
        const auto* items = value.kind == ValueKind::TensorList
                                ? source->val_as_TensorList()->items()
                                : source->val_as_OptionalTensorList()->items();
        ETNS_RETURN_IF(items == nullptr, Error::InvalidProgram, "value %" PRIu32 ": %s has no items", i,
                       to_string(value.kind));
        value.tensor_list = TensorIndexList{items->data(), items->size()};
        break;
      }
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const EValue& value = values[i];
    if (value.kind == ValueKind::IntList) {
      ETNS_TRY(check_item_indices(value.int_list.item_indices, value.int_list.size, i, values,
                                  ValueKind::Int, false));
    } else if (value.kind == ValueKind::TensorList || value.kind == ValueKind::OptionalTensorList) {
      ETNS_TRY(check_item_indices(value.tensor_list.item_indices, value.tensor_list.size, i, values,
                                  ValueKind::Tensor, value.kind == ValueKind::OptionalTensorList));
    }
  }
  return Error::Ok;
}

Error check_io(const char* what, const flatbuffers::Vector<int32_t>* indices, Span<EValue> values) {
  ETNS_RETURN_IF(indices == nullptr, Error::InvalidProgram, "execution plan has no %s", what);
  for (uint32_t i = 0; i < indices->size(); ++i) {
    const int32_t index = indices->Get(i);
    ETNS_RETURN_IF(index < 0 || static_cast<size_t>(index) >= values.size(), Error::InvalidProgram,
                   "%s %" PRIu32 ": value index %" PRId32 ", expected < %zu", what, i, index,
                   values.size());
    const EValue& value = values[static_cast<size_t>(index)];
    ETNS_RETURN_IF(value.kind != ValueKind::Tensor, Error::NotSupported,
                   "%s %" PRIu32 ": value %" PRId32 " is %s; only tensor inputs and outputs are "
                   "supported",
                   what, i, index, to_string(value.kind));
    ETNS_RETURN_IF(value.tensor.is_constant, Error::NotSupported,
                   "%s %" PRIu32 ": value %" PRId32 " is a constant", what, i, index);
  }
  return Error::Ok;
}

const char* instruction_kind_name(fb::InstructionArguments kind) {
  switch (kind) {
    case fb::InstructionArguments::DelegateCall: return "DelegateCall";
    case fb::InstructionArguments::MoveCall: return "MoveCall";
    case fb::InstructionArguments::JumpFalseCall: return "JumpFalseCall";
    case fb::InstructionArguments::FreeCall: return "FreeCall";
    default: return "unknown";
  }
}

// The load, step by step (Method::load_impl runs them in this order).

// What the plan must hold before anything is parsed.
Error check_plan(const fb::ExecutionPlan& plan, const char* name) {
  ETNS_RETURN_IF(plan.values() == nullptr, Error::InvalidProgram, "method '%s' has no values", name);
  ETNS_RETURN_IF(plan.delegates() == nullptr, Error::InvalidProgram,
                 "method '%s' has no delegates vector", name);
  ETNS_RETURN_IF(plan.delegates()->size() != 0, Error::NotSupported,
                 "method '%s' has %u backend delegates; delegates are not supported", name,
                 static_cast<unsigned>(plan.delegates()->size()));
  ETNS_RETURN_IF(plan.chains() == nullptr || plan.chains()->size() == 0, Error::InvalidProgram,
                 "method '%s' has no chains", name);
  return Error::Ok;
}

// A bound method needs one buffer per planned memory id, each as large as planned.
Error check_planned_memory(const MethodMeta& meta, Span<Span<uint8_t>> planned, const char* name) {
  ETNS_RETURN_IF(planned.size() != meta.planned_buffer_count, Error::InvalidArgument,
                 "method '%s' plans %zu buffers, %zu given", name, meta.planned_buffer_count, planned.size());
  for (size_t k = 0; k < meta.planned_buffer_count; ++k) {
    ETNS_RETURN_IF(planned[k].size() < meta.planned_buffer_bytes[k], Error::OutOfMemory,
                   "planned buffer %zu: need %zu bytes, %zu given", k + 1, meta.planned_buffer_bytes[k],
                   planned[k].size());
  }
  return Error::Ok;
}

// The value table, in the method arena, every value parsed and checked.
Result<Span<EValue>> load_values(const Program& program, const fb::ExecutionPlan& plan, const MethodMeta& meta,
                                 Span<Span<uint8_t>> planned, Arena& arena) {
  const uint32_t value_count = plan.values()->size();
  ETNS_ASSIGN_OR_RETURN(EValue * values, arena.allocate_array<EValue>(value_count));
  for (uint32_t i = 0; i < value_count; ++i) new (&values[i]) EValue();
  const Span<EValue> table(values, value_count);
  ETNS_TRY(parse_values(program, plan, meta, planned, table));
  return table;
}

// Operator `k`'s key, "name.overload", copied into the method arena.
Result<const char*> operator_key(const fb::Operator& op, uint32_t k, Arena& arena) {
  ETNS_RETURN_IF(op.name() == nullptr, Error::InvalidProgram, "operator %" PRIu32 " has no name", k);
  const size_t name_bytes = op.name()->size();
  const size_t overload_bytes = op.overload() != nullptr ? op.overload()->size() : 0;
  const size_t total = name_bytes + (overload_bytes > 0 ? 1 + overload_bytes : 0);
  ETNS_RETURN_IF(total >= kMaxOperatorNameBytes, Error::InvalidProgram,
                 "operator %" PRIu32 ": name of %zu bytes, at most %zu", k, total, kMaxOperatorNameBytes - 1);
  // Keys are C strings printed in every message: a NUL would make the key
  // name another (real) operator, a control byte would reach the terminal.
  for (const flatbuffers::String* part : {op.name(), op.overload()}) {
    if (part == nullptr || is_printable(part->c_str(), part->size())) continue;
    char escaped[kMaxEscapedBytes];
    ETNS_LOG_ERROR("operator %" PRIu32 ": name \"%s\" holds a byte outside printable ASCII", k,
                   escape_text(escaped, sizeof(escaped), part->c_str(), part->size()));
    return Error::InvalidProgram;
  }
  ETNS_ASSIGN_OR_RETURN(void* memory_for_name, arena.allocate(total + 1, 1));
  char* key = static_cast<char*>(memory_for_name);
  std::memcpy(key, op.name()->c_str(), name_bytes);
  if (overload_bytes > 0) {
    key[name_bytes] = '.';
    std::memcpy(key + name_bytes + 1, op.overload()->c_str(), overload_bytes);
  }
  key[total] = '\0';
  return static_cast<const char*>(key);
}

// Every operator's key, kept in the method arena.
Result<Span<const char*>> read_operator_names(const fb::ExecutionPlan& plan, Arena& arena) {
  const auto* operators = plan.operators();
  const uint32_t operator_count = operators != nullptr ? operators->size() : 0;
  ETNS_ASSIGN_OR_RETURN(const char** names, arena.allocate_array<const char*>(operator_count));
  for (uint32_t k = 0; k < operator_count; ++k) {
    ETNS_ASSIGN_OR_RETURN(names[k], operator_key(*operators->Get(k), k, arena));
  }
  return Span<const char*>(names, operator_count);
}

// Decodes one instruction into `instruction` (its id already set): a kernel
// call whose operator and argument indices are checked.
Error decode_instruction(const fb::Instruction& source, Span<const char*> operator_names, Span<EValue> values,
                         Arena& arena, Instruction& instruction) {
  const fb::InstructionArguments kind = source.instr_args_type();
  ETNS_RETURN_IF(kind == fb::InstructionArguments::NONE ||
                     static_cast<uint8_t>(kind) > static_cast<uint8_t>(fb::InstructionArguments::MAX),
                 Error::InvalidProgram, "%s: instruction type tag %u, expected 1..5", instruction.id,
                 static_cast<unsigned>(kind));
  ETNS_RETURN_IF(kind != fb::InstructionArguments::KernelCall, Error::NotSupported,
                 "%s: %s instructions are not supported", instruction.id, instruction_kind_name(kind));
  const fb::KernelCall* call = source.instr_args_as_KernelCall();
  ETNS_RETURN_IF(call == nullptr, Error::InvalidProgram, "%s: KernelCall has no payload", instruction.id);
  const int32_t op_index = call->op_index();
  const uint32_t operator_count = static_cast<uint32_t>(operator_names.size());
  ETNS_RETURN_IF(op_index < 0 || static_cast<uint32_t>(op_index) >= operator_count, Error::InvalidProgram,
                 "%s: op_index %" PRId32 ", expected < %" PRIu32, instruction.id, op_index, operator_count);
  instruction.op_index = static_cast<uint32_t>(op_index);
  instruction.operator_name = operator_names[instruction.op_index];
  const auto* args = call->args();
  ETNS_RETURN_IF(args == nullptr || args->size() == 0, Error::InvalidProgram,
                 "%s %s: KernelCall has no arguments", instruction.id, instruction.operator_name);
  ETNS_ASSIGN_OR_RETURN(EValue * *arg_values, arena.allocate_array<EValue*>(args->size()));
  const uint32_t value_count = static_cast<uint32_t>(values.size());
  for (uint32_t a = 0; a < args->size(); ++a) {
    const int32_t value_index = args->Get(a);
    ETNS_RETURN_IF(value_index < 0 || static_cast<uint32_t>(value_index) >= value_count, Error::InvalidProgram,
                   "%s %s: argument %" PRIu32 " = value index %" PRId32 ", expected < %" PRIu32,
                   instruction.id, instruction.operator_name, a, value_index, value_count);
    arg_values[a] = &values[static_cast<size_t>(value_index)];
  }
  instruction.args = Span<EValue* const>(arg_values, args->size());
  return Error::Ok;
}

// Every instruction of every chain, in order, in the method arena.
Result<Span<Instruction>> decode_instructions(const fb::ExecutionPlan& plan, const char* name,
                                              Span<const char*> operator_names, Span<EValue> values,
                                              Arena& arena) {
  size_t instruction_total = 0;
  for (const fb::Chain* chain : *plan.chains()) {
    ETNS_RETURN_IF(chain->instructions() == nullptr, Error::InvalidProgram,
                   "method '%s': a chain has no instructions vector", name);
    instruction_total += chain->instructions()->size();
  }
  ETNS_ASSIGN_OR_RETURN(Instruction * instructions, arena.allocate_array<Instruction>(instruction_total));
  size_t flat = 0;
  for (uint32_t c = 0; c < plan.chains()->size(); ++c) {
    const auto* chain_instructions = plan.chains()->Get(c)->instructions();
    for (uint32_t i = 0; i < chain_instructions->size(); ++i, ++flat) {
      Instruction& instruction = *new (&instructions[flat]) Instruction();
      format_text(instruction.id, sizeof(instruction.id), "c%" PRIu32 "i%" PRIu32, c, i);
      ETNS_TRY(decode_instruction(*chain_instructions->Get(i), operator_names, values, arena, instruction));
    }
  }
  return Span<Instruction>(instructions, instruction_total);
}

// Every operator the instructions use must be in the registry; each missing
// one is named once, and nothing is prepared.
Error check_operators_registered(Span<const Instruction> instructions, Span<const char*> operator_names,
                                 const KernelRegistry& registry, const char* name) {
  size_t missing = 0;
  for (uint32_t k = 0; k < operator_names.size(); ++k) {
    bool used = false;
    for (const Instruction& instruction : instructions) used |= instruction.op_index == k;
    if (used && registry.find(operator_names[k]) == nullptr) {
      ETNS_LOG_ERROR("missing operator [%" PRIu32 "] %s", k, operator_names[k]);
      ++missing;
    }
  }
  ETNS_RETURN_IF(missing > 0, Error::OperatorMissing,
                 "method '%s': %zu operator(s) missing from provider '%s'; nothing was prepared", name, missing,
                 registry.provider);
  return Error::Ok;
}

// Binds and prepares each kernel: argument validation happens here, once.
// Returns the largest scratch request.
// out has no elements.
bool produces_nothing(const Instruction& instruction, const OperatorContract& contract) {
  return instruction.args[contract.out().index]->tensor.numel == 0;
}

// What an instruction with nothing to write runs, decided at load: nothing,
// whatever its inputs' sizes (an empty tensor's other dims may be huge).
Error run_nothing(const RunContext&) { return Error::Ok; }
constexpr KernelEntry kNothingToDo{"(nothing to write)", nullptr, nullptr, &run_nothing};

// What an instruction writes: out, never a constant (a program in flash
// would fault, and a kernel's prepare already read and validated it). Its
// memory may meet an input's only where the contract lets the operator run in
// place: the first tensor argument, at out's own address, of out's size.
Error check_writes(const Instruction& instruction, const OperatorContract& contract) {
  const Arg out_arg = contract.out();
  const Tensor& out = instruction.args[out_arg.index]->tensor;
  ETNS_RETURN_IF(out.is_constant, Error::InvalidProgram,
                 "%s %s: out is a constant tensor; constants are read-only", instruction.id,
                 instruction.operator_name);
  if (out.nbytes == 0 || out.data == nullptr) return Error::Ok;
  const uintptr_t out_begin = reinterpret_cast<uintptr_t>(out.data);
  const uintptr_t out_end = out_begin + out.nbytes;
  bool first_tensor = true;
  for (uint8_t i = 0; i < out_arg.index; ++i) {
    const EValue& value = *instruction.args[i];
    if (value.kind != ValueKind::Tensor) continue;
    const bool may_alias = first_tensor && contract.in_place;
    first_tensor = false;
    const Tensor& in = value.tensor;
    if (in.nbytes == 0 || in.data == nullptr) continue;
    const uintptr_t begin = reinterpret_cast<uintptr_t>(in.data);
    if (begin >= out_end || begin + in.nbytes <= out_begin) continue;
    const bool in_place = may_alias && begin == out_begin && in.nbytes == out.nbytes &&
                          element_size(in.dtype) == element_size(out.dtype);
    ETNS_RETURN_IF(!in_place, Error::InvalidProgram,
                   "%s %s: out overlaps argument %u (%s)%s", instruction.id,
                   instruction.operator_name, static_cast<unsigned>(i), contract.args[i].name,
                   contract.in_place ? "; only its first tensor argument may share out's memory "
                                       "exactly (in place)"
                                     : "; the operator does not run in place");
  }
  return Error::Ok;
}

// Whether value `index` is one of `ids` (the method's inputs or outputs).
bool names_value(Span<const int32_t> ids, size_t index) {
  for (const int32_t id : ids) {
    if (id >= 0 && static_cast<size_t>(id) == index) return true;
  }
  return false;
}

// Every element of `state` set to `initial`, which its dtype must hold.
Error fill_state(const Instruction& instruction, const char* name, const Tensor& state, int64_t initial) {
  int64_t lo = 0, hi = 0;
  switch (state.dtype) {
    case ScalarType::Char: lo = INT8_MIN; hi = INT8_MAX; break;
    case ScalarType::Short: lo = INT16_MIN; hi = INT16_MAX; break;
    case ScalarType::Int: lo = INT32_MIN; hi = INT32_MAX; break;
    default:
      ETNS_RETURN_IF(initial != 0, Error::NotSupported, "%s %s: %s is %s; a state of that dtype starts at 0 only",
                     instruction.id, instruction.operator_name, name, to_string(state.dtype));
      break;
  }
  ETNS_RETURN_IF(initial < lo || initial > hi, Error::InvalidProgram,
                 "%s %s: %s starts at %lld, outside its dtype %s", instruction.id, instruction.operator_name, name,
                 static_cast<long long>(initial), to_string(state.dtype));
  if (initial == 0) {
    std::memset(state.data, 0, state.nbytes);
  } else if (state.dtype == ScalarType::Char) {
    std::memset(state.data, static_cast<int>(static_cast<uint8_t>(initial)), state.nbytes);
  } else if (state.dtype == ScalarType::Short) {
    int16_t* items = state.data_as<int16_t>();
    for (size_t i = 0; i < state.numel; ++i) items[i] = static_cast<int16_t>(initial);
  } else {
    int32_t* items = state.data_as<int32_t>();
    for (size_t i = 0; i < state.numel; ++i) items[i] = static_cast<int32_t>(initial);
  }
  return Error::Ok;
}

// State argument `a` set to its initial value (ArgSpec::state_initial, else 0).
Error set_initial_state(const Instruction& instruction, const OperatorContract& contract, uint8_t a) {
  const Tensor& state = instruction.args[a]->tensor;
  if (state.nbytes == 0 || state.data == nullptr) return Error::Ok;
  int64_t initial = 0;
  if (contract.args[a].state_initial != nullptr) {
    const int from = contract.find(contract.args[a].state_initial);
    ETNS_RETURN_IF(from < 0 || instruction.args[from]->kind != ValueKind::Int, Error::Internal,
                   "%s %s: %s's initial value names no Int argument", instruction.id, instruction.operator_name,
                   contract.args[a].name);
    initial = instruction.args[from]->int_value;
  }
  return fill_state(instruction, contract.args[a].name, state, initial);
}

// An operator's state arguments (ArgSpec::state): planned tensors that only
// carry values from one execution to the next, so each must be planned, not
// an input or output the caller writes or reads, and share no byte with any
// other tensor of the method. Each is set here, once, to its initial value
// (ArgSpec::state_initial, else 0): executions then see the state the
// previous one left.
Error init_state(const Instruction& instruction, const OperatorContract& contract, Span<EValue> values,
                 Span<const int32_t> inputs, Span<const int32_t> outputs) {
  for (uint8_t a = 0; a < contract.count; ++a) {
    if (!contract.args[a].state) continue;
    const EValue* value = instruction.args[a];
    const size_t index = static_cast<size_t>(value - values.data());
    const Tensor& state = value->tensor;
    ETNS_RETURN_IF(state.is_constant || names_value(inputs, index) || names_value(outputs, index),
                   Error::InvalidProgram,
                   "%s %s: %s (value %zu) is the operator's state; it must be a planned tensor that is not a "
                   "constant, a method input or a method output",
                   instruction.id, instruction.operator_name, contract.args[a].name, index);
    if (state.nbytes == 0 || state.data == nullptr) continue;
    const uintptr_t begin = reinterpret_cast<uintptr_t>(state.data);
    for (size_t v = 0; v < values.size(); ++v) {
      const EValue& other = values[v];
      if (v == index || other.kind != ValueKind::Tensor || other.tensor.is_constant) continue;
      const Tensor& t = other.tensor;
      if (t.nbytes == 0 || t.data == nullptr) continue;
      const uintptr_t other_begin = reinterpret_cast<uintptr_t>(t.data);
      ETNS_RETURN_IF(other_begin < begin + state.nbytes && begin < other_begin + t.nbytes, Error::InvalidProgram,
                     "%s %s: %s (value %zu) shares planned memory with value %zu; the operator's state "
                     "needs memory of its own for the whole method",
                     instruction.id, instruction.operator_name, contract.args[a].name, index, v);
    }
    ETNS_TRY(set_initial_state(instruction, contract, a));
  }
  return Error::Ok;
}

Result<size_t> bind_kernels(Span<Instruction> instructions, const KernelRegistry& registry, Arena& arena,
                            Span<EValue> values, Span<const int32_t> inputs, Span<const int32_t> outputs) {
  size_t max_scratch_bytes = 0;
  for (Instruction& instruction : instructions) {
    const KernelEntry* kernel = registry.find(instruction.operator_name);
    PrepareContext context(instruction.id, instruction.operator_name, *kernel->contract, instruction.args,
                           arena);
    ETNS_TRY(context.check_arguments());
    const size_t last = instruction.args.size() - 1;
    ETNS_RETURN_IF(instruction.args[last] != instruction.args[last - 1], Error::InvalidProgram,
                   "%s %s: the return slot names another value than out", instruction.id,
                   instruction.operator_name);
    ETNS_TRY(check_writes(instruction, *kernel->contract));
    ETNS_TRY(init_state(instruction, *kernel->contract, values, inputs, outputs));
    ETNS_TRY(kernel->prepare(context));
    // An instruction with nothing to write does no work and needs no scratch.
    const bool nothing = produces_nothing(instruction, *kernel->contract);
    instruction.kernel = nothing ? &kNothingToDo : kernel;
    instruction.state = context.state();
    instruction.scratch_bytes = nothing ? 0 : context.scratch_bytes();
    if (instruction.scratch_bytes > max_scratch_bytes) max_scratch_bytes = instruction.scratch_bytes;
  }
  return max_scratch_bytes;
}

// Scratch is 16-byte aligned; the worst instruction's request must fit.
Error check_scratch_fits(size_t max_scratch_bytes, const Arena& temporary) {
  const size_t worst = Method::temporary_arena_bytes_for(max_scratch_bytes);
  ETNS_RETURN_IF(worst > temporary.capacity_bytes(), Error::OutOfMemory,
                 "arena '%s': need %zu bytes of kernel scratch, %zu available", temporary.name(), worst,
                 temporary.capacity_bytes());
  return Error::Ok;
}

}  // namespace

Result<MethodMeta> method_meta(const Program& program, const char* name) {
  ETNS_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, program.plan(name));
  const auto* sizes = plan->non_const_buffer_sizes();
  ETNS_RETURN_IF(sizes == nullptr, Error::InvalidProgram,
                 "method '%s': execution plan has no non_const_buffer_sizes", name);
  MethodMeta meta;
  if (sizes->size() <= 1) return meta;
  meta.planned_buffer_count = sizes->size() - 1;
  ETNS_RETURN_IF(meta.planned_buffer_count > kMaxPlannedBuffers, Error::NotSupported,
                 "method '%s': %zu planned buffers, at most %zu supported", name,
                 meta.planned_buffer_count, kMaxPlannedBuffers);
  for (uint32_t k = 1; k < sizes->size(); ++k) {
    ETNS_ASSIGN_OR_RETURN(const int64_t bytes, planned_size_at(*sizes, k));
    meta.planned_buffer_bytes[k - 1] = static_cast<size_t>(bytes);
  }
  return meta;
}

Result<Method> Method::load(const Program& program, const char* name,
                            const KernelRegistry& registry, const MethodMemory& memory) {
  return load_impl(program, name, &registry, memory);
}

Result<Method> Method::load_unbound(const Program& program, const char* name,
                                    const MethodMemory& memory) {
  return load_impl(program, name, nullptr, memory);
}

Result<Method> Method::load_impl(const Program& program, const char* name,
                                 const KernelRegistry* registry, const MethodMemory& memory) {
  ETNS_RETURN_IF(memory.method == nullptr || memory.temporary == nullptr, Error::InvalidArgument,
                 "method '%s': MethodMemory needs a method and a temporary arena", name);
  ETNS_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, program.plan(name));
  ETNS_ASSIGN_OR_RETURN(const MethodMeta meta, method_meta(program, name));
  ETNS_TRY(check_plan(*plan, name));
  // Unbound methods (inspection) need no planned memory; bound ones need all of it.
  if (registry != nullptr) {
    ETNS_TRY(check_planned_memory(meta, memory.planned, name));
  }
  const Span<Span<uint8_t>> planned = registry != nullptr ? memory.planned : Span<Span<uint8_t>>();

  Method method;
  method.meta_ = meta;
  method.temporary_ = memory.temporary;
  Arena& arena = *memory.method;
  ETNS_ASSIGN_OR_RETURN(method.values_, load_values(program, *plan, meta, planned, arena));
  ETNS_TRY(check_io("input", plan->inputs(), method.values_));
  ETNS_TRY(check_io("output", plan->outputs(), method.values_));
  method.inputs_ = Span<const int32_t>(plan->inputs()->data(), plan->inputs()->size());
  method.outputs_ = Span<const int32_t>(plan->outputs()->data(), plan->outputs()->size());
  ETNS_ASSIGN_OR_RETURN(method.operator_names_, read_operator_names(*plan, arena));
  ETNS_ASSIGN_OR_RETURN(method.instructions_,
                        decode_instructions(*plan, name, method.operator_names_, method.values_, arena));
  if (registry == nullptr) return method;

  ETNS_TRY(check_operators_registered(method.instructions_, method.operator_names_, *registry, name));
  ETNS_ASSIGN_OR_RETURN(method.max_scratch_bytes_, bind_kernels(method.instructions_, *registry, arena, method.values_,
                                                                   method.inputs_, method.outputs_));
  ETNS_TRY(check_scratch_fits(method.max_scratch_bytes_, *memory.temporary));
  method.bound_ = true;
  return method;
}

Error Method::set_input(size_t i, Span<const uint8_t> bytes) {
  ETNS_RETURN_IF(i >= inputs_.size(), Error::InvalidArgument, "input %zu: the method has %zu inputs",
                 i, inputs_.size());
  const Tensor& tensor = input(i);
  ETNS_RETURN_IF(bytes.size() != tensor.nbytes, Error::InvalidArgument,
                 "input %zu: %zu bytes given, expected %zu (%s, %zu elements)", i, bytes.size(),
                 tensor.nbytes, to_string(tensor.dtype), tensor.numel);
  if (tensor.nbytes == 0) return Error::Ok;  // nothing to hold: no memory needed
  ETNS_RETURN_IF(tensor.data == nullptr, Error::NotSupported,
                 "input %zu: the method was loaded without planned memory", i);
  std::memcpy(tensor.data, bytes.data(), tensor.nbytes);
  return Error::Ok;
}

const Tensor* Method::instruction_output(size_t i) const {
  const Instruction& instruction = instructions_[i];
  const EValue* out = instruction.args[instruction.args.size() - 1];
  return out->kind == ValueKind::Tensor ? &out->tensor : nullptr;
}

Error Method::reset_state() {
  ETNS_RETURN_IF(!bound_, Error::NotSupported, "reset_state: the method was loaded unbound");
  for (const Instruction& instruction : instructions_) {
    const OperatorContract* contract = instruction.kernel->contract;
    if (contract == nullptr) continue;  // nothing to write, no state to carry
    for (uint8_t a = 0; a < contract->count; ++a) {
      if (contract->args[a].state) ETNS_TRY(set_initial_state(instruction, *contract, a));
    }
  }
  return Error::Ok;
}

Error Method::execute(const ExecuteHooks* hooks) {
  ETNS_RETURN_IF(!bound_, Error::NotSupported, "execute: the method was loaded unbound");
  const DefaultNanScope one_nan;  // every NaN a kernel makes is 0x7FC00000 (default_nan.h)
  for (size_t i = 0; i < instructions_.size(); ++i) {
    const Instruction& instruction = instructions_[i];
    if (hooks != nullptr && hooks->before_instruction != nullptr) hooks->before_instruction(hooks->user, i);
    RunContext context;
    context.args = instruction.args;
    context.prepared_state = instruction.state;
    if (instruction.scratch_bytes > 0) {
      // load checked that the largest scratch fits, so a failure is an etns bug:
      // debug builds stop here, release ones report Internal.
      Result<void*> scratch = temporary_->allocate(instruction.scratch_bytes, 16);
      ETNS_DCHECK(scratch.ok());
      if (!scratch.ok()) return Error::Internal;
      context.scratch = Span<uint8_t>(static_cast<uint8_t*>(*scratch), instruction.scratch_bytes);
    }
    const Error error = instruction.kernel->run(context);
    temporary_->reset();
    if (hooks != nullptr && hooks->after_instruction != nullptr) hooks->after_instruction(hooks->user, i);
    ETNS_RETURN_IF(error != Error::Ok, error, "%s %s: kernel failed: %s", instruction.id,
                   instruction.operator_name, to_string(error));
  }
  return Error::Ok;
}

}  // namespace etns::runtime
