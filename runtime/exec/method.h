#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/exec/kernel.h"
#include "runtime/pte/program.h"

namespace etns::runtime {

constexpr size_t kMaxPlannedBuffers = 8;

// The memory a method needs, sized from the program before loading it.
struct MethodMeta {
  size_t planned_buffer_count = 0;
  size_t planned_buffer_bytes[kMaxPlannedBuffers] = {};
};

// Reads the memory plan of method `name` (non_const_buffer_sizes; entry 0 is
// reserved and skipped). Errors: InvalidArgument (no such method),
// InvalidProgram (missing or negative sizes), NotSupported (too many buffers).
Result<MethodMeta> method_meta(const Program& program, const char* name);

// Memory the caller owns, handed to Method::load. Nothing is allocated elsewhere.
struct MethodMemory {
  Arena* method = nullptr;      // values, instruction table, kernel state: lives with the Method
  Span<Span<uint8_t>> planned;  // one buffer per planned memory id (id 1 first)
  Arena* temporary = nullptr;   // kernel scratch, reset after every instruction
};

// One decoded instruction.
struct Instruction {
  char id[24] = {};                     // "c0i5": chain 0, instruction 5
  uint32_t op_index = 0;
  const char* operator_name = nullptr;  // "cortex_m::minimum.out"
  Span<EValue* const> args;             // schema arguments, then the return slot
  const KernelEntry* kernel = nullptr;  // null in an unbound method
  const void* state = nullptr;          // from the kernel's prepare
  size_t scratch_bytes = 0;
};
ETNS_TARGET_LAYOUT(Instruction, StructLayout()
                                    .member(fixed<char>(), 24)      // id
                                    .member(fixed<uint32_t>())      // op_index
                                    .member(word(abi))              // operator_name
                                    .member(layout_of<Span<EValue* const>>(abi))  // args
                                    .member(word(abi), 3)           // kernel, state, scratch_bytes
                                    .done());

// Called around every instruction by execute(); both may be null.
struct ExecuteHooks {
  void* user = nullptr;
  void (*before_instruction)(void* user, size_t index) = nullptr;
  void (*after_instruction)(void* user, size_t index) = nullptr;
};

// A loaded method: values parsed, tensors placed in the planned buffers,
// every operator resolved and every kernel prepared. Holds pointers into the
// Program's bytes and the MethodMemory; both must outlive it.
class Method {
 public:
  // Errors: InvalidProgram (malformed plan; one line names value, instruction
  // or offset), OperatorMissing (each missing operator is logged, nothing is
  // prepared), InvalidArgument (a kernel refused its arguments), OutOfMemory
  // (an arena or planned buffer is too small), NotSupported.
  static Result<Method> load(const Program& program, const char* name,
                             const KernelRegistry& registry, const MethodMemory& memory);
  // Parses and checks everything but binds no kernels: for inspection.
  // execute() on such a method fails with NotSupported.
  static Result<Method> load_unbound(const Program& program, const char* name,
                                     const MethodMemory& memory);

  size_t value_count() const { return values_.size(); }
  const EValue& value(size_t index) const { return values_[index]; }

  size_t input_count() const { return inputs_.size(); }
  size_t input_value_index(size_t i) const { return inputs_[i]; }
  const Tensor& input(size_t i) const { return values_[inputs_[i]].tensor; }
  size_t output_count() const { return outputs_.size(); }
  size_t output_value_index(size_t i) const { return outputs_[i]; }
  const Tensor& output(size_t i) const { return values_[outputs_[i]].tensor; }

  // Copies `bytes` verbatim into input `i` (its planned memory, in its memory
  // layout). The output may share those bytes, so set inputs before every
  // execute(). Errors: InvalidArgument (index or byte count).
  Error set_input(size_t i, Span<const uint8_t> bytes);

  size_t instruction_count() const { return instructions_.size(); }
  const Instruction& instruction(size_t i) const { return instructions_[i]; }
  // The tensor instruction `i` writes (its out argument), or null.
  const Tensor* instruction_output(size_t i) const;

  size_t operator_count() const { return operator_names_.size(); }
  const char* operator_name(size_t i) const { return operator_names_[i]; }
  const MethodMeta& meta() const { return meta_; }
  size_t max_scratch_bytes() const { return max_scratch_bytes_; }
  // The temporary arena load asks for: the largest scratch and up to 15 bytes
  // to align it to 16 wherever the arena starts (the same on every target).
  size_t temporary_arena_bytes() const { return temporary_arena_bytes_for(max_scratch_bytes_); }
  static constexpr size_t temporary_arena_bytes_for(size_t max_scratch_bytes) {
    return max_scratch_bytes > 0 ? max_scratch_bytes + 15 : 0;
  }

  // Runs every instruction in order; stops at the first kernel error. An
  // operator's state (ArgSpec::state) carries from one execute() to the next.
  Error execute(const ExecuteHooks* hooks = nullptr);
  // Sets every operator state back to its initial value, as load did: the
  // next execute() is a sequence's first, as on a freshly loaded method.
  Error reset_state();

 private:
  static Result<Method> load_impl(const Program& program, const char* name,
                                  const KernelRegistry* registry, const MethodMemory& memory);

  Span<EValue> values_;
  Span<const int32_t> inputs_;
  Span<const int32_t> outputs_;
  Span<Instruction> instructions_;
  Span<const char*> operator_names_;
  MethodMeta meta_;
  Arena* temporary_ = nullptr;
  size_t max_scratch_bytes_ = 0;
  bool bound_ = false;
};

}  // namespace etns::runtime
