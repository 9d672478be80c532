// `etns run --target qemu-m55`: the real programs on the Cortex-M55 firmware
// under QEMU, its counts, and every way the run can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/shared_data.h"

namespace etns {
namespace {

constexpr const char* kQemu = " --target qemu-m55";

std::string model(const std::string& shared, const std::string& name) {
  return shared + "/models/tier1/" + name + ".pte";
}

// The arm programs' golden input A; the ns program of the same model takes the same input.
std::string input_a(const std::string& shared, const std::string& arm_program) {
  return shared + "/golden/" + arm_program + ".A.input.bin";
}

nlohmann::json read_json(const std::string& path) {
  const std::vector<uint8_t> bytes = testing::read_file(path);
  return nlohmann::json::parse(bytes.begin(), bytes.end());
}

TEST(QemuTarget, NsProgramsOnTheNsFirmwareMatchTheHostBitForBit) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  for (const auto& [program, arm_program, instructions] :
       {std::tuple<std::string, std::string, size_t>{"tier1_ns", "tier1_arm", 8},
        std::tuple<std::string, std::string, size_t>{"tier1mean_ns", "tier1mean_arm", 3}}) {
    SCOPED_TRACE(program);
    testing::TempDir dir;
    const std::string common =
        "run " + model(shared, program) + " --provider ns --input " + input_a(shared, arm_program);
    const testing::CliResult host = testing::run_cli(common + " --output " + dir.path() + "/host.bin --dump-dir " +
                                                     dir.path() + "/host");
    ASSERT_EQ(host.exit_code, 0) << host.stderr_text;
    const testing::CliResult qemu = testing::run_cli(common + kQemu + " --output " + dir.path() +
                                                     "/qemu.bin --dump-dir " + dir.path() + "/qemu");
    ASSERT_EQ(qemu.exit_code, 0) << qemu.stderr_text;
    EXPECT_EQ(testing::read_file(dir.path() + "/qemu.bin"), testing::read_file(dir.path() + "/host.bin"));
    for (size_t i = 0; i < instructions; ++i) {
      const std::string name = "/c0i" + std::to_string(i) + ".bin";
      EXPECT_EQ(testing::read_file(dir.path() + "/qemu" + name), testing::read_file(dir.path() + "/host" + name))
          << name;
    }
  }
}

TEST(QemuTarget, NsProgramsOnTheArmFirmwareFailNamingEachMissingOperator) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string tier1 = model(shared, "tier1_ns");
  const testing::CliResult result = testing::run_cli("run " + tier1 + kQemu + " --provider arm --input " +
                                                     input_a(shared, "tier1_arm") + " --output " + dir.path() +
                                                     "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text,
            "etns: " + tier1 + ": missing operator [2] cortex_m_ns::quantized_hardswish.out\n"
            "etns: " + tier1 + ": missing operator [3] cortex_m_ns::quantized_leaky_relu.out\n"
            "etns: " + tier1 + ": missing operator [4] cortex_m_ns::quantized_sub.out\n"
            "etns: " + tier1 + ": missing operator [5] cortex_m_ns::quantized_relu.out\n"
            "etns: " + tier1 + ": method 'forward': 4 operator(s) missing from provider 'arm'; "
            "nothing was prepared [OperatorMissing]\n");
  EXPECT_FALSE(std::ifstream(dir.path() + "/out.bin").good()) << "no output on failure";

  const std::string mean = model(shared, "tier1mean_ns");
  const testing::CliResult mean_result = testing::run_cli("run " + mean + kQemu + " --provider arm --input " +
                                                          input_a(shared, "tier1mean_arm") + " --output " +
                                                          dir.path() + "/out.bin");
  EXPECT_EQ(mean_result.exit_code, 1);
  EXPECT_NE(mean_result.stderr_text.find(": missing operator [1] cortex_m_ns::quantized_mean.out\n"),
            std::string::npos)
      << mean_result.stderr_text;
}

