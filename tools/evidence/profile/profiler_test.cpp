#include "tools/evidence/profile/profiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/shared_data.h"
#include "tools/common/sha256.h"
#include "tools/evidence/config/config_test_fixture.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"

namespace etns::tools {
namespace {

using namespace config_testing;  // NOLINT: the fixture

const Issue* find_issue(const ProfileResult& result, const std::string& code) {
  const auto found = std::find_if(result.issues.begin(), result.issues.end(),
                                  [&](const Issue& issue) { return issue.code == code; });
  return found == result.issues.end() ? nullptr : &*found;
}

// The configured planned arena must hold the buffers as the runtime places
// them (place_planned_buffers: each starting 16-byte aligned), not only their
// plain sum: buffers of 81,928 and 8 bytes sum to 81,936 but need 81,944.
TEST_F(ProfileConfigTest, PlannedArenaIsCheckedAgainstTheRuntimesPlacementNotThePlainSum) {
  ETNS_REQUIRE_SHARED(shared);
  ProgramModel model = read_program(testing::read_file(shared + "/models/tier1/tier1mean_arm.pte"));
  ASSERT_EQ(model.non_const_buffer_sizes, std::vector<int64_t>({0, 81920}));
  model.non_const_buffer_sizes = {0, 81928, 8};
  const std::vector<uint8_t> bytes = write_program(model);
  write("two_buffers.pte", std::string(bytes.begin(), bytes.end()));

  // input_size = 1 makes every run invalid before it starts: only the checks run.
  auto checked_with = [&](int64_t arena) {
    return run_profile(load("model:\n  path: two_buffers.pte\n",
                            {"engine.config.planned_arena_size=" + std::to_string(arena), "engine.config.input_size=1"}),
                       nullptr);
  };
  const ProfileResult plain_sum = checked_with(81936);
  ASSERT_NE(find_issue(plain_sum, "memory.input_buffer_too_small"), nullptr) << plain_sum.failure;
  const Issue* too_small = find_issue(plain_sum, "memory.planned_arena_too_small");
  ASSERT_NE(too_small, nullptr) << plain_sum.failure;
  EXPECT_EQ(too_small->message,
            "the planned arena is 81936 bytes, the program plans 81944 (2 buffers, each starting 16-byte aligned)");
  EXPECT_EQ(too_small->context["configured"], 81936);
  EXPECT_EQ(too_small->context["required"], 81944);
  EXPECT_EQ(plain_sum.planned_bytes, std::vector<size_t>({81928, 8}));

  const ProfileResult placed = checked_with(81944);
  ASSERT_NE(find_issue(placed, "memory.input_buffer_too_small"), nullptr) << placed.failure;
  EXPECT_EQ(find_issue(placed, "memory.planned_arena_too_small"), nullptr) << placed.failure;

  // One buffer needs no padding: its size is the whole need, and the line stays short.
  const std::vector<uint8_t> original = testing::read_file(shared + "/models/tier1/tier1mean_arm.pte");
  write("one_buffer.pte", std::string(original.begin(), original.end()));
  const ProfileResult one = run_profile(
      load("model:\n  path: one_buffer.pte\n  arena_size: 81919\n", {"engine.config.input_size=1"}), nullptr);
  const Issue* one_short = find_issue(one, "memory.planned_arena_too_small");
  ASSERT_NE(one_short, nullptr) << one.failure;
  EXPECT_EQ(one_short->message, "the planned arena is 81919 bytes, the program plans 81920");
}

// dscnn calls aten::view_copy.out: without engine.config.portable_ops the
// program's own set registers it, and the run is valid; a set from the config
// that leaves it out fails the load, naming it.
TEST_F(ProfileConfigTest, TheProgramsOwnPortableOperatorsAreTheDefault) {
  write("dscnn_arm.pte", exported_bytes("dscnn_arm.pte"));
  const std::string yaml = "model: {path: dscnn_arm.pte}\ntarget: {board: host}\nprofiling: {iterations: 2, warmup: 0}\n";
  const ProfileResult own = run_profile(load(yaml), nullptr);
  EXPECT_EQ(validity_of(own.issues), "valid") << own.failure;
  EXPECT_EQ(own.clean.size(), 2u);

  const ProfileResult left_out = run_profile(load(yaml, {"engine.config.portable_ops=[aten::sub.out]"}), nullptr);
  ASSERT_EQ(left_out.issues.size(), 1u) << left_out.failure;
  EXPECT_EQ(left_out.issues[0].code, "run.load_failed");
  EXPECT_EQ(left_out.issues[0].message,
            "missing operator aten::view_copy.out: the program calls it and engine.config.portable_ops leaves it out "
            "(drop the key to use the program's own set)");
  EXPECT_TRUE(left_out.clean.empty());
}

// Each input is recorded as the run saw it: the file's SHA-256, or zeros.
TEST_F(ProfileConfigTest, EachInputIsRecordedWithItsSha256OrZeros) {
  write("dscnn_arm.pte", exported_bytes("dscnn_arm.pte"));
  const std::string bytes = exported_bytes("dscnn.input.bin");
  write("dscnn.input.bin", bytes);
  const std::string yaml = "model: {path: dscnn_arm.pte}\ntarget: {board: host}\nprofiling: {iterations: 1, warmup: 0}\n";
  const ProfileResult zeros = run_profile(load(yaml), nullptr);
  ASSERT_EQ(zeros.inputs.size(), 1u);
  EXPECT_FALSE(zeros.inputs[0].file);
  EXPECT_EQ(zeros.inputs[0].sha256, "zeros");
  EXPECT_EQ(zeros.inputs[0].size_bytes, 1960u);

  const ProfileResult given = run_profile(load(yaml, {"profiling.input=dscnn.input.bin"}), nullptr);
  EXPECT_EQ(validity_of(given.issues), "valid") << given.failure;
  ASSERT_EQ(given.inputs.size(), 1u);
  EXPECT_EQ(given.inputs[0].file, at("dscnn.input.bin"));
  EXPECT_EQ(given.inputs[0].sha256, sha256_hex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  // The example input is not zeros: the outputs differ, so the input reached the program.
  EXPECT_NE(given.output_crc32, zeros.output_crc32);
}

}  // namespace
}  // namespace etns::tools
