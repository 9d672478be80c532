#include "tools/writers/program/memory_planner.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "tests/support/shared_data.h"
#include "tools/common/failure.h"
#include "tools/writers/program/program_test_util.h"
#include "tools/writers/program/pte_writer.h"

namespace etns::tools {
namespace {

// Every pair of buffers live at once occupies disjoint bytes, every offset is
// aligned, and everything fits the arena.
void expect_valid(const std::vector<Lifetime>& lifetimes, const MemoryPlan& plan,
                  uint64_t alignment) {
  ASSERT_EQ(plan.offsets.size(), lifetimes.size());
  for (size_t a = 0; a < lifetimes.size(); ++a) {
    EXPECT_EQ(plan.offsets[a] % alignment, 0u) << "buffer " << a;
    EXPECT_LE(plan.offsets[a] + lifetimes[a].size_bytes, plan.arena_bytes) << "buffer " << a;
    for (size_t b = a + 1; b < lifetimes.size(); ++b) {
      const bool same_time =
          lifetimes[a].first <= lifetimes[b].last && lifetimes[b].first <= lifetimes[a].last;
      const bool same_bytes = plan.offsets[a] < plan.offsets[b] + lifetimes[b].size_bytes &&
                              plan.offsets[b] < plan.offsets[a] + lifetimes[a].size_bytes;
      EXPECT_FALSE(same_time && same_bytes) << "buffers " << a << " and " << b;
    }
  }
  EXPECT_GE(plan.arena_bytes, plan.lower_bound_bytes);
}

TEST(PlanMemory, DisjointLifetimesShareOffsetZero) {
  const std::vector<Lifetime> lifetimes = {{100, -1, 0}, {40, 1, 1}, {64, 2, 3}};
  const MemoryPlan plan = plan_memory(lifetimes);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(plan.arena_bytes, 112u);  // 100 rounded up to 16
  EXPECT_EQ(plan.lower_bound_bytes, 100u);
}

TEST(PlanMemory, LargestFirstAtTheLowestOffsetThatFits) {
  // A [0,1] 100 B, B [1,2] 50 B, C [2,3] 30 B. A at 0; B overlaps A in time:
  // at 112 (100 aligned up); C overlaps only B, fits below it at 0.
  const std::vector<Lifetime> lifetimes = {{100, 0, 1}, {50, 1, 2}, {30, 2, 3}};
  const MemoryPlan plan = plan_memory(lifetimes);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 112, 0}));
  EXPECT_EQ(plan.arena_bytes, 176u);       // 162 rounded up
  EXPECT_EQ(plan.lower_bound_bytes, 150u);  // A + B at instruction 1
  expect_valid(lifetimes, plan, 16);

  // Without alignment the same plan is tight.
  const MemoryPlan tight = plan_memory(lifetimes, 1);
  EXPECT_EQ(tight.offsets, (std::vector<uint64_t>{0, 100, 0}));
  EXPECT_EQ(tight.arena_bytes, 150u);
  EXPECT_EQ(tight.lower_bound_bytes, 150u);
  // 64-byte alignment.
  const MemoryPlan wide = plan_memory(lifetimes, 64);
  EXPECT_EQ(wide.offsets, (std::vector<uint64_t>{0, 128, 0}));
  EXPECT_EQ(wide.arena_bytes, 192u);
}

TEST(PlanMemory, FillsAGapBetweenPlacedBuffers) {
  // Two 64 B buffers live throughout, placed at 0 and 64; a third live only
  // at the start frees [64, 128) after position 0... arranged so a small
  // buffer fits in a gap: P [0,4] 64 B at 0, Q [0,0] 64 B at 64, R [0,4] 64 B
  // at 128; S [2,3] 48 B overlaps P and R but not Q: it goes into Q's bytes.
  const std::vector<Lifetime> lifetimes = {{64, 0, 4}, {64, 0, 0}, {64, 0, 4}, {48, 2, 3}};
  const MemoryPlan plan = plan_memory(lifetimes);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 64, 128, 64}));
  EXPECT_EQ(plan.arena_bytes, 192u);
  EXPECT_EQ(plan.lower_bound_bytes, 192u);
  expect_valid(lifetimes, plan, 16);
}

TEST(PlanMemory, TiesGoToTheEarlierLifetimeAndZeroBytesCostNothing) {
  const std::vector<Lifetime> lifetimes = {{32, 5, 6}, {0, 0, 9}, {32, 0, 6}};
  const MemoryPlan plan = plan_memory(lifetimes);
  // Equal sizes: the one starting at 0 is placed first, at 0.
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{32, 0, 0}));
  EXPECT_EQ(plan.arena_bytes, 64u);
  EXPECT_EQ(plan.lower_bound_bytes, 64u);
  EXPECT_EQ(plan_memory({}).arena_bytes, 0u);
}

