#include "fuzz/argument_mutator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "fuzz/bounded_run.h"
#include "tests/support/operator_cases.h"
#include "tools/common/failure.h"
#include "tools/writers/program/program_model.h"

namespace etns::fuzz {
namespace {

constexpr size_t kMaxSize = 1 << 20;

std::vector<std::vector<uint8_t>> seed_programs() {
  testing::Rng rng(0x73656564);
  std::vector<std::vector<uint8_t>> programs;
  for (const testing::OpCase& c : testing::operator_cases()) programs.push_back(testing::case_program(c, rng));
  return programs;
}

// Each mutant is a program the writer wrote and our loader reads back into
// the model, or refuses with its one line (a tensor whose extent passes the
// loader's bound, say: the loader's own check is then what the mutant
// tests). It differs from its seed in what it says, not only in layout.
TEST(ArgumentMutator, MutantsAreProgramsThatDifferFromTheirSeed) {
  size_t mutated = 0;
  size_t read_back = 0;
  size_t tried = 0;
  for (const std::vector<uint8_t>& seed : seed_programs()) {
    const tools::ProgramModel original = tools::read_program(seed);
    for (uint32_t s = 0; s < 40; ++s) {
      ++tried;
      const std::vector<uint8_t> bytes = mutate_arguments(seed.data(), seed.size(), s, kMaxSize);
      if (bytes.empty()) continue;
      ++mutated;
      ASSERT_LE(bytes.size(), kMaxSize);
      try {
        const tools::ProgramModel model = tools::read_program(bytes);
        ++read_back;
        EXPECT_NE(model, original) << "seed " << s;
      } catch (const tools::Failure& refused) {
        const std::string line = refused.what();
        EXPECT_TRUE(line.find("[InvalidProgram]") != std::string::npos ||
                    line.find("[InvalidArgument]") != std::string::npos)
            << line;
      }
    }
  }
  // Almost every seed gives a program, and most read back: a mutator that
  // mostly fails would leave the fuzzer doing byte mutations.
  EXPECT_GT(mutated, tried * 9 / 10) << mutated << " of " << tried;
  EXPECT_GT(read_back, mutated * 8 / 10) << read_back << " of " << mutated;
}

TEST(ArgumentMutator, TheSameSeedGivesTheSameBytesAndOtherSeedsOtherPrograms) {
  const std::vector<uint8_t> seed = seed_programs().front();
  std::set<std::vector<uint8_t>> distinct;
  for (uint32_t s = 0; s < 50; ++s) {
    const std::vector<uint8_t> a = mutate_arguments(seed.data(), seed.size(), s, kMaxSize);
    EXPECT_EQ(a, mutate_arguments(seed.data(), seed.size(), s, kMaxSize));
    distinct.insert(a);
  }
  EXPECT_GT(distinct.size(), 40U);
}

TEST(ArgumentMutator, WhatTheModelCannotReadGivesNothing) {
  const std::string junk = "not a program";
  EXPECT_TRUE(mutate_arguments(reinterpret_cast<const uint8_t*>(junk.data()), junk.size(), 1, kMaxSize).empty());
  const std::vector<uint8_t> seed = seed_programs().front();
  EXPECT_TRUE(mutate_arguments(seed.data(), seed.size(), 1, 16).empty()) << "nothing fits in 16 bytes";
}

// Generations of mutations, each run as the fuzz target runs its inputs
// (the sanitized builds check that nothing faults): the harness works
// without libFuzzer too.
TEST(ArgumentMutator, GenerationsOfMutantsRunBounded) {
  for (const std::vector<uint8_t>& seed : seed_programs()) {
    std::vector<uint8_t> current = seed;
    for (uint32_t s = 0; s < 6; ++s) {
      std::vector<uint8_t> next = mutate_arguments(current.data(), current.size(), s * 7919 + 1, kMaxSize);
      if (next.empty()) next = seed;
      run_bounded(next.data(), next.size());
      current = std::move(next);
    }
  }
}

}  // namespace
}  // namespace etns::fuzz
