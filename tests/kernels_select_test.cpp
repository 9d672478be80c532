// `etns kernels` (a selective build's selection) through the built CLI on
// etns export's programs: each program's operators, the header and CMake
// fragment it writes, the refusals (a provider without the kernel, a missing
// or malformed file: one line, nothing written), and `verify-kernels
// --programs` against a whole-provider image, which links more than a program
// needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/registry.h"
#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tools/common/failure.h"
#include "tools/select/kernel_selection.h"

namespace etns {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class KernelsSelect : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir("etns-kernels");
    const testing::CliResult exported = testing::run_cli("export --out " + dir_->path());
    ASSERT_EQ(exported.exit_code, 0) << exported.stderr_text;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string program(const std::string& name) { return dir_->path() + "/" + name + ".pte"; }

  static testing::TempDir* dir_;
};
testing::TempDir* KernelsSelect::dir_ = nullptr;

TEST_F(KernelsSelect, ListsEachProgramsOperatorsAndTheirUnion) {
  const testing::CliResult result =
      testing::run_cli("kernels --provider ns " + program("tier1_ns") + " " + program("mean_c_ns"));
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  const std::string& out = result.stdout_text;
  EXPECT_NE(out.find(program("tier1_ns") + ": 7 operators\n"), std::string::npos) << out;
  for (const char* name : {"cortex_m::quantized_conv2d.out", "cortex_m_ns::quantized_hardswish.out",
                           "cortex_m_ns::quantized_sub.out", "cortex_m_ns::quantized_mean.out"}) {
    EXPECT_NE(out.find(std::string("  ") + name + "\n"), std::string::npos) << name << "\n" << out;
  }
  const size_t ns_count = kernels::registry_ns().entries.size();
  EXPECT_NE(out.find("provider ns: 8 of " + std::to_string(ns_count) + " operators' kernels to link"),
            std::string::npos)
      << out;
}

TEST_F(KernelsSelect, WritesTheHeaderAndTheCmakeFragment) {
  testing::TempDir out("etns-kernels-out");
  const std::string header = out.path() + "/etns_kernel_selection.h";
  const std::string cmake = out.path() + "/selection.cmake";
  const testing::CliResult result =
      testing::run_cli("kernels --header " + header + " --cmake " + cmake + " " + program("dscnn_arm"));
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  const std::string header_text = read_text(header);
  EXPECT_NE(header_text.find("#define ETNS_SELECTED_PROVIDER \"arm\"\n"), std::string::npos) << header_text;
  EXPECT_NE(header_text.find("#define ETNS_SELECT_CORTEX_M_QUANTIZED_CONV2D_OUT 1"), std::string::npos);
  EXPECT_EQ(header_text.find("ETNS_SELECT_CORTEX_M_QUANTIZED_MUL_OUT"), std::string::npos) << "dscnn has no mul";
  const std::string cmake_text = read_text(cmake);
  EXPECT_NE(cmake_text.find("set(ETNS_SELECTED_PROVIDER \"arm\")"), std::string::npos) << cmake_text;
  EXPECT_NE(cmake_text.find("cortex_m::quantized_depthwise_conv2d.out"), std::string::npos) << cmake_text;
  EXPECT_NE(cmake_text.find("set(ETNS_SELECTED_LIBRARIES "
                            "\"etns::kernels_cortex_m;etns::kernels_portable\")"),
            std::string::npos)
      << cmake_text;
}

TEST_F(KernelsSelect, JsonListsTheSameOperators) {
  const testing::CliResult result = testing::run_cli("kernels --json " + program("tier1_arm"));
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("\"schema\": \"etns.kernels\""), std::string::npos);
  EXPECT_NE(result.stdout_text.find("\"aten::sub.out\""), std::string::npos) << result.stdout_text;
}

TEST_F(KernelsSelect, AProviderWithoutTheKernelIsOneLineAndWritesNothing) {
  testing::TempDir out("etns-kernels-out");
  const std::string header = out.path() + "/etns_kernel_selection.h";
  const testing::CliResult result = testing::run_cli("kernels --provider arm --header " + header + " " +
                                                     program("dscnn_arm") + " " + program("tier1_ns"));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stdout_text, "");
  EXPECT_EQ(result.stderr_text, "etns: " + program("tier1_ns") +
                                    ": provider arm has no kernel for "
                                    "cortex_m_ns::quantized_hardswish.out "
                                    "(provider ns has: --provider ns)\n");
  EXPECT_FALSE(std::filesystem::exists(header));
}

TEST_F(KernelsSelect, MissingOrMalformedProgramIsOneLine) {
  const testing::CliResult missing = testing::run_cli("kernels " + dir_->path() + "/absent.pte");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_EQ(std::count(missing.stderr_text.begin(), missing.stderr_text.end(), '\n'), 1) << missing.stderr_text;
  EXPECT_NE(missing.stderr_text.find("absent.pte"), std::string::npos);

  const std::string not_a_program = dir_->path() + "/manifest.json";
  const testing::CliResult malformed = testing::run_cli("kernels " + not_a_program);
  EXPECT_NE(malformed.exit_code, 0);
  EXPECT_NE(malformed.stderr_text.find("manifest.json"), std::string::npos) << malformed.stderr_text;
  EXPECT_EQ(malformed.stdout_text, "");
}

// Every operator the registries bind is a row of the one list, whose
// selection macro `etns kernels --header` writes as the list spells it.
TEST(KernelsSelectMacros, EveryRegisteredOperatorHasItsRow) {
  const std::string list = read_text(std::string(ETNS_SOURCE_DIR) + "/kernels/operators.inc");
  ASSERT_FALSE(list.empty());
  for (const runtime::KernelEntry& entry : kernels::registry_ns().entries) {
    const std::string macro = tools::selection_macro(entry.name);
    ASSERT_EQ(macro.rfind("ETNS_SELECT_", 0), 0u) << entry.name;
    EXPECT_NE(list.find("\"" + std::string(entry.name) + "\", " + macro.substr(12) + ","), std::string::npos)
        << entry.name << " -> " << macro;
  }
  EXPECT_EQ(tools::selection_macro("cortex_m::quantized_conv2d.out"), "ETNS_SELECT_CORTEX_M_QUANTIZED_CONV2D_OUT");
  EXPECT_EQ(tools::selection_macro("aten::_to_dim_order_copy.out"), "ETNS_SELECT_ATEN_TO_DIM_ORDER_COPY_OUT");
  EXPECT_THROW(tools::selection_macro("cortex_m::no_such_operator.out"), tools::Failure);
}

// A whole-provider image links more than one program needs: the selective
// rule names what is extra; the example's selective images pass it
// (tests/support/run_consumer_test.sh).
TEST_F(KernelsSelect, VerifyKernelsProgramsNamesExtraKernelsOfAWholeProviderImage) {
  ETNS_REQUIRE_FIRMWARE();
  const testing::CliResult result = testing::run_cli("verify-kernels --provider arm --programs " +
                                                     program("dscnn_arm") + " -- " + testing::firmware_image("arm"));
  EXPECT_EQ(result.exit_code, 1) << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("FAIL: --programs: the selected registry linked, "
                                    "no whole provider's: no selected "
                                    "registry etns::kernels::registry_selected(); "
                                    "found etns::kernels::registry_arm()"),
            std::string::npos)
      << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("linked, not needed: cortex_m::add, "), std::string::npos) << result.stdout_text;
  EXPECT_EQ(result.stdout_text.find("needed, not linked"), std::string::npos) << result.stdout_text;
}

}  // namespace
}  // namespace etns
