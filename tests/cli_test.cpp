// The CLI's contract: results on stdout, one clear line per problem on stderr,
// exit 0 / 1 (failed run) / 2 (usage).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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
  EXPECT_EQ(result.exit_code, 2) << "a missing input is a usage error";
  EXPECT_EQ(result.stderr_text, "etns: cannot read " + dir.path() + "/nope.pte: no such file\n");
}

// A missing program (model, image) is what a command names, whatever else its
// command line holds, other missing files among them: one line, exit 2, and
// nothing written. `etns run nope.pte --input x.bin` once said "cannot read x.bin".
TEST(Cli, AMissingProgramIsNamedWhateverElseIsGiven) {
  testing::TempDir dir;
  const std::string d = dir.path();
  write_bytes(d + "/in.bin", 16);
  const std::string pte = d + "/nope.pte";
  const std::string tflite = d + "/nope.tflite";
  const std::string absent = d + "/x.bin";  // also missing: never the one named
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + pte + " --provider arm --input " + absent + " --output " + d + "/out.bin", pte},
      {"run " + pte + " --provider arm --input " + d + "/in.bin --output " + d + "/out.bin", pte},
      {"run " + pte + " --provider ns --input " + absent + " --input " + d + "/y.bin --output " + d +
           "/out.bin --dump-dir " + d + "/dump",
       pte},
      {"run " + pte + " --target qemu-m55 --provider arm --input " + absent + " --output " + d + "/out.bin --firmware " +
           d + "/none.elf --counts " + d + "/counts.json",
       pte},
      {"run " + pte + " --provider arm --inputs " + d + "/clips --outputs " + d + "/scores --labels " + d + "/l.txt", pte},
      {"import " + tflite + " -o " + d + "/out.pte --report " + d + "/r.md", tflite},
      {"import " + tflite + " -o " + d + "/out.pte --provider ns --json", tflite},
      {"inspect " + pte, pte},
      {"inspect " + pte + " --provider ns --json", pte},
      {"lower " + pte + " -o " + d + "/out.pte --report " + d + "/r.md --input " + absent, pte},
      {"kernels " + pte + " " + d + "/other.pte --cmake " + d + "/s.cmake --header " + d + "/s.h", pte},
      {"compare-tensors " + tflite + " " + d + "/dump " + d + "/reference", tflite},
      {"verify-kernels --provider arm --programs " + pte + " -- " + ETNS_CLI_PATH, pte},
      {"verify-kernels --provider arm --programs " + d + "/in.bin -- " + d + "/nope.elf", d + "/nope.elf"},
      {"size " + d + "/nope.elf", d + "/nope.elf"},
  };
  for (const auto& [arguments, missing] : cases) {
    SCOPED_TRACE(arguments);
    const testing::CliResult result = testing::run_cli(arguments);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.stderr_text, "etns: cannot read " + missing + ": no such file\n");
    EXPECT_EQ(result.stdout_text, "");
  }
  for (const char* written : {"out.bin", "out.pte", "r.md", "s.cmake", "s.h", "counts.json", "dump", "scores"}) {
    EXPECT_FALSE(std::filesystem::exists(d + "/" + written)) << written;
  }

  // profile's program is model.path, in the configuration's own words (exit 2 as for every key).
  std::ofstream(d + "/profile.yaml") << "model:\n  path: nope.pte\n";
  for (const std::string& arguments :
       {"profile --config " + d + "/profile.yaml --input " + absent + " --out " + d + "/bundle",
        "profile --config " + d + "/profile.yaml --set model.path=" + pte + " --input " + absent + " --out " + d +
            "/bundle"}) {
    SCOPED_TRACE(arguments);
    const testing::CliResult result = testing::run_cli(arguments);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(line_count(result.stderr_text), 1u) << result.stderr_text;
    EXPECT_NE(result.stderr_text.find("model.path: " + pte + ": no such file\n"), std::string::npos)
        << result.stderr_text;
    EXPECT_EQ(result.stderr_text.find(absent), std::string::npos) << result.stderr_text;
    EXPECT_FALSE(std::filesystem::exists(d + "/bundle"));
  }

  // compare-programs (and compare) read two bundles, then the manifest (policy).
  for (const std::string command : {"compare-programs", "compare"}) {
    const testing::CliResult result = testing::run_cli(command + " " + d + "/tier1_arm " + d + "/tier1_ns " +
                                                       (command == "compare" ? "--policy " : "--manifest ") + absent);
    EXPECT_EQ(result.exit_code, 2) << command;
    EXPECT_EQ(result.stderr_text, "etns: " + d + "/tier1_arm: no such folder (the baseline bundle)\n") << command;
  }
}

