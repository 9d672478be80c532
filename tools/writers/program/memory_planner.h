#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/writers/program/program_model.h"

namespace etns::tools {

constexpr uint64_t kDefaultPlanAlignment = 16;

// One buffer to place: its size and the positions where it is live,
// inclusive. Positions: -1 is program start (before the first instruction,
// where inputs are set), k is instruction k, and the instruction count is
// program end (where outputs are read).
struct Lifetime {
  uint64_t size_bytes = 0;
  int64_t first = 0;
  int64_t last = 0;
};

struct MemoryPlan {
  std::vector<uint64_t> offsets;  // one per Lifetime, in the same order; multiples of the alignment
  uint64_t arena_bytes = 0;       // highest end of any buffer, rounded up to the alignment
  uint64_t lower_bound_bytes = 0;  // the most bytes live at any one position: no plan does better
};

// Places every buffer in one arena so that buffers whose lifetimes overlap
// never share a byte. Greedy placement, each buffer at an aligned offset that
// clears the already-placed buffers it overlaps in time, tried in three orders
// (largest first; program order; longest-lived first) with first fit (lowest
// offset) and best fit (tightest gap); the smallest arena wins, the earliest
// try on a tie (largest first, first fit). Zero-byte buffers go at 0.
// Throws Failure for an alignment of 0 or a lifetime with first > last.
MemoryPlan plan_memory(const std::vector<Lifetime>& lifetimes,
                       uint64_t alignment = kDefaultPlanAlignment);

// The lifetime of every planned tensor of `model`, by value index, in value
// order: from the first instruction that names it (its writer), or program
// start for an input, to the last instruction that names it, or program end
// for an output. A tensor named through a TensorList counts as named by the
// instructions that name the list. An operator's state argument
// (runtime::ArgSpec::state) is live from program start to program end. A planned tensor no instruction names and
// that is neither input nor output gets no entry.
struct TensorLifetime {
  size_t value_index = 0;
  Lifetime lifetime;
};
std::vector<TensorLifetime> tensor_lifetimes(const ProgramModel& model);

// Removes every value no instruction, input or output uses (directly, or as
// an item of a list that is used) and renumbers the rest in order, rewriting
// arguments, inputs, outputs and list items. Returns how many were removed.
size_t drop_unused_values(ProgramModel& model);

struct ReplanReport {
  size_t dropped_values = 0;
  size_t planned_tensors = 0;
  uint64_t arena_bytes = 0;
  uint64_t lower_bound_bytes = 0;
};

// Drops unused values, then plans every planned tensor into one arena
// (memory_id 1, as ExecuTorch's files do) with plan_memory, and sets
// non_const_buffer_sizes to [0, arena] ([0] when nothing is planned).
// Constants and unplanned tensors are left alone.
ReplanReport replan_memory(ProgramModel& model, uint64_t alignment = kDefaultPlanAlignment);

}  // namespace etns::tools
