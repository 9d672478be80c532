// The CLI's contract: results on stdout, one clear line per problem on stderr,
// exit 0 / 1 (failed run) / 2 (usage).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/shared_data.h"
#include "tools/common/files.h"
#include "tools/writers/tflite/tflite_test_writer.h"

namespace etns {
namespace {

size_t line_count(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

void write_bytes(const std::string& path, size_t size) {
  std::ofstream out(path, std::ios::binary);
  const std::vector<char> zeros(size, 0);
  out.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
}

TEST(Cli, MissingProgramFileIsOneLine) {
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 16);
  const testing::CliResult result = testing::run_cli("run " + dir.path() + "/nope.pte --provider arm --input " +
                                                     dir.path() + "/in.bin --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "etns: cannot read " + dir.path() + "/nope.pte: no such file\n");
}

TEST(Cli, UnknownProviderIsAUsageError) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 65536);
  const testing::CliResult result = testing::run_cli("run " + shared + "/models/tier1/tier1mean_arm.pte --provider cmsis --input " +
                                                     dir.path() + "/in.bin --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: --provider: 'cmsis': expected arm or ns\n");
}

TEST(Cli, MissingOptionIsAUsageError) {
  const testing::CliResult result = testing::run_cli("run x.pte --provider arm");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(line_count(result.stderr_text), 1u) << result.stderr_text;
  EXPECT_NE(result.stderr_text.find("--input is required"), std::string::npos) << result.stderr_text;
}

TEST(Cli, WrongInputSizeNamesTheInputAndTheExpectedBytes) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 100);
  const std::string program = shared + "/models/tier1/tier1mean_arm.pte";
  const testing::CliResult result = testing::run_cli("run " + program + " --provider arm --input " + dir.path() +
                                                     "/in.bin --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "etns: " + program +
                                    ": input 0: 100 bytes given, expected 65536 (float32, 16384 elements) "
                                    "[InvalidArgument] (--input " + dir.path() + "/in.bin)\n");
  EXPECT_FALSE(std::ifstream(dir.path() + "/out.bin").good()) << "no output on failure";
}

TEST(Cli, NsProgramOnArmNamesEachMissingOperator) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 65536);
  const std::string program = shared + "/models/tier1/tier1mean_ns.pte";
  const testing::CliResult result = testing::run_cli("run " + program + " --provider arm --input " + dir.path() +
                                                     "/in.bin --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text,
            "etns: " + program + ": missing operator [1] cortex_m_ns::quantized_mean.out\n"
            "etns: " + program + ": method 'forward': 1 operator(s) missing from provider 'arm'; "
            "nothing was prepared [OperatorMissing]\n");
}

TEST(Cli, NotAProgramIsOneLine) {
  testing::TempDir dir;
  write_bytes(dir.path() + "/zeros.pte", 64);
  const testing::CliResult result = testing::run_cli("inspect " + dir.path() + "/zeros.pte");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "etns: " + dir.path() +
                                    "/zeros.pte: identifier '....' at offset 4: not an ExecuTorch program, "
                                    "expected 'ET12' [InvalidProgram]\n");
}

// A .tflite given to a command that takes a program points to `etns import`,
// on the host and for the QEMU target alike.
TEST(Cli, ATfliteModelWhereAProgramGoesNamesImport) {
  testing::TempDir dir;
  const std::vector<uint8_t> model = tools::tflite::write_tflite(tools::tflite::example_classifier());
  const std::string path = dir.path() + "/m.tflite";
  tools::write_file_atomic(path, model.data(), model.size());
  write_bytes(dir.path() + "/in.bin", 32);
  const std::string line =
      "etns: " + path + ": a TFLite model, not an ExecuTorch program: convert it first with 'etns import " + path +
      " -o <program>.pte'\n";
  for (const std::string& command :
       {"inspect " + path, "lower " + path + " -o " + dir.path() + "/x.pte",
        "run " + path + " --provider arm --input " + dir.path() + "/in.bin --output " + dir.path() + "/o.bin",
        "run " + path + " --provider arm --target qemu-m55 --input " + dir.path() + "/in.bin --output " + dir.path() +
            "/o.bin"}) {
    SCOPED_TRACE(command);
    const testing::CliResult result = testing::run_cli(command);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.stderr_text, line);
  }
}

TEST(Cli, NsProgramRunsOnNsAndWritesItsOutput) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 65536);
  const testing::CliResult result =
      testing::run_cli("run " + shared + "/models/tier1/tier1_ns.pte --provider ns --input " + dir.path() +
                       "/in.bin --output " + dir.path() + "/out.bin --dump-dir " + dir.path() + "/dump");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(testing::read_file(dir.path() + "/out.bin").size(), 65536u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_TRUE(std::ifstream(dir.path() + "/dump/c0i" + std::to_string(i) + ".bin").good()) << i;
  }
  EXPECT_EQ(result.stdout_text, "") << "stdout is a file: no summary line";
  EXPECT_EQ(result.stderr_text, "");
}

