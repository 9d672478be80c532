#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"

// What a kernel is to the runtime. Kernels live in kernels/ and implement this;
// the runtime binds them at load through a provider's registry.
namespace etns::runtime {

// Handed to a kernel's prepare, once per instruction, at method load. prepare
// validates every argument (dtype, rank, layout, quantisation parameters) and
// stores what run needs, so run trusts its inputs and cannot fail for memory.
class PrepareContext {
 public:
  PrepareContext(const char* instruction_id, const char* operator_name,
                 Span<EValue* const> args, Arena& method_arena)
      : instruction_id_(instruction_id),
        operator_name_(operator_name),
        args_(args),
        method_arena_(method_arena) {}

  const char* instruction_id() const { return instruction_id_; }  // "c0i5"
  const char* operator_name() const { return operator_name_; }    // "cortex_m::minimum.out"
  // Schema arguments including `out`; the program's extra return slot is not counted.
  size_t argument_count() const { return args_.size() - 1; }
  EValue& argument(size_t i) const { return *args_[i]; }

  // Logs "c0i5 cortex_m::minimum.out: <message>" and returns `code`.
  Error fail(Error code, const char* format, ...) const __attribute__((format(printf, 3, 4)));

  // Typed readers. A wrong kind logs "c0i5 <op>: argument 2 (shift) is Double,
  // expected Int" and returns InvalidProgram.
  Result<Tensor*> tensor(size_t i, const char* name) const;
  Result<Tensor*> optional_tensor(size_t i, const char* name) const;  // nullptr for Null
  Result<int64_t> int_value(size_t i, const char* name) const;
  Result<double> double_value(size_t i, const char* name) const;
  Result<bool> bool_value(size_t i, const char* name) const;
  Result<IntList> int_list(size_t i, const char* name) const;
  // Int or Double (a Scalar argument); `is_integral` tells which it was.
  Result<double> scalar_value(size_t i, const char* name, bool* is_integral) const;
  bool is_null(size_t i) const { return args_[i]->kind == ValueKind::Null; }

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
  Result<EValue*> expect(size_t i, ValueKind kind, const char* name) const;

  const char* instruction_id_;
  const char* operator_name_;
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
  Tensor& tensor(size_t i) const { return args[i]->tensor; }
};

using PrepareFn = Error (*)(PrepareContext& context);
using RunFn = Error (*)(const RunContext& context);

// One registry row: binds a PTE operator name to its kernel.
struct KernelEntry {
  const char* name;        // exact PTE key, "cortex_m::quantized_mul.out"
  uint8_t argument_count;  // schema arguments including out (programs add a return slot)
  PrepareFn prepare;
  RunFn run;
};

// A provider: the operators one build can run.
struct KernelRegistry {
  const char* provider;  // "arm", "ns"
  Span<const KernelEntry> entries;

  const KernelEntry* find(const char* name) const;
};

}  // namespace etns::runtime
