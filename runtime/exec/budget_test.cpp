#include "runtime/exec/budget.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "kernels/registry.h"
#include "runtime/pte/program_generated.h"
#include "tests/support/log_capture.h"
#include "tests/support/shared_data.h"

namespace etns::runtime {
namespace {

using testing::LogCapture;

MethodMeta meta_of(std::initializer_list<size_t> sizes) {
  MethodMeta meta;
  for (size_t bytes : sizes) meta.planned_buffer_bytes[meta.planned_buffer_count++] = bytes;
  return meta;
}

// ---------------------------------------------------------------------------
// The layout: one rule, whether placing or sizing.

TEST(PlacePlannedBuffers, EachBufferStartsSixteenByteAligned) {
  const MethodMeta meta = meta_of({24, 8, 100});
  size_t offsets[kMaxPlannedBuffers] = {};
  ASSERT_EQ(place_planned_buffers(meta, 1024, offsets), Error::Ok);
  EXPECT_EQ(offsets[0], 0u);
  EXPECT_EQ(offsets[1], 32u);
  EXPECT_EQ(offsets[2], 48u);
  // 148 bytes, where the plain sum is 132.
  EXPECT_EQ(planned_memory_needed(meta), 148u);
  EXPECT_EQ(place_planned_buffers(meta, 148, offsets), Error::Ok);
  LogCapture log;
  EXPECT_EQ(place_planned_buffers(meta, 147, offsets), Error::OutOfMemory);
  EXPECT_EQ(log.text(), "planned buffer 3: needs 100 bytes, 99 of the target's 147 bytes of planned memory free\n");
}

TEST(PlacePlannedBuffers, PaddingPastTheEndLeavesNoRoom) {
  LogCapture log;
  size_t offsets[kMaxPlannedBuffers] = {};
  EXPECT_EQ(place_planned_buffers(meta_of({8, 8}), 16, offsets), Error::OutOfMemory);
  EXPECT_EQ(log.text(), "planned buffer 2: needs 8 bytes, 0 of the target's 16 bytes of planned memory free\n");
  // A buffer of no bytes fits anywhere, at the end at the latest.
  ASSERT_EQ(place_planned_buffers(meta_of({8, 0}), 8, offsets), Error::Ok);
  EXPECT_EQ(offsets[1], 8u);
  EXPECT_EQ(planned_memory_needed(meta_of({8, 0})), 8u);
  EXPECT_EQ(planned_memory_needed(meta_of({8, 0, 8})), 24u);
  EXPECT_EQ(planned_memory_needed(meta_of({})), 0u);
}

// planned_memory_needed is exactly the least memory place_planned_buffers accepts.
TEST(PlacePlannedBuffers, NeededIsTheLeastMemoryThatPlacementAccepts) {
  LogCapture log;  // the refusals' lines
  const std::initializer_list<size_t> plans[] = {
      {1}, {16}, {17}, {0, 1}, {1, 0}, {15, 1, 33}, {81920}, {81928, 8}, {4194304}, {3, 5, 7, 11, 13, 17, 19, 23},
  };
  for (const auto& sizes : plans) {
    const MethodMeta meta = meta_of(sizes);
    const uint64_t needed = planned_memory_needed(meta);
    SCOPED_TRACE(needed);
    size_t offsets[kMaxPlannedBuffers] = {};
    EXPECT_EQ(place_planned_buffers(meta, static_cast<size_t>(needed), offsets), Error::Ok);
    EXPECT_EQ(place_planned_buffers(meta, static_cast<size_t>(needed - 1), offsets), Error::OutOfMemory);
    for (size_t k = 0; k < meta.planned_buffer_count; ++k) {
      if (meta.planned_buffer_bytes[k] == 0) continue;  // fits anywhere
      EXPECT_EQ(offsets[k] % kPlannedBufferAlignment, 0u) << "buffer " << k + 1;
      EXPECT_LE(offsets[k] + meta.planned_buffer_bytes[k], needed) << "buffer " << k + 1;
    }
  }
}

TEST(PlacePlannedBuffers, SizesNoTargetHoldsSaturateRatherThanWrap) {
  const MethodMeta meta = meta_of({SIZE_MAX, SIZE_MAX});
  EXPECT_GE(planned_memory_needed(meta), uint64_t{SIZE_MAX});
  LogCapture log;
  size_t offsets[kMaxPlannedBuffers] = {};
  EXPECT_EQ(place_planned_buffers(meta, kPlannedMemoryBytes, offsets), Error::OutOfMemory);
}

// ---------------------------------------------------------------------------
// load_within_budget: the sequence every target runs.

constexpr size_t kRunnerMethodArena = 64 * 1024;
constexpr size_t kRunnerTemporaryArena = 32 * 1024;

MethodBudget runner_budget() {
  MethodBudget budget;
  budget.method_arena_bytes = kRunnerMethodArena;
  budget.temporary_arena_bytes = kRunnerTemporaryArena;
  budget.planned_memory_bytes = kPlannedMemoryBytes;
  budget.max_instructions = 1022;
  return budget;
}

struct alignas(16) Block {
  uint8_t bytes[16];
};

// A target's memory: arenas and one planned region (the firmware's way), or a
// host-style allocator that records what it was asked for.
struct Target {
  explicit Target(const MethodBudget& budget = runner_budget())
      : budget(budget),
        method_memory(budget.method_arena_bytes * 4 / sizeof(Block) + 1),
        temporary_memory(budget.temporary_arena_bytes / sizeof(Block) + 1),
        region(budget.planned_memory_bytes / sizeof(Block) + 1),
        method_arena("method", bytes_of(method_memory), budget.method_arena_bytes),
        temporary_arena("temporary", bytes_of(temporary_memory), budget.temporary_arena_bytes) {
    memory.method = &method_arena;
    memory.temporary = &temporary_arena;
    memory.planned_region = Span<uint8_t>(bytes_of(region).data(), budget.planned_memory_bytes);
  }