TEST(QemuTarget, CountsAreDeterministicAndCoverEveryInstruction) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string command = "run " + model(shared, "tier1_arm") + kQemu + " --provider arm --input " +
                              input_a(shared, "tier1_arm") + " --output " + dir.path() + "/out.bin --counts ";
  ASSERT_EQ(testing::run_cli(command + dir.path() + "/first.json").exit_code, 0);
  ASSERT_EQ(testing::run_cli(command + dir.path() + "/second.json").exit_code, 0);
  EXPECT_EQ(testing::read_file(dir.path() + "/first.json"), testing::read_file(dir.path() + "/second.json"))
      << "two runs of the same program counted differently";

  const nlohmann::json counts = read_json(dir.path() + "/first.json");
  EXPECT_EQ(counts["schema"], "etns.qemu_run_counts");
  EXPECT_EQ(counts["schema_version"], 2);
  EXPECT_NE(counts["what"].get<std::string>().find("estimate, not a measurement"), std::string::npos);
  EXPECT_NE(counts["cycles_estimated_by"].get<std::string>().find("Cortex-M55 scheduling model"), std::string::npos);
  EXPECT_EQ(counts["provider"], "arm");
  EXPECT_EQ(counts["planned_bytes"], nlohmann::json::array({196608}));
  EXPECT_EQ(counts["classes"], nlohmann::json({"total", "mve", "mve_load", "mve_store", "mve_gather", "mve_scatter",
                                                "fp", "load", "store", "branch", "loop", "weighted", "cycles"}));
  ASSERT_EQ(counts["instructions"].size(), 12u);
  uint64_t sum = 0;
  for (size_t i = 0; i < 12; ++i) {
    const nlohmann::json& row = counts["instructions"][i];
    EXPECT_EQ(row["id"], "c0i" + std::to_string(i));
    const uint64_t total = row["counts"]["total"].get<uint64_t>();
    EXPECT_GT(total, 1000u) << row;
    EXPECT_LE(row["counts"]["mve"].get<uint64_t>(), total);
    EXPECT_LE(row["counts"]["mve_gather"].get<uint64_t>(), row["counts"]["mve_load"].get<uint64_t>()) << row;
    EXPECT_LE(row["counts"]["mve_scatter"].get<uint64_t>(), row["counts"]["mve_store"].get<uint64_t>()) << row;
    // Each gather or scatter adds 1 to 15 lanes beyond its one instruction.
    const uint64_t gathers_and_scatters =
        row["counts"]["mve_gather"].get<uint64_t>() + row["counts"]["mve_scatter"].get<uint64_t>();
    EXPECT_GE(row["counts"]["weighted"].get<uint64_t>(), total + gathers_and_scatters) << row;
    EXPECT_LE(row["counts"]["weighted"].get<uint64_t>(), total + 15 * gathers_and_scatters) << row;
    // The M55 retires at most 2 instructions a cycle, and no kernel of
    // tier1 stalls more than 3 cycles per instruction on average.
    const uint64_t cycles = row["counts"]["cycles"].get<uint64_t>();
    EXPECT_GE(2 * cycles, total) << row;
    EXPECT_LE(cycles, 3 * total) << row;
    sum += total;
  }
  EXPECT_EQ(counts["instructions"][1]["operator"], "cortex_m::quantized_conv2d.out");
  EXPECT_EQ(counts["instructions"][10]["operator"], "aten::clamp.out");
  // The clean execute() runs the same kernels without the per-instruction
  // markers: it differs from the sum by the dispatch code only.
  const uint64_t clean = counts["clean_execute"]["total"].get<uint64_t>();
  EXPECT_NEAR(static_cast<double>(clean), static_cast<double>(sum), 0.001 * static_cast<double>(sum));
  uint64_t cycle_sum = 0;
  for (const nlohmann::json& row : counts["instructions"]) cycle_sum += row["counts"]["cycles"].get<uint64_t>();
  const uint64_t clean_cycles = counts["clean_execute"]["cycles"].get<uint64_t>();
  EXPECT_NEAR(static_cast<double>(clean_cycles), static_cast<double>(cycle_sum), 0.01 * static_cast<double>(cycle_sum));
  EXPECT_GT(counts["whole_run"]["total"].get<uint64_t>(), 2 * sum) << "two passes plus the load";
}

// A board profile changes the estimate, never the instructions: apollo510
// puts the activations in SRAM and the weights in MRAM, with wait states.
TEST(QemuTarget, ABoardProfileAddsItsWaitStatesToTheCycleEstimate) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string command = "run " + model(shared, "tier1_ns") + kQemu + " --provider ns --input " +
                              input_a(shared, "tier1_arm") + " --output " + dir.path() + "/out.bin --counts ";
  ASSERT_EQ(testing::run_cli(command + dir.path() + "/an547.json").exit_code, 0);
  ASSERT_EQ(testing::run_cli(command + dir.path() + "/apollo.json --board apollo510").exit_code, 0);
  const nlohmann::json an547 = read_json(dir.path() + "/an547.json");
  const nlohmann::json apollo = read_json(dir.path() + "/apollo.json");
  EXPECT_EQ(an547["clean_execute"]["total"], apollo["clean_execute"]["total"]);
  EXPECT_GT(apollo["clean_execute"]["cycles"].get<uint64_t>(), an547["clean_execute"]["cycles"].get<uint64_t>());
  EXPECT_NE(an547["cycles_estimated_by"].get<std::string>().find("board profile an547: no wait states"),
            std::string::npos);
  EXPECT_NE(apollo["cycles_estimated_by"].get<std::string>().find("planned_arena in sram (2 wait states, assumed)"),
            std::string::npos);

  const testing::CliResult missing = testing::run_cli(command + dir.path() + "/x.json --board " + dir.path() + "/no.yaml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.stderr_text.find(dir.path() + "/no.yaml: no such board profile"), std::string::npos)
      << missing.stderr_text;
  const testing::CliResult host = testing::run_cli("run " + model(shared, "tier1_ns") + " --provider ns --input " +
                                                   input_a(shared, "tier1_arm") + " --output " + dir.path() +
                                                   "/out.bin --board apollo510");
  EXPECT_EQ(host.exit_code, 2);
  EXPECT_NE(host.stderr_text.find("--board needs --target qemu-m55"), std::string::npos) << host.stderr_text;
}