// "etns run: wrote OUT (65,536 B); provider ns, 0.123 ms on the host": the
// part before the timing, which varies.
std::string summary_prefix(const std::string& output) {
  return "etns run: wrote " + output + " (65,536 B); provider ns, ";
}

TEST(Cli, RunSummaryIsOneLineWhenAskedFor) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 65536);
  const std::string arguments = "run " + shared + "/models/tier1/tier1_ns.pte --provider ns --input " + dir.path() +
                                "/in.bin --output " + dir.path() + "/out.bin";
  const testing::CliResult always = testing::run_cli(arguments + " --summary always");
  ASSERT_EQ(always.exit_code, 0) << always.stderr_text;
  EXPECT_EQ(line_count(always.stdout_text), 1u) << always.stdout_text;
  EXPECT_EQ(always.stdout_text.rfind(summary_prefix(dir.path() + "/out.bin"), 0), 0u) << always.stdout_text;
  EXPECT_NE(always.stdout_text.find(" ms on the host\n"), std::string::npos) << always.stdout_text;

  const testing::CliResult never = testing::run_cli(arguments + " --summary never");
  ASSERT_EQ(never.exit_code, 0) << never.stderr_text;
  EXPECT_EQ(never.stdout_text, "");

  const testing::CliResult bad = testing::run_cli(arguments + " --summary sometimes");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(line_count(bad.stderr_text), 1u) << bad.stderr_text;
}

TEST(Cli, RunSummaryAppearsOnATerminalByItself) {
  ETNS_REQUIRE_SHARED(shared);
  if (!testing::terminal_available()) GTEST_SKIP() << "util-linux 'script' is not on PATH: no pseudo-terminal";
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 65536);
  const testing::CliResult result =
      testing::run_cli_on_terminal("run " + shared + "/models/tier1/tier1_ns.pte --provider ns --input " +
                                   dir.path() + "/in.bin --output " + dir.path() + "/out.bin");
  ASSERT_EQ(result.exit_code, 0) << result.stdout_text;
  EXPECT_EQ(result.stdout_text.rfind(summary_prefix(dir.path() + "/out.bin"), 0), 0u) << result.stdout_text;
  EXPECT_EQ(line_count(result.stdout_text), 1u) << result.stdout_text;
}

// On QEMU the summary leads with one execute() and says what the larger
// number is; a wrong-size input names the sizes as on the host.
TEST(Cli, QemuRunSummaryLeadsWithOneExecute) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  write_bytes(dir.path() + "/in.bin", 65536);
  const std::string program = shared + "/models/tier1/tier1_ns.pte";
  const testing::CliResult r = testing::run_cli("run " + program + " --provider ns --target qemu-m55 --input " +
                                                dir.path() + "/in.bin --output " + dir.path() +
                                                "/out.bin --summary always");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.rfind(summary_prefix(dir.path() + "/out.bin"), 0), 0u) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find(" instructions for one execute() on qemu-m55 (weighted "), std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("; the whole QEMU run, with boot, load, checks and every pass: "), std::string::npos)
      << r.stdout_text;

  write_bytes(dir.path() + "/short.bin", 16384);
  const testing::CliResult refused = testing::run_cli("run " + program + " --provider ns --target qemu-m55 --input " +
                                                      dir.path() + "/short.bin --output " + dir.path() + "/o.bin");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.stderr_text, "etns: " + program +
                                     ": input 0: 16384 bytes given, expected 65536 (float32, 16384 elements) "
                                     "[InvalidArgument]\n");
}

// `etns ops`: every operator of this build with the providers that bind it,
// and with --args each argument as its contract accepts it.
TEST(Cli, OpsListsEachOperatorItsProvidersAndArguments) {
  const testing::CliResult all = testing::run_cli("ops");
  ASSERT_EQ(all.exit_code, 0) << all.stderr_text;
  EXPECT_NE(all.stdout_text.find("cortex_m::quantized_conv2d.out            arm, ns\n"), std::string::npos)
      << all.stdout_text;
  EXPECT_NE(all.stdout_text.find("cortex_m_ns::quantized_sub.out            ns\n"), std::string::npos)
      << all.stdout_text;
  EXPECT_NE(all.stdout_text.find("aten::sub.out                             arm, ns\n"), std::string::npos)
      << all.stdout_text;

  const testing::CliResult arm = testing::run_cli("ops --provider arm --args");
  ASSERT_EQ(arm.exit_code, 0) << arm.stderr_text;
  EXPECT_EQ(arm.stdout_text.find("cortex_m_ns::"), std::string::npos) << arm.stdout_text;
  EXPECT_NE(arm.stdout_text.find("  0 input                     Tensor int8, 4-D, NHWC in memory\n"), std::string::npos)
      << arm.stdout_text;
  EXPECT_NE(arm.stdout_text.find("  2 bias                      Tensor or Null int32, one value per channel"),
            std::string::npos)
      << arm.stdout_text;

  const testing::CliResult json = testing::run_cli("ops --json");
  ASSERT_EQ(json.exit_code, 0) << json.stderr_text;
  const nlohmann::json doc = nlohmann::json::parse(json.stdout_text);
  EXPECT_EQ(doc["schema"], "etns.ops");
  size_t ns_only = 0;
  for (const nlohmann::json& op : doc["operators"]) ns_only += op["providers"] == nlohmann::json::array({"ns"}) ? 1 : 0;
  EXPECT_EQ(ns_only, 5u) << "the five cortex_m_ns:: kernels";
}

