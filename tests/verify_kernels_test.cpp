// `etns verify-kernels` through the built CLI: each firmware image passes as
// the flavour it was built for and fails, naming the rule, as the other; a host
// binary is accepted without the no-heap rule; bad arguments exit 2 in one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"

namespace etns {
namespace {

const char kVerdict[] = "PASS: linked kernels match the declared build flavor";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines starting with `prefix` ("PASS: ", "FAIL: ", "SKIP: "), in order.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines_of(text)) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const std::string& candidate : lines_of(text)) {
    if (candidate == line) return true;
  }
  return false;
}

bool has_line_starting(const std::string& text, const std::string& prefix) {
  return !lines_starting(text, prefix).empty();
}

class VerifyKernels : public ::testing::Test {
 protected:
  void SetUp() override { ETNS_REQUIRE_FIRMWARE(); }
};

TEST_F(VerifyKernels, ArmImagePassesAsArmWithPortable) {
  const std::string elf = testing::firmware_image("arm");
  const testing::CliResult result = testing::run_cli("verify-kernels --provider arm --expect-portable " + elf);
  EXPECT_EQ(result.exit_code, 0) << result.stdout_text << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  const std::vector<std::string> lines = lines_of(result.stdout_text);
  ASSERT_GE(lines.size(), 3u) << result.stdout_text;
  EXPECT_EQ(lines[0], "ELF: " + elf);
  EXPECT_EQ(lines[1], "machine: ARM");
  EXPECT_EQ(lines[2], "declared: provider arm, cortex_m_ns kernels forbidden, portable kernels required");
  EXPECT_TRUE(has_line(result.stdout_text, "provider registry: etns::kernels::registry_arm()")) << result.stdout_text;
  EXPECT_TRUE(has_line(result.stdout_text, "cortex_m_ns kernels: none")) << result.stdout_text;
  EXPECT_TRUE(has_line(result.stdout_text, "heap symbols: none")) << result.stdout_text;
  EXPECT_TRUE(has_line_starting(result.stdout_text, "portable kernels: ")) << result.stdout_text;
  EXPECT_FALSE(has_line(result.stdout_text, "portable kernels: none")) << result.stdout_text;
  // Demangled and grouped by operator: no mangled name, no Python-style list.
  const std::vector<std::string> conv2d = lines_starting(result.stdout_text, "  conv2d: ");
  ASSERT_EQ(conv2d.size(), 1u) << result.stdout_text;
  for (const char* function : {"conv2d_prepare", "conv2d_run", "conv2d_s8_mve"}) {
    EXPECT_NE(conv2d[0].find(std::string(" ") + function + ","), std::string::npos) << conv2d[0];
  }
  EXPECT_TRUE(has_line_starting(result.stdout_text, "  clamp: clamp_prepare, clamp_row_ref, clamp_row_s8_ref, clamp_run"))
      << result.stdout_text;
  EXPECT_EQ(result.stdout_text.find("_ZN"), std::string::npos) << result.stdout_text;
  EXPECT_EQ(result.stdout_text.find("['"), std::string::npos) << result.stdout_text;
  EXPECT_EQ(result.stdout_text.find("=True"), std::string::npos) << result.stdout_text;
  EXPECT_EQ(lines_starting(result.stdout_text, "PASS: "),
            (std::vector<std::string>{"PASS: --provider arm: arm registry linked and ns registry not linked",
                                      "PASS: no --ns-ops: no cortex_m_ns kernels linked",
                                      "PASS: --expect-portable: portable kernels linked",
                                      "PASS: no heap: no allocation or throw symbols", kVerdict}));
  EXPECT_EQ(lines.back(), kVerdict);
}

TEST_F(VerifyKernels, NsImagePassesAsNsWithNsOps) {
  const std::string elf = testing::firmware_image("ns");
  const testing::CliResult result = testing::run_cli("verify-kernels --provider ns --ns-ops " + elf);
  EXPECT_EQ(result.exit_code, 0) << result.stdout_text << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  EXPECT_TRUE(has_line(result.stdout_text, "declared: provider ns, cortex_m_ns kernels required, portable kernels allowed"))
      << result.stdout_text;
  EXPECT_TRUE(has_line(result.stdout_text, "provider registry: etns::kernels::registry_ns()")) << result.stdout_text;
  EXPECT_FALSE(has_line(result.stdout_text, "cortex_m_ns kernels: none")) << result.stdout_text;
  // cortex_m_ns::quantized_sub (Helium) and the portable aten::sub, each under its provider's class.
  EXPECT_TRUE(has_line_starting(result.stdout_text, "  sub: sub_lanes, sub_prepare, sub_run, sub_s8_mve"))
      << result.stdout_text;
  EXPECT_TRUE(has_line(result.stdout_text, "  sub: sub_prepare, sub_row_ref, sub_run")) << result.stdout_text;
  EXPECT_EQ(lines_starting(result.stdout_text, "PASS: "),
            (std::vector<std::string>{"PASS: --provider ns: ns registry linked",
                                      "PASS: --ns-ops: cortex_m_ns kernels linked",
                                      "PASS: no heap: no allocation or throw symbols", kVerdict}));
  EXPECT_TRUE(lines_starting(result.stdout_text, "FAIL: ").empty()) << result.stdout_text;
}

