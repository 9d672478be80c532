#include "runtime/exec/budget.h"

#include "runtime/core/log.h"

namespace etns::runtime {

Error place_planned_buffers(const MethodMeta& meta, size_t planned_memory_bytes,
                            size_t offsets[kMaxPlannedBuffers]) {
  size_t used = 0;
  for (size_t k = 0; k < meta.planned_buffer_count; ++k) {
    const size_t bytes = meta.planned_buffer_bytes[k];
    const size_t free = planned_memory_bytes - used;
    ETNS_RETURN_IF(bytes > free, Error::OutOfMemory,
                   "planned buffer %zu: needs %zu bytes, %zu of the target's %zu bytes of planned "
                   "memory free",
                   k + 1, bytes, free, planned_memory_bytes);
    offsets[k] = used;
    // Rounding up cannot pass planned_memory_bytes unless it is unaligned;
    // then the next buffer simply finds no room.
    const size_t padded = (bytes + kPlannedBufferAlignment - 1) / kPlannedBufferAlignment * kPlannedBufferAlignment;
    used = padded > free ? planned_memory_bytes : used + padded;
  }
  return Error::Ok;
}

Error check_method_budget(const Method& method, const MethodBudget& budget) {
  ETNS_RETURN_IF(method.instruction_count() > budget.max_instructions, Error::NotSupported,
                 "the method has %zu instructions, the target runs at most %zu",
                 method.instruction_count(), budget.max_instructions);
  return Error::Ok;
}

}  // namespace etns::runtime
