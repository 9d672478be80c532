#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/scalar_type.h"
#include "runtime/exec/operator_contract.h"

namespace etns::tools {

// An editable ExecuTorch program with one method (pte-format.md §3, §4): the
// value table, the operator table and one chain of kernel calls, all indices
// as the format has them. Plain data: build it by hand, or read a .pte with
// read_program, edit it, and write it with write_program (pte_writer.h).
//
// What the model leaves out, because nothing we load uses it: more than one
// method or chain, chain inputs/outputs, delegates, instructions other than
// KernelCall, mutable or named data, non_const_buffer_device and tensors'
// extra_tensor_info; read_program refuses a program that has any of them.
// Two things ExecuTorch's runtime ignores are dropped when read: the chain's
// debug stacktrace and a tensor's `layout` byte. Where constant bytes live
// (segment or inline buffer) is the writer's choice, not part of the model.

// Where a tensor's bytes are (pte-format.md §4.4).
enum class TensorStorage : uint8_t {
  Constant,   // bytes in the program: `data`
  Planned,    // at `offset` in planned arena `memory_id` (1-based)
  Unplanned,  // supplied at run time (our loader refuses these)
};

struct ModelTensor {
  runtime::ScalarType dtype = runtime::ScalarType::Float;
  std::vector<int32_t> sizes;      // logical sizes; empty = 0-dim
  std::vector<uint8_t> dim_order;  // outermost to innermost in memory; a permutation of 0..rank-1
  TensorStorage storage = TensorStorage::Planned;
  std::vector<uint8_t> data;  // Constant only: exactly nbytes() bytes, in memory order
  uint32_t memory_id = 0;     // Planned only
  uint64_t offset = 0;        // Planned only
  uint8_t shape_dynamism = 0;  // 0 STATIC, 1 DYNAMIC_BOUND
  bool requires_grad = false;

  size_t numel() const;
  // numel() × the element size of `dtype` (0 for an invalid dtype).
  size_t nbytes() const;
  bool operator==(const ModelTensor& other) const;
  bool operator!=(const ModelTensor& other) const { return !(*this == other); }
};

// One entry of the value table. Only the members of `kind` are meaningful.
struct ModelValue {
  runtime::ValueKind kind = runtime::ValueKind::Null;
  int64_t int_value = 0;       // Int
  bool bool_value = false;     // Bool
  double double_value = 0.0;   // Double
  std::string string_value;    // String
  // IntList: value indices of Int values (not the integers). TensorList and
  // OptionalTensorList: value indices of Tensor values (-1 = None).
  std::vector<int64_t> items;
  std::vector<double> double_items;  // DoubleList (literal items)
  std::vector<uint8_t> bool_items;   // BoolList (literal items, 0 or 1)
  ModelTensor tensor;                // Tensor

  static ModelValue null();
  static ModelValue integer(int64_t value);
  static ModelValue boolean(bool value);
  static ModelValue real(double value);
  static ModelValue string(std::string value);
  static ModelValue int_list(std::vector<int64_t> value_indices);
  static ModelValue tensor_value(ModelTensor tensor);

  bool operator==(const ModelValue& other) const;
  bool operator!=(const ModelValue& other) const { return !(*this == other); }
};

struct ModelOperator {
  std::string name;      // "cortex_m::quantized_conv2d"
  std::string overload;  // "out"; empty = none
  bool operator==(const ModelOperator& other) const {
    return name == other.name && overload == other.overload;
  }
};

// A KernelCall. For a `.out` kernel `args` holds every schema argument in
// order (out last among them) and then the return slot, which repeats out's
// index (pte-format.md §4.6).
struct KernelCall {
  uint32_t op_index = 0;
  std::vector<int32_t> args;
  bool operator==(const KernelCall& other) const {
    return op_index == other.op_index && args == other.args;
  }
};

struct ProgramModel {
  uint32_t version = 0;  // Program.version
  std::string method_name = "forward";
  std::vector<ModelValue> values;
  std::vector<int32_t> inputs;   // value indices
  std::vector<int32_t> outputs;  // value indices
  std::vector<ModelOperator> operators;
  std::vector<KernelCall> instructions;  // the method's one chain, in execution order
  // Entry 0 is reserved (0); entry k is the byte size of planned arena k.
  std::vector<int64_t> non_const_buffer_sizes = {0};
  // ContainerMetadata: the pytree specs of inputs and outputs (the runtime ignores them).
  std::string encoded_inp_str;
  std::string encoded_out_str;

  // Appends a value; returns its index.
  int32_t add_value(ModelValue value);
  // The index of operator name.overload, appended when not yet in the table.
  uint32_t add_operator(const std::string& name, const std::string& overload);
  // A call of `contract`'s operator (added to the table) with the value
  // indices given by argument name, each argument named once, and the return
  // slot after out. Throws Failure naming an unknown, repeated or missing
  // argument.
  KernelCall call(const runtime::OperatorContract& contract,
                  const std::vector<std::pair<const char*, int32_t>>& named);

  bool operator==(const ProgramModel& other) const;
  bool operator!=(const ProgramModel& other) const { return !(*this == other); }
};

// Checks that the model describes a program the format can express and our
// loader accepts: every index in range and naming a value of the right kind,
// tensors with valid dtypes, permutation dim orders, constant data of exactly
// nbytes(), planned bytes inside their arena (unless `check_placement` is
// false: the planner checks a model before it has placed anything). Throws
// Failure with one line naming the value, instruction or field.
void check_model(const ProgramModel& model, bool check_placement = true);

// Reads a .pte into the model. The bytes are first loaded and checked by our
// runtime loader (Program::load, then Method::load_unbound): anything it
// refuses throws Failure("<context>: <the loader's line>"); so does anything
// the model cannot hold (see above). Constant bytes are copied.
ProgramModel read_program(const std::vector<uint8_t>& bytes,
                          const std::string& context = "program");

}  // namespace etns::tools