// Every command that reads a file or folder gives exit 2 when one is missing,
// in one line naming it (README.md, "Exit codes").
TEST(Cli, EveryCommandGivesExitTwoForAMissingInput) {
  testing::TempDir dir;
  const std::string d = dir.path();
  // Files that exist: a program's bytes are not read before every file named is checked.
  write_bytes(d + "/some.pte", 64);
  write_bytes(d + "/in.bin", 16);
  std::filesystem::create_directories(d + "/empty_a");
  std::filesystem::create_directories(d + "/empty_b");
  // A program of one input, for a list of inputs that names a missing file.
  const std::vector<uint8_t> model = tools::tflite::write_tflite(tools::tflite::example_classifier());
  tools::write_file_atomic(d + "/m.tflite", model.data(), model.size());
  ASSERT_EQ(testing::run_cli("import " + d + "/m.tflite -o " + d + "/m.pte").exit_code, 0);
  std::ofstream(d + "/list.txt") << "gone.bin\n";
  std::ofstream(d + "/profile.yaml") << "model:\n  path: some.pte\n";
  const std::string gone = d + "/gone";  // each case's missing file or folder starts so
  const std::vector<std::string> cases = {
      "inspect " + gone + ".pte",
      "run " + d + "/some.pte --provider arm --input " + gone + ".bin --output " + d + "/o.bin",
      "run " + d + "/some.pte --provider arm --target qemu-m55 --input " + d + "/in.bin --output " + d +
          "/o.bin --firmware " + gone + ".elf",
      "run " + d + "/m.pte --provider arm --inputs " + d + "/list.txt --outputs " + d + "/scores",
      "run " + d + "/m.pte --provider arm --inputs " + gone + " --outputs " + d + "/scores",
      "run " + d + "/m.pte --provider arm --inputs " + d + "/empty_a --labels " + gone + ".txt",
      "profile --config " + gone + ".yaml",
      "profile --config " + d + "/profile.yaml --set model.path=" + gone + ".pte",
      "compare " + gone + " " + d + "/empty_b",
      "compare " + d + "/empty_a " + d + "/empty_b --policy " + gone + ".yaml",
      "compare-programs " + d + "/empty_a " + gone,
      "compare-programs " + d + "/empty_a " + d + "/empty_b --manifest " + gone + ".json",
      "verify-kernels --provider arm " + gone + ".elf",
      "verify-kernels --provider arm --programs " + gone + ".pte -- " + ETNS_CLI_PATH,
      "size " + gone + ".elf",
      "kernels " + d + "/some.pte " + gone + ".pte",
      "reproduce --target host --models " + gone + " --out " + d + "/evidence",
      "reproduce --target host --golden " + gone + " --out " + d + "/evidence",
      "bench " + gone + ".pte --out " + d + "/bench",
      "bench --baseline " + gone + ".json --out " + d + "/bench",
      "bench --image " + gone + ".elf --out " + d + "/bench",
      "lower " + gone + ".pte -o " + d + "/o.pte",
      "lower " + d + "/some.pte -o " + d + "/o.pte --report " + d + "/r.md --input " + gone + ".bin",
      "import " + gone + ".tflite -o " + d + "/o.pte",
      "compare-tensors " + gone + ".tflite " + d + "/empty_a " + d + "/empty_b",
      "compare-tensors " + d + "/m.tflite " + gone + " " + d + "/empty_b",
  };
  for (const std::string& arguments : cases) {
    SCOPED_TRACE(arguments);
    const testing::CliResult result = testing::run_cli(arguments);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(line_count(result.stderr_text), 1u) << result.stderr_text;
    EXPECT_NE(result.stderr_text.find(gone), std::string::npos) << result.stderr_text;
  }
  for (const char* written : {"o.bin", "o.pte", "r.md", "scores", "evidence", "bench"}) {
    EXPECT_FALSE(std::filesystem::exists(d + "/" + written)) << written;
  }
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
  EXPECT_NE(r.stdout_text.find(" instructions and "), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find(" estimated cycles (LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55; board profile "
                               "an547: no wait states) for one execute() on qemu-m55 (weighted "),
            std::string::npos)
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
