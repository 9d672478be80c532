#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"

namespace etns::runtime {

// The planned memory the QEMU mps3-an547 runner gives one method (the port's
// SRAM2), defined here once: the firmware runner budgets it, the host session
// and the fuzz harness budget the same, and the firmware link fails when the
// port's planned-memory region no longer holds it (the runner publishes it as
// the symbol etns_planned_memory_budget; an547.ld asserts it fits).
constexpr size_t kPlannedMemoryBytes = size_t{4} * 1024 * 1024;

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

// The planned memory place_planned_buffers needs for `meta`: where its last
// buffer ends, every buffer before it padded to kPlannedBufferAlignment (a
// buffer of no bytes takes none). The smallest planned_memory_bytes that
// place_planned_buffers accepts; more than the plain sum of the sizes when a
// buffer other than the last is not a multiple of 16.
uint64_t planned_memory_needed(const MethodMeta& meta);

// Checks a loaded method against the rest of the budget (the arenas are
// checked as they fill). Errors: NotSupported naming the instruction count.
Error check_method_budget(const Method& method, const MethodBudget& budget);

// Where a target's memory for one method comes from; the caller owns it all
// and it must outlive the Method. The arenas hold no more than the budget
// gives (their capacity is in the target's layout). The planned buffers
// either lie at place_planned_buffers' offsets in `planned_region` (a device's
// one region of at least the budget's planned memory), or, when
// `allocate_planned` is set, each comes from it at its own size (the host
// allocates them one by one, once the plan fits); it must return `bytes`
// bytes, 16-byte aligned, or an empty span, which fails the load.
struct TargetMemory {
  Arena* method = nullptr;
  Arena* temporary = nullptr;
  Span<uint8_t> planned_region;
  Span<uint8_t> (*allocate_planned)(void* user, size_t index, size_t bytes) = nullptr;
  void* user = nullptr;
};

// A verified program and one method of it, loaded within a budget. The
// method points into the program's file and into the TargetMemory.
struct BudgetedMethod {
  Program program;
  Method method;
};

// The one load sequence of every target: the firmware runner, the host
// session and the fuzz harness call it, so they refuse the same programs with
// the same line. In order, each step's line logged where it fails:
//   1. Program::load verifies `file`;
//   2. method_meta reads method `name`'s plan and place_planned_buffers lays
//      it out in the budget's planned memory, before any buffer is handed out;
//   3. Method::load binds it to `registry`'s kernels and prepares them in the
//      arenas (`registry` null: Method::load_unbound, for inspection, with no
//      planned memory handed out);
//   4. check_method_budget checks the rest of the budget.
// Errors: each step's; InvalidArgument when `memory` does not fit `budget`.
Result<BudgetedMethod> load_within_budget(Span<const uint8_t> file, const char* name,
                                          const KernelRegistry* registry, const MethodBudget& budget,
                                          const TargetMemory& memory);

}  // namespace etns::runtime