TEST_F(VerifyKernels, ArmImageFailsAsNs) {
  const testing::CliResult result =
      testing::run_cli("verify-kernels --provider ns --ns-ops " + testing::firmware_image("arm"));
  EXPECT_EQ(result.exit_code, 1) << result.stdout_text << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  EXPECT_EQ(lines_starting(result.stdout_text, "FAIL: "),
            (std::vector<std::string>{
                "FAIL: --provider ns: ns registry linked: no ns registry etns::kernels::registry_ns()",
                "FAIL: --ns-ops: cortex_m_ns kernels linked: none found"}));
  EXPECT_FALSE(has_line(result.stdout_text, kVerdict)) << result.stdout_text;
}

TEST_F(VerifyKernels, NsImageFailsAsArm) {
  const testing::CliResult result = testing::run_cli("verify-kernels --provider arm " + testing::firmware_image("ns"));
  EXPECT_EQ(result.exit_code, 1) << result.stdout_text << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  const std::vector<std::string> failures = lines_starting(result.stdout_text, "FAIL: ");
  ASSERT_EQ(failures.size(), 2u) << result.stdout_text;
  // The ns registry holds the arm rows itself, so the ns image defines no registry_arm().
  EXPECT_EQ(failures[0],
            "FAIL: --provider arm: arm registry linked and ns registry not linked: "
            "no arm registry etns::kernels::registry_arm(); found the ns registry etns::kernels::registry_ns()");
  EXPECT_EQ(failures[1].rfind("FAIL: no --ns-ops: no cortex_m_ns kernels linked: found ", 0), 0u) << failures[1];
  EXPECT_NE(failures[1].find("etns::cortex_m_ns::"), std::string::npos) << failures[1];
  EXPECT_FALSE(has_line(result.stdout_text, kVerdict)) << result.stdout_text;
}

TEST(VerifyKernelsHost, HostBinaryIsAcceptedWithoutTheHeapRule) {
  // The host CLI links both registries, so it passes only as ns.
  const testing::CliResult as_ns =
      testing::run_cli("verify-kernels --provider ns --ns-ops --expect-portable " ETNS_CLI_PATH);
  EXPECT_EQ(as_ns.exit_code, 0) << as_ns.stdout_text << as_ns.stderr_text;
  EXPECT_TRUE(has_line(as_ns.stdout_text, "machine: x86-64")) << as_ns.stdout_text;
  EXPECT_TRUE(has_line_starting(as_ns.stdout_text, "SKIP: no heap: ")) << as_ns.stdout_text;
  EXPECT_FALSE(has_line(as_ns.stdout_text, "heap symbols: none")) << "the host CLI allocates";
  EXPECT_TRUE(lines_starting(as_ns.stdout_text, "FAIL: ").empty()) << as_ns.stdout_text;
  EXPECT_EQ(lines_of(as_ns.stdout_text).back(), kVerdict);

  const testing::CliResult as_arm = testing::run_cli("verify-kernels --provider arm " ETNS_CLI_PATH);
  EXPECT_EQ(as_arm.exit_code, 1) << as_arm.stdout_text << as_arm.stderr_text;
  const std::vector<std::string> failures = lines_starting(as_arm.stdout_text, "FAIL: ");
  ASSERT_FALSE(failures.empty()) << as_arm.stdout_text;
  EXPECT_EQ(failures[0],
            "FAIL: --provider arm: arm registry linked and ns registry not linked: "
            "found the ns registry etns::kernels::registry_ns()");
}

TEST(VerifyKernelsHost, MissingElfIsAUsageErrorInOneLine) {
  testing::TempDir dir;
  const std::string elf = dir.path() + "/nope.elf";
  const testing::CliResult result = testing::run_cli("verify-kernels --provider arm " + elf);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stdout_text, "");
  EXPECT_EQ(lines_of(result.stderr_text).size(), 1u) << result.stderr_text;
  EXPECT_EQ(result.stderr_text.rfind("etns: cannot read " + elf, 0), 0u) << result.stderr_text;
}

TEST(VerifyKernelsHost, NotAnElfIsAUsageErrorInOneLine) {
  testing::TempDir dir;
  const std::string elf = dir.path() + "/text.elf";
  std::ofstream(elf) << "not an ELF\n";
  const testing::CliResult result = testing::run_cli("verify-kernels --provider ns " + elf);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stdout_text, "");
  EXPECT_EQ(lines_of(result.stderr_text).size(), 1u) << result.stderr_text;
  EXPECT_EQ(result.stderr_text.rfind("etns: " + elf + ": not an ELF file", 0), 0u) << result.stderr_text;
}

TEST(VerifyKernelsHost, BadOrMissingProviderIsAUsageErrorInOneLine) {
  const testing::CliResult bad = testing::run_cli("verify-kernels --provider cmsis " ETNS_CLI_PATH);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.stdout_text, "");
  EXPECT_EQ(bad.stderr_text, "etns: --provider: 'cmsis': expected arm or ns\n");

  const testing::CliResult missing = testing::run_cli("verify-kernels " ETNS_CLI_PATH);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.stdout_text, "");
  EXPECT_EQ(lines_of(missing.stderr_text).size(), 1u) << missing.stderr_text;
  EXPECT_NE(missing.stderr_text.find("--provider is required"), std::string::npos) << missing.stderr_text;
}

}  // namespace
}  // namespace etns