// `etns bench --tflite DIR` imports every model of DIR before any QEMU run; a
// folder that is missing or holds no model is one line, exit 2.
TEST(Cli, BenchTfliteFolderMustHoldModels) {
  testing::TempDir dir;
  testing::CliResult result =
      testing::run_cli("bench --models " + dir.path() + " --tflite " + dir.path() + "/nope --out " + dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: " + dir.path() + "/nope: no such folder (--tflite)\n");
  result = testing::run_cli("bench --models " + dir.path() + " --tflite " + dir.path() + " --out " + dir.path());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: " + dir.path() + ": no .tflite file in it (--tflite)\n");
}

TEST(Cli, HelpListsCommandsAndExamples) {
  const testing::CliResult result = testing::run_cli("run --help");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.stdout_text.find("--dump-dir"), std::string::npos);
  EXPECT_NE(result.stdout_text.find("Examples:"), std::string::npos);
}

TEST(Cli, MistypedCommandSuggestsTheClosestOne) {
  const testing::CliResult result = testing::run_cli("profiel --config x.yaml");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: unknown command 'profiel' (did you mean 'profile'?)\n");
  EXPECT_EQ(result.stdout_text, "");

  const testing::CliResult far = testing::run_cli("frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.stderr_text, "etns: unknown command 'frobnicate' (see 'etns --help')\n");
}

TEST(Cli, MistypedOptionSuggestsOneOfThatCommandsOptions) {
  const testing::CliResult profile = testing::run_cli("profile --confg x");
  EXPECT_EQ(profile.exit_code, 2);
  EXPECT_EQ(profile.stderr_text, "etns: profile: unknown option '--confg' (did you mean '--config'?)\n");

  const testing::CliResult compare = testing::run_cli("compare-programs --manfest x a b");
  EXPECT_EQ(compare.exit_code, 2);
  EXPECT_EQ(compare.stderr_text,
            "etns: compare-programs: unknown option '--manfest' (did you mean '--manifest'?)\n");

  const testing::CliResult top = testing::run_cli("--verison");
  EXPECT_EQ(top.exit_code, 2);
  EXPECT_EQ(top.stderr_text, "etns: unknown option '--verison' (did you mean '--version'?)\n");
}

TEST(Cli, HelpCommandPrintsTheTopLevelOrOneCommandsHelp) {
  const testing::CliResult top = testing::run_cli("help");
  EXPECT_EQ(top.exit_code, 0) << top.stderr_text;
  EXPECT_EQ(top.stdout_text, testing::run_cli("--help").stdout_text);
  EXPECT_NE(top.stdout_text.find("compare-programs"), std::string::npos) << top.stdout_text;

  const testing::CliResult run = testing::run_cli("help run");
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_EQ(run.stdout_text, testing::run_cli("run --help").stdout_text);

  const testing::CliResult wrong = testing::run_cli("help rnu");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(wrong.stderr_text, "etns: unknown command 'rnu' (did you mean 'run'?)\n");
}

TEST(Cli, EnumeratedValuesAreCheckedByOneRuleWithASuggestion) {
  const testing::CliResult provider = testing::run_cli("run x.pte --provider nss --input a --output b");
  EXPECT_EQ(provider.exit_code, 2);
  EXPECT_EQ(provider.stderr_text, "etns: --provider: 'nss': expected arm or ns (did you mean 'ns'?)\n");

  const testing::CliResult target = testing::run_cli("run x.pte --provider ns --target qemu --input a --output b");
  EXPECT_EQ(target.exit_code, 2);
  EXPECT_EQ(target.stderr_text, "etns: --target: 'qemu': expected host or qemu-m55 (did you mean 'qemu-m55'?)\n");

  const testing::CliResult summary =
      testing::run_cli("run x.pte --provider ns --summary sometimes --input a --output b");
  EXPECT_EQ(summary.exit_code, 2);
  EXPECT_EQ(summary.stderr_text, "etns: --summary: 'sometimes': expected auto, always or never\n");

  const testing::CliResult inspect = testing::run_cli("inspect x.pte --provider cmsis");
  EXPECT_EQ(inspect.exit_code, 2);
  EXPECT_EQ(inspect.stderr_text, "etns: --provider: 'cmsis': expected arm or ns\n");
}

TEST(Cli, VersionLongAndShort) {
  for (const char* flag : {"--version", "-V"}) {
    const testing::CliResult result = testing::run_cli(flag);
    EXPECT_EQ(result.exit_code, 0) << flag;
    EXPECT_EQ(result.stdout_text, "etns " ETNS_VERSION "\n") << flag;
    EXPECT_EQ(result.stderr_text, "") << flag;
  }
}

}  // namespace
}  // namespace etns