  static Span<uint8_t> bytes_of(std::vector<Block>& blocks) {
    return Span<uint8_t>(blocks.front().bytes, blocks.size() * sizeof(Block));
  }

  // Hands planned buffers out one by one, as the host session does.
  void allocate_each_buffer() {
    memory.allocate_planned = [](void* user, size_t index, size_t bytes) {
      auto& target = *static_cast<Target*>(user);
      target.requests.push_back({index, bytes});
      if (target.refuse_planned) return Span<uint8_t>();
      target.buffers.emplace_back(bytes / sizeof(Block) + 1);
      return Span<uint8_t>(target.buffers.back().front().bytes, bytes);
    };
    memory.user = this;
  }

  Result<BudgetedMethod> load(const std::vector<uint8_t>& file, const KernelRegistry* registry) {
    method_arena.reset();
    temporary_arena.reset();
    return load_within_budget(Span<const uint8_t>(file.data(), file.size()), "forward", registry, budget, memory);
  }

  bool in_region(const void* data) const {
    const auto* byte = static_cast<const uint8_t*>(data);
    return byte >= memory.planned_region.data() && byte < memory.planned_region.end();
  }

  MethodBudget budget;
  std::vector<Block> method_memory;
  std::vector<Block> temporary_memory;
  std::vector<Block> region;
  Arena method_arena;
  Arena temporary_arena;
  TargetMemory memory;
  struct Request {
    size_t index;
    size_t bytes;
  };
  std::vector<Request> requests;
  std::vector<std::vector<Block>> buffers;
  bool refuse_planned = false;
};

struct Tier1Program {
  const char* file;
  const char* provider;
  size_t instructions;
  size_t planned_bytes;
};

constexpr Tier1Program kTier1[] = {
    {"tier1_arm.pte", "arm", 12, 196608},
    {"tier1_ns.pte", "ns", 8, 98304},
    {"tier1mean_arm.pte", "arm", 5, 81920},
    {"tier1mean_ns.pte", "ns", 3, 81920},
};

std::vector<uint8_t> tier1_file(const std::string& shared, const char* file) {
  return testing::read_file(shared + "/models/tier1/" + file);
}

TEST(LoadWithinBudget, LoadsEveryTier1ProgramIntoTheTargetsRegion) {
  ETNS_REQUIRE_SHARED(shared);
  for (const Tier1Program& p : kTier1) {
    SCOPED_TRACE(p.file);
    const std::vector<uint8_t> file = tier1_file(shared, p.file);  // outlives the program
    Target target;
    Result<BudgetedMethod> loaded = target.load(file, kernels::find_registry(p.provider));
    ASSERT_TRUE(loaded.ok()) << to_string(loaded.error());
    const Method& method = loaded->method;
    EXPECT_EQ(method.instruction_count(), p.instructions);
    ASSERT_EQ(method.meta().planned_buffer_count, 1u);
    EXPECT_EQ(method.meta().planned_buffer_bytes[0], p.planned_bytes);
    EXPECT_EQ(loaded->program.method_count(), 1u);
    // Buffer 1 starts the region; every planned tensor lies inside it.
    EXPECT_EQ(method.input(0).data, target.memory.planned_region.data());
    for (size_t i = 0; i < method.value_count(); ++i) {
      const EValue& value = method.value(i);
      if (value.kind != ValueKind::Tensor || value.tensor.is_constant || value.tensor.nbytes == 0) continue;
      EXPECT_TRUE(target.in_region(value.tensor.data)) << "value " << i;
    }
    EXPECT_GT(target.method_arena.used_bytes(), 0u);
  }
}

TEST(LoadWithinBudget, AnAllocatorIsAskedForEachBufferOnlyOnceThePlanFits) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> file = tier1_file(shared, "tier1mean_arm.pte");
  Target target;
  target.allocate_each_buffer();
  Result<BudgetedMethod> loaded = target.load(file, &kernels::registry_arm());
  ASSERT_TRUE(loaded.ok()) << to_string(loaded.error());
  ASSERT_EQ(target.requests.size(), 1u);
  EXPECT_EQ(target.requests[0].index, 0u);
  EXPECT_EQ(target.requests[0].bytes, 81920u);
  EXPECT_EQ(loaded->method.input(0).data, target.buffers[0].front().bytes);

