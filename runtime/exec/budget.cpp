#include "runtime/exec/budget.h"

#include <cstdint>

#include "runtime/core/log.h"

namespace etns::runtime {
namespace {

// The runtime's one layout of planned buffers: each starts where the one
// before it ends, rounded up to kPlannedBufferAlignment. Writes where each
// starts and returns where the last one holding bytes ends (saturating: no
// target holds 2^64 bytes). A buffer of no bytes takes no memory.
uint64_t lay_out_planned_buffers(const MethodMeta& meta, uint64_t starts[kMaxPlannedBuffers]) {
  constexpr uint64_t kAlignment = kPlannedBufferAlignment;
  uint64_t next = 0;
  uint64_t end = 0;
  for (size_t k = 0; k < meta.planned_buffer_count; ++k) {
    starts[k] = next;
    const uint64_t bytes = meta.planned_buffer_bytes[k];
    if (bytes == 0) continue;
    end = bytes > UINT64_MAX - next ? UINT64_MAX : next + bytes;
    next = end > UINT64_MAX - (kAlignment - 1) ? UINT64_MAX : (end + kAlignment - 1) / kAlignment * kAlignment;
  }
  return end;
}

// The arenas and the planned memory must be what the budget says, or the
// host would accept what the device refuses.
Error check_target_memory(const TargetMemory& memory, const MethodBudget& budget) {
  ETNS_RETURN_IF(memory.method == nullptr || memory.temporary == nullptr, Error::InvalidArgument,
                 "TargetMemory needs a method and a temporary arena");
  ETNS_RETURN_IF(memory.method->capacity_bytes() > budget.method_arena_bytes ||
                     memory.temporary->capacity_bytes() > budget.temporary_arena_bytes,
                 Error::InvalidArgument, "arenas of %zu and %zu bytes, the budget gives %zu and %zu",
                 memory.method->capacity_bytes(), memory.temporary->capacity_bytes(), budget.method_arena_bytes,
                 budget.temporary_arena_bytes);
  if (memory.allocate_planned != nullptr) return Error::Ok;
  ETNS_RETURN_IF(memory.planned_region.size() < budget.planned_memory_bytes, Error::InvalidArgument,
                 "planned memory of %zu bytes, the budget plans %zu", memory.planned_region.size(),
                 budget.planned_memory_bytes);
  ETNS_RETURN_IF(reinterpret_cast<uintptr_t>(memory.planned_region.data()) % kPlannedBufferAlignment != 0,
                 Error::InvalidArgument, "planned memory does not start %zu-byte aligned", kPlannedBufferAlignment);
  return Error::Ok;
}

// Hands out each planned buffer once the plan fits the budget: at its offset
// in the region, or from the target's allocator (a short span fails
// Method::load's check, naming the buffer).
void hand_out_planned_buffers(const MethodMeta& meta, const size_t offsets[kMaxPlannedBuffers],
                              const TargetMemory& memory, Span<uint8_t> planned[kMaxPlannedBuffers]) {
  for (size_t k = 0; k < meta.planned_buffer_count; ++k) {
    const size_t bytes = meta.planned_buffer_bytes[k];
    planned[k] = memory.allocate_planned != nullptr ? memory.allocate_planned(memory.user, k, bytes)
                                                    : Span<uint8_t>(memory.planned_region.data() + offsets[k], bytes);
  }
}

}  // namespace

Error place_planned_buffers(const MethodMeta& meta, size_t planned_memory_bytes,
                            size_t offsets[kMaxPlannedBuffers]) {
  uint64_t starts[kMaxPlannedBuffers];
  lay_out_planned_buffers(meta, starts);
  for (size_t k = 0; k < meta.planned_buffer_count; ++k) {
    const size_t bytes = meta.planned_buffer_bytes[k];
    // A start past the end (the padding before it did not fit) leaves no
    // room; a buffer of no bytes still fits, at the end.
    const bool inside = starts[k] < planned_memory_bytes;
    const size_t free = inside ? planned_memory_bytes - static_cast<size_t>(starts[k]) : 0;
    ETNS_RETURN_IF(bytes > free, Error::OutOfMemory,
                   "planned buffer %zu: needs %zu bytes, %zu of the target's %zu bytes of planned "
                   "memory free",
                   k + 1, bytes, free, planned_memory_bytes);
    offsets[k] = inside ? static_cast<size_t>(starts[k]) : planned_memory_bytes;
  }
  return Error::Ok;
}

uint64_t planned_memory_needed(const MethodMeta& meta) {
  uint64_t starts[kMaxPlannedBuffers];
  return lay_out_planned_buffers(meta, starts);
}

Error check_method_budget(const Method& method, const MethodBudget& budget) {
  ETNS_RETURN_IF(method.instruction_count() > budget.max_instructions, Error::NotSupported,
                 "the method has %zu instructions, the target runs at most %zu",
                 method.instruction_count(), budget.max_instructions);
  return Error::Ok;
}

Result<BudgetedMethod> load_within_budget(Span<const uint8_t> file, const char* name,
                                          const KernelRegistry* registry, const MethodBudget& budget,
                                          const TargetMemory& memory) {
  ETNS_TRY(check_target_memory(memory, budget));
  ETNS_ASSIGN_OR_RETURN(const Program program, Program::load(file));
  // The device's rules before any planned byte is handed out: sizes come from the file.
  ETNS_ASSIGN_OR_RETURN(const MethodMeta meta, method_meta(program, name));
  size_t offsets[kMaxPlannedBuffers];
  ETNS_TRY(place_planned_buffers(meta, budget.planned_memory_bytes, offsets));

  MethodMemory method_memory;
  method_memory.method = memory.method;
  method_memory.temporary = memory.temporary;
  Span<uint8_t> planned[kMaxPlannedBuffers];
  // An unbound method (inspection) reads no planned byte: none is handed out.
  if (registry != nullptr) {
    hand_out_planned_buffers(meta, offsets, memory, planned);
    method_memory.planned = Span<Span<uint8_t>>(planned, meta.planned_buffer_count);
  }
  ETNS_ASSIGN_OR_RETURN(const Method method, registry != nullptr
                                                 ? Method::load(program, name, *registry, method_memory)
                                                 : Method::load_unbound(program, name, method_memory));
  ETNS_TRY(check_method_budget(method, budget));
  return BudgetedMethod{program, method};
}

}  // namespace etns::runtime
