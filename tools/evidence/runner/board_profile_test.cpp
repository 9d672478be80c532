#include "tools/evidence/runner/board_profile.h"

#include <gtest/gtest.h>

#include <string>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

const char* kMinimal = R"(board: toy
description: a toy board
clock: {name: toy clock, hz: 100000000, source: the toy's manual}
memories:
  tcm: {wait_states: 0, source: manual}
  slow: {wait_states: 3, assumption: a guess}
placement: {code: tcm, constants: slow, planned_arena: slow, scratch: tcm, method_arena: tcm, stack: tcm, data: tcm}
)";

TEST(BoardProfile, TheBuiltInProfilesLoad) {
  const BoardProfile an547 = load_board_profile("an547");
  EXPECT_EQ(an547.name, "an547");
  EXPECT_FALSE(an547.has_wait_states());
  EXPECT_EQ(an547.describe(), "board profile an547: no wait states");
  const BoardProfile apollo = load_board_profile("apollo510");
  EXPECT_EQ(apollo.clock_hz, 96000000u);
  EXPECT_TRUE(apollo.has_wait_states());
  EXPECT_EQ(apollo.placement.at("planned_arena"), "sram");
  EXPECT_TRUE(apollo.memories.at("sram").assumed);
  EXPECT_FALSE(apollo.memories.at("dtcm").assumed);
  EXPECT_EQ(apollo.describe(),
            "board profile apollo510: constants in mram (4 wait states, assumed), planned_arena in sram (2 wait "
            "states, assumed); the rest 0");
}

TEST(BoardProfile, AUsersProfileParses) {
  const BoardProfile toy = parse_board_profile(kMinimal, "toy.yaml");
  EXPECT_EQ(toy.clock_hz, 100000000u);
  EXPECT_EQ(toy.memories.at("slow").wait_states, 3u);
  EXPECT_EQ(toy.memories.at("slow").note, "a guess");
}

// Each mistake is one line naming the file and the key.
TEST(BoardProfile, MistakesNameTheFileAndTheKey) {
  const auto problem = [](const std::string& text) {
    try {
      parse_board_profile(text, "toy.yaml");
    } catch (const Failure& failure) {
      return std::string(failure.what());
    }
    return std::string("accepted");
  };
  const std::string base = kMinimal;
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_EQ(problem(with("wait_states: 3", "wait_states: -1")),
            "toy.yaml: memories.slow: wait_states: expected a whole number from 0 to 1000, not '-1'");
  EXPECT_EQ(problem(with("constants: slow", "constants: flash")),
            "toy.yaml: placement.constants: 'flash' is not one of the memories");
  EXPECT_EQ(problem(with("assumption: a guess", "assumption: a guess, source: x")),
            "toy.yaml: memories.slow: expected exactly one of source (a public fact) or assumption");
  EXPECT_EQ(problem(with("hz: 100000000", "hz: 0")), "toy.yaml: clock.hz: expected a clock above 0 Hz");
  EXPECT_EQ(problem(with("stack: tcm, ", "")), "toy.yaml: placement: stack: expected a non-empty text");
  EXPECT_EQ(problem(with("board: toy", "bored: toy")).rfind("toy.yaml: unknown key 'bored'", 0), 0u);
  EXPECT_EQ(problem("[1, 2").rfind("toy.yaml: not YAML: ", 0), 0u);
}

TEST(BoardProfile, AMissingFileIsNamed) {
  try {
    load_board_profile("/nonexistent/board.yaml");
    FAIL() << "accepted";
  } catch (const Failure& failure) {
    EXPECT_EQ(std::string(failure.what()),
              "/nonexistent/board.yaml: no such board profile (built in: an547, apollo510; or a YAML file)");
  }
}

}  // namespace
}  // namespace etns::tools