  // Unbound (inspection): the plan is still checked, but no byte is handed out.
  target.requests.clear();
  Result<BudgetedMethod> unbound = target.load(file, nullptr);
  ASSERT_TRUE(unbound.ok()) << to_string(unbound.error());
  EXPECT_TRUE(target.requests.empty());
  EXPECT_EQ(unbound->method.input(0).data, nullptr);

  // A buffer the allocator cannot give fails the load, naming it.
  target.refuse_planned = true;
  LogCapture log;
  Result<BudgetedMethod> refused = target.load(file, &kernels::registry_arm());
  EXPECT_EQ(refused.error(), Error::OutOfMemory);
  EXPECT_EQ(log.text(), "planned buffer 1: need 81920 bytes, 0 given\n");
}

// Each step refuses with its own line, in order, before the next one runs.
TEST(LoadWithinBudget, EachStepRefusesWithItsOwnLine) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> file = tier1_file(shared, "tier1mean_arm.pte");
  {
    SCOPED_TRACE("1. verification");
    Target target;
    LogCapture log;
    const std::vector<uint8_t> truncated(file.begin(), file.begin() + 64);
    EXPECT_EQ(target.load(truncated, &kernels::registry_arm()).error(), Error::InvalidProgram);
    EXPECT_FALSE(log.text().empty());
    EXPECT_EQ(target.method_arena.used_bytes(), 0u);
  }
  {
    SCOPED_TRACE("2. placement, before any buffer is handed out");
    std::vector<uint8_t> huge = file;
    executorch_flatbuffer::GetMutableProgram(huge.data())
        ->mutable_execution_plan()
        ->GetMutableObject(0)
        ->mutable_non_const_buffer_sizes()
        ->Mutate(1, static_cast<int64_t>(kPlannedMemoryBytes + 16));
    Target target;
    target.allocate_each_buffer();
    LogCapture log;
    EXPECT_EQ(target.load(huge, &kernels::registry_arm()).error(), Error::OutOfMemory);
    EXPECT_EQ(log.text(),
              "planned buffer 1: needs 4194320 bytes, 4194304 of the target's 4194304 bytes of planned memory free\n");
    EXPECT_TRUE(target.requests.empty());
    EXPECT_EQ(target.method_arena.used_bytes(), 0u);
  }
  {
    SCOPED_TRACE("3. binding");
    Target target;
    LogCapture log;
    EXPECT_EQ(target.load(tier1_file(shared, "tier1mean_ns.pte"), &kernels::registry_arm()).error(),
              Error::OperatorMissing);
    EXPECT_EQ(log.text().rfind("missing operator [1] cortex_m_ns::quantized_mean.out\n", 0), 0u) << log.text();
  }
  {
    SCOPED_TRACE("3. the method arena, counted in the target's layout");
    MethodBudget budget = runner_budget();
    budget.method_arena_bytes = 256;
    Target target(budget);
    LogCapture log;
    EXPECT_EQ(target.load(file, &kernels::registry_arm()).error(), Error::OutOfMemory);
    EXPECT_EQ(log.text().rfind("arena 'method': need ", 0), 0u) << log.text();
  }
  {
    SCOPED_TRACE("4. the rest of the budget");
    MethodBudget budget = runner_budget();
    budget.max_instructions = 2;
    Target target(budget);
    LogCapture log;
    EXPECT_EQ(target.load(file, &kernels::registry_arm()).error(), Error::NotSupported);
    EXPECT_EQ(log.text(), "the method has 5 instructions, the target runs at most 2\n");
  }
}