TEST(QemuTarget, FirmwareFaultIsReportedWithItsAddressAndFunction) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string program = model(shared, "tier1mean_arm");
  const testing::CliResult result =
      testing::run_cli("run " + program + kQemu + " --self-test-fault --provider arm --input " +
                       input_a(shared, "tier1mean_arm") + " --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text.rfind("etns: " + program + ": firmware fault: HardFault at pc 0x", 0), 0u)
      << result.stderr_text;
  EXPECT_NE(result.stderr_text.find("provoke_fault"), std::string::npos) << result.stderr_text;
  EXPECT_EQ(std::count(result.stderr_text.begin(), result.stderr_text.end(), '\n'), 1) << result.stderr_text;
}

TEST(QemuTarget, ARunPastItsTimeoutIsStoppedAndSaysSo) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string program = model(shared, "tier1_arm");
  const testing::CliResult result = testing::run_cli("run " + program + kQemu + " --timeout 0.001 --provider arm --input " +
                                                     input_a(shared, "tier1_arm") + " --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "etns: " + program +
                                    ": QEMU did not finish within 0.001 s and was stopped (the firmware hung, or "
                                    "raise --timeout / timeouts.run)\n");
  EXPECT_FALSE(std::ifstream(dir.path() + "/out.bin").good());
}

TEST(QemuTarget, MissingQemuIsNamed) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const testing::CliResult result = testing::run_cli(
      "run " + model(shared, "tier1mean_arm") + kQemu + " --qemu " + dir.path() + "/no-qemu --provider arm --input " +
      input_a(shared, "tier1mean_arm") + " --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "etns: " + dir.path() +
                                    "/no-qemu: QEMU not found (install Debian's qemu-system-arm, set ETNS_QEMU, or pass --qemu PATH)\n");
}

TEST(QemuTarget, MissingOrForeignFirmwareIsNamed) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string common = "run " + model(shared, "tier1mean_arm") + kQemu + " --provider arm --input " +
                             input_a(shared, "tier1mean_arm") + " --output " + dir.path() + "/out.bin";
  const testing::CliResult missing = testing::run_cli(common + " --firmware " + dir.path() + "/none.elf");
  EXPECT_EQ(missing.exit_code, 2) << "a missing file the command line names is a usage error";
  EXPECT_EQ(missing.stderr_text, "etns: cannot read " + dir.path() + "/none.elf: no such file\n");

  const testing::CliResult foreign = testing::run_cli(common + " --firmware " + ETNS_CLI_PATH);
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_EQ(foreign.stderr_text,
            std::string("etns: ") + ETNS_CLI_PATH + ": a x86-64 ELF, expected an Arm firmware image\n");
}

// "1,234" -> 1234: the report's grouped figures.
uint64_t grouped_number(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  return std::stoull(text);
}

// The cells of a Markdown table row ("| a | b |" -> {"a", "b"}); an escaped
// '|' in a C++ name never has a space before it.
std::vector<std::string> table_cells(const std::string& row) {
  std::vector<std::string> cells;
  const std::string inner = row.substr(2, row.size() - 4);
  size_t from = 0;
  for (size_t bar = inner.find(" | "); bar != std::string::npos; bar = inner.find(" | ", from)) {
    cells.push_back(inner.substr(from, bar - from));
    from = bar + 3;
  }
  cells.push_back(inner.substr(from));
  return cells;
}