TEST(PlanMemory, RefusesBadInput) {
  EXPECT_THROW(plan_memory({{16, 0, 1}}, 0), Failure);
  try {
    plan_memory({{16, 0, 1}, {16, 3, 2}});
    ADD_FAILURE() << "no failure";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "lifetime 1 starts at 3 after it ends at 2");
  }
}

TEST(PlanMemory, RandomLifetimesGiveValidPlans) {
  uint64_t state = 20260819;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (int round = 0; round < 200; ++round) {
    std::vector<Lifetime> lifetimes(1 + next(20));
    for (Lifetime& l : lifetimes) {
      l.size_bytes = next(4) == 0 ? 0 : 1 + next(5000);
      l.first = static_cast<int64_t>(next(12)) - 1;
      l.last = l.first + static_cast<int64_t>(next(6));
    }
    const uint64_t alignment = uint64_t{1} << next(7);
    const MemoryPlan plan = plan_memory(lifetimes, alignment);
    SCOPED_TRACE("round " + std::to_string(round));
    expect_valid(lifetimes, plan, alignment);
  }
}

// A hand-made model: input -> a -> (b, unused c) -> output.
ProgramModel chain_model() {
  ProgramModel m;
  auto planned = [](int32_t n) {
    ModelTensor t;
    t.dtype = runtime::ScalarType::Char;
    t.sizes = {n};
    t.dim_order = {0};
    return ModelValue::tensor_value(t);
  };
  const uint32_t op = m.add_operator("cortex_m::minimum", "out");
  const int32_t in = m.add_value(planned(64));
  const int32_t dead_int = m.add_value(ModelValue::integer(9));
  const int32_t a = m.add_value(planned(32));
  const int32_t c = m.add_value(planned(1000));  // named by nothing
  const int32_t b = m.add_value(planned(16));
  const int32_t one = m.add_value(ModelValue::integer(1));
  const int32_t list = m.add_value(ModelValue::int_list({one, one}));
  const int32_t out = m.add_value(planned(64));
  (void)dead_int;
  (void)c;
  m.inputs = {in};
  m.outputs = {out};
  m.instructions.push_back({op, {in, in, a, a}});
  m.instructions.push_back({op, {a, list, b, b}});
  m.instructions.push_back({op, {b, b, out, out}});
  return m;
}

TEST(TensorLifetimes, FromWriterToLastReaderInputsAndOutputsToTheEnds) {
  const std::vector<TensorLifetime> lifetimes = tensor_lifetimes(chain_model());
  ASSERT_EQ(lifetimes.size(), 4u);  // value 3 is named by nothing
  EXPECT_EQ(lifetimes[0].value_index, 0u);
  EXPECT_EQ(lifetimes[0].lifetime.first, -1);
  EXPECT_EQ(lifetimes[0].lifetime.last, 0);
  EXPECT_EQ(lifetimes[1].value_index, 2u);
  EXPECT_EQ(lifetimes[1].lifetime.first, 0);
  EXPECT_EQ(lifetimes[1].lifetime.last, 1);
  EXPECT_EQ(lifetimes[2].value_index, 4u);
  EXPECT_EQ(lifetimes[2].lifetime.first, 1);
  EXPECT_EQ(lifetimes[2].lifetime.last, 2);
  EXPECT_EQ(lifetimes[3].value_index, 7u);
  EXPECT_EQ(lifetimes[3].lifetime.first, 2);
  EXPECT_EQ(lifetimes[3].lifetime.last, 3);  // program end
  EXPECT_EQ(lifetimes[3].lifetime.size_bytes, 64u);
}

