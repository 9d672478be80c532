// Every operator in a program of its own (tests/support/operator_cases.h),
// written by the PTE writer, run by `etns run` on the host (reference
// kernels: the host has no Helium) and on the Cortex-M55 firmware under QEMU
// (the Helium variants): the two outputs must be the same bytes. A second
// test runs every program on the host alone, so that the stock forms are
// checked to load and run where QEMU is missing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/operator_cases.h"
#include "tests/support/qemu.h"
#include "tools/common/files.h"

namespace etns {
namespace {

using testing::OpCase;

// Writes case `c`'s program and an input for it under `dir`; returns the
// common path prefix (prefix.pte, prefix.in.bin).
std::string write_case(const std::string& dir, testing::Rng& rng, const OpCase& c) {
  const std::vector<uint8_t> pte = testing::case_program(c, rng);
  const std::string base = dir + "/" + c.name;
  tools::write_file_atomic(base + ".pte", pte.data(), pte.size());
  const std::vector<uint8_t> input = testing::case_input(c, rng);
  tools::write_file_atomic(base + ".in.bin", input.data(), input.size());
  return base;
}

std::string run_command(const std::string& base, const OpCase& c) {
  return "run " + base + ".pte --provider " + to_string(c.provider) + " --input " + base + ".in.bin --output ";
}

TEST(OperatorPrograms, EachOperatorGivesTheSameBytesOnTheHostAndOnTheM55) {
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  testing::Rng rng(0x6f7073);  // "ops"
  for (const OpCase& c : testing::operator_cases()) {
    SCOPED_TRACE(c.name);
    const std::string base = write_case(dir.path(), rng, c);
    const std::string run = run_command(base, c);
    const testing::CliResult host = testing::run_cli(run + base + ".host.bin");
    ASSERT_EQ(host.exit_code, 0) << host.stderr_text;
    const testing::CliResult m55 = testing::run_cli(run + base + ".m55.bin --target qemu-m55");
    ASSERT_EQ(m55.exit_code, 0) << m55.stderr_text;
    const std::vector<uint8_t> host_out = tools::read_file(base + ".host.bin");
    EXPECT_EQ(host_out.size(), c.out_bytes());
    EXPECT_EQ(tools::read_file(base + ".m55.bin"), host_out);
  }
}

// Without QEMU: every program (the stock forms included) loads and runs on
// the host and writes an output of the right size.
TEST(OperatorPrograms, EachOperatorProgramLoadsAndRunsOnTheHost) {
  testing::TempDir dir;
  testing::Rng rng(0x6f7073);  // "ops"
  for (const OpCase& c : testing::operator_cases()) {
    SCOPED_TRACE(c.name);
    const std::string base = write_case(dir.path(), rng, c);
    const testing::CliResult host = testing::run_cli(run_command(base, c) + base + ".host.bin");
    EXPECT_EQ(host.exit_code, 0) << host.stderr_text;
    if (host.exit_code != 0) continue;
    EXPECT_EQ(tools::read_file(base + ".host.bin").size(), c.out_bytes());
  }
}

}  // namespace
}  // namespace etns