// Memory that is not what the budget says would let one target accept what
// another refuses: it is refused before anything is read.
TEST(LoadWithinBudget, MemoryThatDoesNotMatchTheBudgetIsRefused) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> file = tier1_file(shared, "tier1mean_arm.pte");
  {
    Target target;
    target.memory.planned_region = target.memory.planned_region.subspan(0, kPlannedMemoryBytes - 16);
    LogCapture log;
    EXPECT_EQ(target.load(file, &kernels::registry_arm()).error(), Error::InvalidArgument);
    EXPECT_EQ(log.text(), "planned memory of 4194288 bytes, the budget plans 4194304\n");
  }
  {
    Target target;
    target.memory.planned_region = Span<uint8_t>(target.memory.planned_region.data() + 8, kPlannedMemoryBytes);
    LogCapture log;
    EXPECT_EQ(target.load(file, &kernels::registry_arm()).error(), Error::InvalidArgument);
    EXPECT_EQ(log.text(), "planned memory does not start 16-byte aligned\n");
  }
  {
    Target target;
    Arena larger("method", Target::bytes_of(target.method_memory), kRunnerMethodArena + 1);
    target.memory.method = &larger;
    LogCapture log;
    EXPECT_EQ(target.load(file, &kernels::registry_arm()).error(), Error::InvalidArgument);
    EXPECT_EQ(log.text(), "arenas of 65537 and 32768 bytes, the budget gives 65536 and 32768\n");
  }
  {
    Target target;
    target.memory.temporary = nullptr;
    LogCapture log;
    EXPECT_EQ(target.load(file, &kernels::registry_arm()).error(), Error::InvalidArgument);
    EXPECT_EQ(log.text(), "TargetMemory needs a method and a temporary arena\n");
  }
}

}  // namespace
}  // namespace etns::runtime