TEST(ReplanMemory, DropsUnusedValuesAndRenumbers) {
  ProgramModel m = chain_model();
  const ReplanReport report = replan_memory(m);
  EXPECT_EQ(report.dropped_values, 2u);  // the Int 9 and the unnamed tensor
  ASSERT_EQ(m.values.size(), 6u);
  EXPECT_EQ(m.inputs, std::vector<int32_t>{0});
  EXPECT_EQ(m.outputs, std::vector<int32_t>{5});
  EXPECT_EQ(m.instructions[0].args, (std::vector<int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(m.instructions[1].args, (std::vector<int32_t>{1, 4, 2, 2}));
  EXPECT_EQ(m.instructions[2].args, (std::vector<int32_t>{2, 2, 5, 5}));
  EXPECT_EQ(m.values[4].items, (std::vector<int64_t>{3, 3}));  // the IntList keeps its Int
  EXPECT_EQ(m.values[3].int_value, 1);
  // in 64 [-1,0], a 32 [0,1], b 16 [1,2], out 64 [2,3]. Largest first puts
  // in and out at 0, a at 64, b at 96: 112 bytes. Program order does better
  // and wins: in at 0, a at 64, b at 0 (in is dead), out at 16 (clear of b):
  // 96 bytes, the lower bound.
  EXPECT_EQ(m.values[0].tensor.offset, 0u);
  EXPECT_EQ(m.values[1].tensor.offset, 64u);
  EXPECT_EQ(m.values[2].tensor.offset, 0u);
  EXPECT_EQ(m.values[5].tensor.offset, 16u);
  EXPECT_EQ(m.values[2].tensor.memory_id, 1u);
  EXPECT_EQ(report.planned_tensors, 4u);
  EXPECT_EQ(report.arena_bytes, 96u);
  EXPECT_EQ(report.lower_bound_bytes, 96u);  // in + a at instruction 0
  EXPECT_EQ(m.non_const_buffer_sizes, (std::vector<int64_t>{0, 96}));
  EXPECT_EQ(drop_unused_values(m), 0u);  // nothing left to drop
}

// The shared programs, re-planned: no larger than upstream's arena, no
// smaller than the lower bound, and bit-identical outputs.
TEST(ReplanMemory, SharedProgramsFitUpstreamArenasAndRunTheSame) {
  ETNS_REQUIRE_SHARED(shared);
  TemporaryDirectory dir("etns-export");
  for (const export_test::SharedProgram& p : export_test::kSharedPrograms) {
    SCOPED_TRACE(p.name);
    const std::string original_path = export_test::pte_path(shared, p);
    ProgramModel model = read_program(testing::read_file(original_path));
    const size_t values_before = model.values.size();
    const ReplanReport report = replan_memory(model);
    std::printf("[ plan     ] %-14s arena %6llu bytes (upstream %6llu, lower bound %6llu), "
                "%zu planned tensors, %zu of %zu values dropped\n",
                p.name, static_cast<unsigned long long>(report.arena_bytes),
                static_cast<unsigned long long>(p.upstream_arena),
                static_cast<unsigned long long>(report.lower_bound_bytes), report.planned_tensors,
                report.dropped_values, values_before);
    EXPECT_LE(report.arena_bytes, p.upstream_arena);
    EXPECT_GE(report.arena_bytes, report.lower_bound_bytes);

    std::vector<Lifetime> lifetimes;
    std::vector<uint64_t> offsets;
    for (const TensorLifetime& t : tensor_lifetimes(model)) {
      lifetimes.push_back(t.lifetime);
      offsets.push_back(model.values[t.value_index].tensor.offset);
    }
    MemoryPlan plan;
    plan.offsets = offsets;
    plan.arena_bytes = report.arena_bytes;
    plan.lower_bound_bytes = report.lower_bound_bytes;
    expect_valid(lifetimes, plan, kDefaultPlanAlignment);

    const std::string path =
        export_test::write_temp(dir, std::string(p.name) + ".replanned.pte", write_program(model));
    const std::vector<uint8_t> input = testing::read_file(export_test::input_path(shared, p));
    const std::vector<uint8_t> want = export_test::run_once(original_path, p.provider, input);
    const std::vector<uint8_t> got = export_test::run_once(path, p.provider, input);
    ASSERT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want) << "outputs differ";
  }
}

TEST(ReplanMemory, Tier1ArmLosesExactlyItsTenDeadConstants) {
  ETNS_REQUIRE_SHARED(shared);
  ProgramModel model = read_program(testing::read_file(shared + "/models/tier1/tier1_arm.pte"));
  size_t constants_before = 0;
  for (const ModelValue& v : model.values) {
    constants_before += v.kind == runtime::ValueKind::Tensor &&
                        v.tensor.storage == TensorStorage::Constant;
  }
  const ReplanReport report = replan_memory(model);
  size_t constants_after = 0;
  for (const ModelValue& v : model.values) {
    constants_after += v.kind == runtime::ValueKind::Tensor &&
                       v.tensor.storage == TensorStorage::Constant;
  }
  EXPECT_EQ(constants_before, 19u);  // v0..v17 and v18 (pte-format.md §6.1)
  EXPECT_EQ(constants_before - constants_after, 10u);
  EXPECT_GE(report.dropped_values, 10u);
}

}  // namespace
}  // namespace etns::tools