// --blocks: the whole run's estimated cycles by function and hot block. The
// functions add up to the blocks' total, which is the run's own whole-run
// figure (within each block's rounding), over exactly its instructions.
TEST(QemuTarget, BlockProfileSaysWhereTheEstimatedCyclesGo) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string report_path = dir.path() + "/blocks.md";
  const testing::CliResult result = testing::run_cli(
      "run " + model(shared, "tier1_arm") + kQemu + " --provider arm --input " + input_a(shared, "tier1_arm") +
      " --output " + dir.path() + "/out.bin --counts " + dir.path() + "/counts.json --blocks " + report_path);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  const std::vector<uint8_t> bytes = testing::read_file(report_path);
  const std::string report(bytes.begin(), bytes.end());
  EXPECT_NE(report.find("**estimated**, never measured: LLVM 19 MCA's Cortex-M55 scheduling model"), std::string::npos)
      << report.substr(0, 600);
  EXPECT_NE(report.find("**whole QEMU run**"), std::string::npos);
  EXPECT_EQ(report.find("# etns_qemu_counter blocks"), std::string::npos) << "the plugin's raw lines are replaced";

  const size_t functions_at = report.find("## Functions by estimated cycles");
  const size_t blocks_at = report.find("## The 40 hottest blocks");
  ASSERT_NE(functions_at, std::string::npos);
  ASSERT_NE(blocks_at, std::string::npos);
  std::istringstream function_rows(report.substr(functions_at, blocks_at - functions_at));
  uint64_t function_cycles = 0, function_instructions = 0, all_cycles = 0, all_instructions = 0;
  uint64_t previous_cycles = UINT64_MAX;
  bool names_a_conv_kernel = false;
  for (std::string row; std::getline(function_rows, row);) {
    if (row.rfind("| `", 0) == 0) {
      const std::vector<std::string> cells = table_cells(row);
      ASSERT_EQ(cells.size(), 5u) << row;
      const uint64_t cycles = grouped_number(cells[1]);
      EXPECT_LE(cycles, previous_cycles) << "sorted by estimated cycles: " << row;
      previous_cycles = cycles;
      names_a_conv_kernel = names_a_conv_kernel || cells[0].find("etns::cortex_m::conv2d") != std::string::npos;
      function_cycles += cycles;
      function_instructions += grouped_number(cells[3]);
    } else if (row.rfind("| **all** |", 0) == 0) {
      const std::vector<std::string> cells = table_cells(row);
      ASSERT_EQ(cells.size(), 5u) << row;
      all_cycles = grouped_number(cells[1]);
      all_instructions = grouped_number(cells[3]);
    }
  }
  EXPECT_TRUE(names_a_conv_kernel) << report;
  EXPECT_GT(all_cycles, 0u);
  EXPECT_EQ(function_cycles, all_cycles);
  EXPECT_EQ(function_instructions, all_instructions);

  const nlohmann::json counts = read_json(dir.path() + "/counts.json");
  EXPECT_EQ(all_instructions, counts["whole_run"]["total"].get<uint64_t>());
  std::smatch blocks_named;
  ASSERT_TRUE(std::regex_search(report, blocks_named, std::regex("([0-9,]+) blocks\\."))) << "the header counts the blocks";
  const uint64_t block_count = grouped_number(blocks_named[1]);
  EXPECT_NEAR(static_cast<double>(all_cycles), counts["whole_run"]["cycles"].get<double>(),
              0.5 * static_cast<double>(block_count) + 0.5);

  std::istringstream block_rows(report.substr(blocks_at));
  size_t hot_blocks = 0;
  for (std::string row; std::getline(block_rows, row);) hot_blocks += row.rfind("| 0x", 0) == 0 ? 1 : 0;
  EXPECT_EQ(hot_blocks, 40u);
}

TEST(QemuTarget, BlockProfileRefusesWhatItCannotDo) {
  const testing::CliResult host = testing::run_cli("run x.pte --provider arm --input a --output b --blocks c.md");
  EXPECT_EQ(host.exit_code, 2);
  EXPECT_EQ(host.stderr_text, "etns: --blocks needs --target qemu-m55\n");
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string nowhere = dir.path() + "/no-such-folder/blocks.md";
  const testing::CliResult unwritable = testing::run_cli(
      "run " + model(shared, "tier1mean_arm") + kQemu + " --provider arm --input " + input_a(shared, "tier1mean_arm") +
      " --output " + dir.path() + "/out.bin --blocks " + nowhere);
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_EQ(unwritable.stderr_text, "etns: run: --blocks " + nowhere + ": cannot write: no folder " + dir.path() +
                                        "/no-such-folder\n");
  EXPECT_FALSE(std::ifstream(dir.path() + "/out.bin").good()) << "refused before the run";
}

TEST(QemuTarget, CountsNeedTheQemuTarget) {
  const testing::CliResult result = testing::run_cli("run x.pte --provider arm --input a --output b --counts c.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: --counts needs --target qemu-m55\n");
}

}  // namespace
}  // namespace etns
