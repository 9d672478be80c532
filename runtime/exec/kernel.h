#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/exec/operator_contract.h"

// What a kernel is to the runtime. Kernels live in kernels/ and implement this;
// the runtime binds them at load through a provider's registry.
namespace etns::runtime {

// Handed to a kernel's prepare, once per instruction, at method load. prepare
// validates every argument (dtype, rank, layout, quantisation parameters) and
// stores what run needs, so run trusts its inputs and cannot fail for memory.
class PrepareContext {
 public:
  PrepareContext(const char* instruction_id, const char* operator_name,
                 const OperatorContract& contract, Span<EValue* const> args, Arena& method_arena)
      : instruction_id_(instruction_id),
        operator_name_(operator_name),
        contract_(contract),
        args_(args),
        method_arena_(method_arena) {}

  const char* instruction_id() const { return instruction_id_; }  // "c0i5"
  const char* operator_name() const { return operator_name_; }   // "cortex_m::minimum.out"
  const OperatorContract& contract() const { return contract_; }

  // Logs "c0i5 cortex_m::minimum.out: <message>" and returns `code`.
#if defined(ETNS_NO_ERROR_MESSAGES)
  // A build without error lines (ETNS_ERROR_MESSAGES=OFF) keeps the code
  // only; the template inlines, so the format strings leave the image.
  template <typename... Args>
  Error fail(Error code, const char* /*format*/, const Args&... /*args*/) const {
    return code;
  }
#else
  Error fail(Error code, const char* format, ...) const __attribute__((format(printf, 3, 4)));
#endif

  // Checks every argument against the contract: the call's argument count, each
  // argument's kind (InvalidProgram: "argument 3 (kernel_sum) is Int, expected
  // Tensor or Null"), and each tensor's dtype and shape rule (InvalidArgument:
  // "kernel_sum dtype float32, expected int32"). The loader runs it before
  // prepare, so the readers below only hand values out.
  Error check_arguments() const;

  // Typed readers, by the contract's argument (contract.arg("name")).
  Result<Tensor*> tensor(Arg a) const;
  Result<Tensor*> optional_tensor(Arg a) const;  // nullptr for Null
  Result<int64_t> int_value(Arg a) const;
  Result<double> double_value(Arg a) const;
  Result<bool> bool_value(Arg a) const;
  Result<IntList> int_list(Arg a) const;  // an OptionalIntList's Null reads as empty
  // Int or Double (a Scalar argument; a Bool is refused here, so a kernel that
  // takes one reads value(a)); `is_integral` tells which it was.
  Result<double> scalar_value(Arg a, bool* is_integral) const;
  bool is_null(Arg a) const { return value(a).kind == ValueKind::Null; }
  const EValue& value(Arg a) const { return *args_[a.index]; }

  // A value-initialised T in the method arena, alive as long as the method;
  // run reads it back through RunContext::state<T>(). T needs an
  // ETNS_TARGET_LAYOUT description: the arena counts its Arm target size too.
  template <typename T>
  Result<T*> make_state() {
    Result<T*> memory = method_arena_.template allocate_array<T>(1);
    if (!memory.ok()) return memory.error();
    T* state = new (*memory) T();
    state_ = state;
    return state;
  }

  // Declares the scratch bytes run needs (16-byte aligned, fresh every call).
  void request_scratch(size_t size_bytes) { scratch_bytes_ = size_bytes; }

  const void* state() const { return state_; }
  size_t scratch_bytes() const { return scratch_bytes_; }

 private:
  Result<const EValue*> expect(Arg a, ValueKind kind) const;
  Error check_tensor(const ArgSpec& spec, const Tensor& t) const;

  const char* instruction_id_;
  const char* operator_name_;  // as the program spells it (an alias may share a contract)
  const OperatorContract& contract_;
  Span<EValue* const> args_;
  Arena& method_arena_;
  const void* state_ = nullptr;
  size_t scratch_bytes_ = 0;
};

// Handed to a kernel's run on every execution.
struct RunContext {
  Span<EValue* const> args;  // as in prepare, return slot last
  const void* prepared_state = nullptr;
  Span<uint8_t> scratch;

  template <typename T>
  const T& state() const {
    return *static_cast<const T*>(prepared_state);
  }
  Tensor& tensor(Arg a) const { return args[a.index]->tensor; }
  // An optional tensor argument that holds a tensor (not Null).
  bool has(Arg a) const { return args[a.index]->kind == ValueKind::Tensor; }
  // Its data, or nullptr for Null.
  template <typename T>
  T* data_or_null(Arg a) const {
    return has(a) ? args[a.index]->tensor.template data_as<T>() : nullptr;
  }
};

using PrepareFn = Error (*)(PrepareContext& context);
using RunFn = Error (*)(const RunContext& context);

// One registry row: binds a PTE operator name to its kernel and its contract.
struct KernelEntry {
  const char* name;  // exact PTE key, "cortex_m::quantized_mul.out" (usually contract->name)
  const OperatorContract* contract;
  PrepareFn prepare;
  RunFn run;

  // Schema arguments including out (programs add a return slot).
  uint8_t argument_count() const { return contract->count; }
};
// The usual row: the operator under its contract's name.
constexpr KernelEntry kernel_entry(const OperatorContract& contract, PrepareFn prepare, RunFn run) {
  return KernelEntry{contract.name, &contract, prepare, run};
}

// A provider: the operators one build can run.
struct KernelRegistry {
  const char* provider;  // "arm", "ns"
  Span<const KernelEntry> entries;

  const KernelEntry* find(const char* name) const;
};

}  // namespace etns::runtime
