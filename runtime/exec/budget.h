#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/exec/method.h"

namespace etns::runtime {

// What a target gives one method. The firmware runner and the host session
// check a program against the same numbers with the same functions, so a
// program one of them refuses the other refuses too, with the same line
// (docs/memory.md, "Limits").
struct MethodBudget {
  size_t method_arena_bytes = 0;     // in the target's layout (Arena's target capacity)
  size_t temporary_arena_bytes = 0;  // kernel scratch
  size_t planned_memory_bytes = 0;   // every planned buffer, laid out by place_planned_buffers
  size_t max_instructions = 0;       // instructions one method may have
};

// Planned buffers sit one after another, each starting at this alignment.
constexpr size_t kPlannedBufferAlignment = 16;

// Lays the planned buffers of `meta` one after another in planned memory of
// `planned_memory_bytes`: offsets[k] is where buffer k + 1 starts. Errors:
// OutOfMemory, logging "planned buffer 1: needs 8589934592 bytes, 4194304 of
// the target's 4194304 bytes of planned memory free".
Error place_planned_buffers(const MethodMeta& meta, size_t planned_memory_bytes,
                            size_t offsets[kMaxPlannedBuffers]);

// Checks a loaded method against the rest of the budget (the arenas are
// checked as they fill). Errors: NotSupported naming the instruction count.
Error check_method_budget(const Method& method, const MethodBudget& budget);

}  // namespace etns::runtime
