// The evidence commands end to end through the real CLI: profile (host and
// QEMU), its bundles, compare, compare-programs and reproduce.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/shared_data.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"
#include "tools/common/text.h"
#include "tools/evidence/config/config.h"
#include "tools/evidence/config/config_keys.h"
#include "tools/evidence/runner/model_facts.h"

namespace etns {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

json read_json(const std::string& path) {
  const std::vector<uint8_t> bytes = testing::read_file(path);
  return json::parse(bytes.begin(), bytes.end());
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

size_t lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

std::string model(const std::string& shared, const std::string& name) {
  return shared + "/models/tier1/" + name + ".pte";
}

// A profile through the CLI from the shipped configuration of `program`.
testing::CliResult profile(const std::string& program, const std::string& target, const std::string& out,
                           const std::string& extra = "") {
  std::string command = "profile --config " + std::string(ETNS_SOURCE_DIR) + "/configs/" + program + ".yaml --out " +
                        out + " --set profiling.iterations=3 --set profiling.warmup=1";
  if (target == "host") {
    command += " --set target.board=host --set profiling.pmu_counters.mve=null --set profiling.pmu_counters.memory=null";
  }
  return testing::run_cli(command + extra);
}

json manifest_instructions(const std::string& shared, const std::string& program) {
  const json manifest = read_json(shared + "/models/tier1/tier1_manifest.json");
  const std::string name = program.substr(0, program.rfind('_'));
  const std::string provider = program.substr(program.rfind('_') + 1);
  return manifest["models"][name]["providers"][provider]["instructions"];
}

// Every file the manifest declares exists with its size and SHA-256.
void expect_verified_bundle(const std::string& dir, const std::string& status = "complete") {
  const json manifest = read_json(dir + "/manifest.json");
  EXPECT_EQ(manifest["schema"], "etns.result-manifest");
  EXPECT_EQ(manifest["status"], status);
  for (const json& artifact : manifest["artifacts"]) {
    const std::vector<uint8_t> bytes = testing::read_file(dir + "/" + artifact["path"].get<std::string>());
    EXPECT_EQ(bytes.size(), artifact["size_bytes"].get<size_t>()) << artifact["path"];
    EXPECT_EQ(tools::sha256_hex(bytes.data(), bytes.size()), artifact["sha256"]) << artifact["path"];
  }
}

TEST(ProfileConfigCli, EveryErrorClassIsOneLineAndExitTwo) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string config = dir.path() + "/c.yaml";
  struct Case {
    std::string yaml;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"model: {path: " + model(shared, "tier1_arm") + "}\nprofiling: {iteratons: 3}\n",
       "etns: config error: " + config + ": profiling.iteratons: unknown key (did you mean 'iterations'?)\n"},
      {"model: {path: " + model(shared, "tier1_arm") + "}\nprofiling: {iterations: abc}\n",
       "etns: config error: " + config + ": profiling.iterations: expected a positive integer, got 'abc'\n"},
      {"model: {path: " + model(shared, "tier1_arm") + "}\nprofiling: {iterations: 0}\n",
       "etns: config error: " + config + ": profiling.iterations: expected a positive integer, got 0\n"},
      {"profiling: {iterations: 3}\n", ""},  // no model: checked by prefix below
      {"model: {path: " + dir.path() + "/none.pte}\n", ""},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].yaml);
    write_text(config, cases[i].yaml);
    const testing::CliResult result = testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(lines(result.stderr_text), 1u) << result.stderr_text;
    if (!cases[i].message.empty()) {
      EXPECT_EQ(result.stderr_text, cases[i].message);
    } else {
      const std::string start = "etns: config error: " + config + ": model.path: ";
      EXPECT_EQ(result.stderr_text.rfind(i == 3 ? start + "missing" : start, 0), 0u)
          << result.stderr_text;
    }
    EXPECT_FALSE(fs::exists(dir.path() + "/b")) << "no bundle for a bad config";
  }
}

TEST(ProfileConfigCli, ListKeysNeedsNoConfigAndPrintsTheKeyTable) {
  const testing::CliResult markdown = testing::run_cli("profile --list-keys --markdown");
  EXPECT_EQ(markdown.exit_code, 0) << markdown.stderr_text;
  EXPECT_EQ(markdown.stdout_text, tools::key_reference_markdown());
  const testing::CliResult text = testing::run_cli("profile --list-keys");
  EXPECT_EQ(text.exit_code, 0) << text.stderr_text;
  EXPECT_EQ(text.stdout_text, tools::key_listing_text());
  const testing::CliResult help = testing::run_cli("profile --help");
  EXPECT_NE(help.stdout_text.find("--list-keys"), std::string::npos) << help.stdout_text;
  const testing::CliResult bare = testing::run_cli("profile");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(bare.stderr_text, "etns: profile: --config is required (or --list-keys)\n");
  const testing::CliResult device = testing::run_cli("profile --config /dev/zero");
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_EQ(device.stderr_text,
            "etns: config error: /dev/zero: cannot read (a character device, not a regular file)\n");
}

TEST(ProfileConfigCli, ShippedConfigsLoadWithTheEvidenceSettings) {
  ETNS_REQUIRE_SHARED(shared);
  for (const char* name : {"tier1_arm", "tier1_ns", "tier1mean_arm", "tier1mean_ns"}) {
    SCOPED_TRACE(name);
    const tools::ProfileConfig config = tools::load_profile_config(
        std::string(ETNS_SOURCE_DIR) + "/configs/" + name + ".yaml", {"model.path=" + model(shared, name)},
        tools::read_model_facts);
    EXPECT_EQ(config.target, "qemu-m55");
    EXPECT_EQ(config.iterations, 25);
    EXPECT_EQ(config.warmup, 5);
    EXPECT_EQ(config.groups, (std::vector<std::string>{"cpu", "mve", "memory"}));
    EXPECT_TRUE(config.detailed);
  }
}

TEST(Profile, HostBundlesOfEveryProgramAreValidAndFollowItsInstructions) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  for (const char* program : {"tier1_arm", "tier1_ns", "tier1mean_arm", "tier1mean_ns"}) {
    SCOPED_TRACE(program);
    const std::string out = dir.path() + "/" + program;
    const testing::CliResult result = profile(program, "host", out, " --set model.path=" + model(shared, program));
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    // The clean figure, then the verdict: the run's last two lines.
    EXPECT_TRUE(std::regex_match(result.stdout_text,
                                 std::regex("clean end to end: [0-9,]+ ns for one execute\\(\\) \\(WALL_NS, median of 3 on "
                                            "host; spread ±[0-9.]+% = 3 MAD, min [0-9,]+, max [0-9,]+ ns\\)\nvalid: .*\n")))
        << result.stdout_text;
    expect_verified_bundle(out);
    const json summary = read_json(out + "/summary.json");
    EXPECT_EQ(summary["validity"], "valid");
    EXPECT_EQ(summary["metric"]["name"], "WALL_NS");
    EXPECT_GT(summary["clean_end_to_end"]["value"].get<double>(), 0);
    const json layers = read_json(out + "/profile_results.json")["layers"];
    const json want = manifest_instructions(shared, program);
    ASSERT_EQ(layers.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(layers[i]["id"], want[i]["id"]);
      EXPECT_EQ(layers[i]["op"], "OPERATOR_CALL:" + want[i]["id"].get<std::string>());
      EXPECT_EQ(layers[i]["operator"], want[i]["op"]);
      EXPECT_EQ(layers[i]["counters"]["WALL_NS"]["samples"], 3);
    }
    EXPECT_TRUE(fs::exists(out + "/detailed/profile_cpu.csv"));
    EXPECT_TRUE(fs::exists(out + "/report.md"));
  }
}

TEST(Profile, QemuBundlesAreValidAndIdenticalRunToRun) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  for (const char* program : {"tier1_arm", "tier1_ns", "tier1mean_arm", "tier1mean_ns"}) {
    SCOPED_TRACE(program);
    const std::string first = dir.path() + "/" + program + ".1";
    const std::string second = dir.path() + "/" + program + ".2";
    const testing::CliResult run = profile(program, "qemu", first, " --set model.path=" + model(shared, program));
    ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
    ASSERT_EQ(profile(program, "qemu", second, " --set model.path=" + model(shared, program)).exit_code, 0);
    expect_verified_bundle(first);
    const json summary = read_json(first + "/summary.json");
    // The headline is the clean figure itself: exact counts, no spread.
    EXPECT_EQ(run.stdout_text.substr(0, run.stdout_text.find('\n')),
              "clean end to end: " + tools::format_count(summary["clean_end_to_end"]["value"].get<double>()) +
                  " instructions for one execute() (INST_RETIRED, median of 3 on qemu-m55)");
    EXPECT_EQ(summary["validity"], "valid");
    EXPECT_EQ(summary["metric"]["name"], "INST_RETIRED");
    EXPECT_EQ(summary["metric"]["unit"], "instructions");
    const json results = read_json(first + "/profile_results.json");
    const json want = manifest_instructions(shared, program);
    ASSERT_EQ(results["layers"].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(results["layers"][i]["operator"], want[i]["op"]);
    for (const char* file : {"profile_results.json", "detailed/profile_cpu.csv", "detailed/profile_mve.csv",
                             "detailed/profile_memory.csv"}) {
      EXPECT_EQ(testing::read_file(first + "/" + file), testing::read_file(second + "/" + file))
          << file << " differs between two runs";
    }
    const std::vector<uint8_t> csv = testing::read_file(first + "/detailed/profile_cpu.csv");
    const std::string header(csv.begin(), std::find(csv.begin(), csv.end(), '\n'));
    EXPECT_EQ(header, "id,op,operator,INST_RETIRED,BR_RETIRED,LE_RETIRED,FP_RETIRED,CPU_CYCLES,pct,cycles,cycles_pct");
    // The board profiler's cycle keys, filled from the plugin's estimate and said to be one.
    ASSERT_TRUE(summary["cycles"].is_object());
    EXPECT_EQ(summary["cycles"]["estimated"], true);
    EXPECT_GT(summary["cycles"]["clean_end_to_end"]["value"].get<double>(), 0);
    EXPECT_NE(summary["cycles"]["clean_end_to_end"]["value"], summary["clean_end_to_end"]["value"])
        << "estimated cycles, not the instruction count";
    const json metadata = read_json(first + "/run_metadata.json");
    const std::string cycle_model = metadata["cycles"]["model"].get<std::string>();
    EXPECT_EQ(cycle_model.rfind("LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55", 0), 0u) << cycle_model;
    EXPECT_GT(results["layers"][0]["cycles"].get<double>(), 0);
  }
}

TEST(Profile, AFailedLoadStillWritesAnInvalidBundleAndExitsOne) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string out = dir.path() + "/bundle";
  const testing::CliResult result =
      profile("tier1_ns", "qemu", out,
              " --set model.path=" + model(shared, "tier1_ns") + " --set engine.backend=arm --set engine.config.ns_ops=false");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.stderr_text.find("missing operator [2] cortex_m_ns::quantized_hardswish.out"), std::string::npos)
      << result.stderr_text;
  expect_verified_bundle(out, "failed");
  const json summary = read_json(out + "/summary.json");
  EXPECT_EQ(summary["validity"], "invalid");
  EXPECT_EQ(summary["issues"][0]["code"], "run.load_failed");
}

// Every finding of a refused run is printed, each with its issue code: three
// missing portable kernels are three lines, not the first one only. Runs on
// etns's own export, so nothing outside the repository is needed.
TEST(Profile, ARefusedRunPrintsEveryFindingWithItsCode) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_cli("export --out " + dir.path() + "/export").exit_code, 0);
  const std::string program = dir.path() + "/export/tier1_arm.pte";
  const testing::CliResult result = profile("export_tier1_arm", "host", dir.path() + "/bundle",
                                            " --set model.path=" + program + " --set engine.config.portable_ops=[]");
  EXPECT_EQ(result.exit_code, 1);
  const std::string normalised = fs::absolute(program).lexically_normal().string();
  const std::string why =
      "the program calls it and engine.config.portable_ops leaves it out (drop the key to use the program's own "
      "set)\n";
  EXPECT_EQ(result.stderr_text,
            "etns: " + normalised + ": error run.load_failed: missing operator aten::leaky_relu.out: " + why +
            "etns: " + normalised + ": error run.load_failed: missing operator aten::sub.out: " + why +
            "etns: " + normalised + ": error run.load_failed: missing operator aten::clamp.out: " + why);
  // in the program's operator-table order
  EXPECT_EQ(read_json(dir.path() + "/bundle/summary.json")["issues"].size(), 3u);
}

// etns export's application model calls aten::view_copy.out, which no
// config lists: the program's own portable operators are the default, and
// the bundle records them and where they came from.
TEST(Profile, AProgramProfilesWithItsOwnPortableOperators) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_cli("export --out " + dir.path() + "/export").exit_code, 0);
  const std::string config = dir.path() + "/dscnn.yaml";
  write_text(config, "model: {path: export/dscnn_arm.pte}\ntarget: {board: host}\n"
                     "profiling: {iterations: 2, warmup: 0}\n");
  const testing::CliResult result = testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  const json metadata = read_json(dir.path() + "/b/run_metadata.json");
  EXPECT_EQ(metadata["provider"]["portable_ops"], json({"aten::view_copy.out"}));
  EXPECT_EQ(metadata["provider"]["portable_ops_source"], "program");
  EXPECT_EQ(metadata["config"]["engine"]["config"]["portable_ops"], json({"aten::view_copy.out"}));
  EXPECT_EQ(metadata["inputs"], json::parse(R"([{"file": null, "size_bytes": 1960, "sha256": "zeros"}])"));

  // A set given in the config that leaves the operator out fails, naming it.
  const testing::CliResult left_out = testing::run_cli("profile --config " + config + " --out " + dir.path() +
                                                       "/c --set engine.config.portable_ops=[aten::sub.out]");
  EXPECT_EQ(left_out.exit_code, 1);
  EXPECT_EQ(left_out.stderr_text, "etns: " + dir.path() +
                                      "/export/dscnn_arm.pte: error run.load_failed: missing operator "
                                      "aten::view_copy.out: the program calls it and engine.config.portable_ops "
                                      "leaves it out (drop the key to use the program's own set)\n");
  EXPECT_EQ(read_json(dir.path() + "/c/run_metadata.json")["provider"]["portable_ops_source"], "config");
}

// --input and profiling.input: a file of the wrong size is one line, exit 2
// and no bundle; the right one runs, its SHA-256 in the bundle.
TEST(Profile, InputFilesAreCheckedAndTheirHashRecorded) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_cli("export --out " + dir.path() + "/export").exit_code, 0);
  const std::string config = dir.path() + "/dscnn.yaml";
  write_text(config, "model: {path: export/dscnn_arm.pte}\ntarget: {board: host}\n"
                     "profiling: {iterations: 2, warmup: 0, input: export/tier1.input.bin}\n");
  const std::string wrong = dir.path() + "/export/tier1.input.bin";
  const std::string expects = ": 65,536 bytes given, input 0 of dscnn_arm.pte expects 1,960 (float32, 490 elements)\n";
  const testing::CliResult key = testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b");
  EXPECT_EQ(key.exit_code, 2);
  EXPECT_EQ(key.stderr_text, "etns: config error: " + config + ": profiling.input: " + wrong + expects);
  EXPECT_EQ(key.stdout_text, "");
  EXPECT_FALSE(fs::exists(dir.path() + "/b"));

  const std::string right = dir.path() + "/export/dscnn.input.bin";
  const testing::CliResult option =
      testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b --input " + wrong);
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_EQ(option.stderr_text, "etns: config error: override 'profiling.input=[\"" + wrong +
                                    "\"]': profiling.input: " + wrong + expects);
  EXPECT_FALSE(fs::exists(dir.path() + "/b"));

  // --input overrides the key.
  const testing::CliResult ok =
      testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b --input " + right);
  ASSERT_EQ(ok.exit_code, 0) << ok.stderr_text;
  const std::vector<uint8_t> bytes = testing::read_file(right);
  const json input = read_json(dir.path() + "/b/run_metadata.json")["inputs"];
  ASSERT_EQ(input.size(), 1u);
  EXPECT_EQ(input[0]["file"], right);
  EXPECT_EQ(input[0]["size_bytes"], 1960);
  EXPECT_EQ(input[0]["sha256"], tools::sha256_hex(bytes.data(), bytes.size()));
  const std::vector<uint8_t> report = testing::read_file(dir.path() + "/b/report.md");
  EXPECT_NE(std::string(report.begin(), report.end()).find(input[0]["sha256"].get<std::string>()), std::string::npos);
}

// Every configuration error in one run, one line each; a key that changes
// nothing on the target warns and the run goes on.
TEST(ProfileConfigCli, EveryErrorIsReportedAndKeysWithoutEffectWarn) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_cli("export --out " + dir.path() + "/export").exit_code, 0);
  const std::string config = dir.path() + "/c.yaml";
  write_text(config, "model: {path: export/tier1mean_ns.pte, arena_sise: 3}\n"
                     "profiling: {iterations: 0, aggregation: mode}\n");
  const testing::CliResult three = testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b");
  EXPECT_EQ(three.exit_code, 2);
  EXPECT_EQ(three.stderr_text,
            "etns: config error: " + config + ": model.arena_sise: unknown key (did you mean 'arena_size'?)\n"
            "etns: config error: " + config + ": profiling.iterations: expected a positive integer, got 0\n"
            "etns: config error: " + config + ": profiling.aggregation: expected one of median, mean, trimmed, got "
            "'mode'\n");
  EXPECT_FALSE(fs::exists(dir.path() + "/b"));

  write_text(config, "model: {path: export/tier1mean_arm.pte}\ntarget: {board: host, jlink_serial: 1234}\n"
                     "profiling: {iterations: 2, warmup: 0}\ntimeouts: {run: 60}\n");
  const testing::CliResult warned = testing::run_cli("profile --config " + config + " --out " + dir.path() + "/b");
  EXPECT_EQ(warned.exit_code, 0) << warned.stderr_text;
  EXPECT_EQ(warned.stderr_text,
            "etns: warning: " + config + ": target.jlink_serial: has no effect on target host; ignored\n"
            "etns: warning: " + config + ": timeouts.run: has no effect on target host; ignored\n");
}

// Following a config's own comment (--set target.board=host) must not
// replace the QEMU bundle beside it: refused before measuring, bundle intact.
TEST(Profile, AHostRunNeverReplacesAQemuBundle) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_cli("export --out " + dir.path() + "/export").exit_code, 0);
  const std::string out = dir.path() + "/results/tier1mean_ns";
  fs::create_directories(out);
  tools::write_file_atomic(out + "/manifest.json", "{}");
  tools::write_file_atomic(out + "/summary.json", "{\"target\": \"qemu-m55\"}");
  const testing::CliResult result =
      testing::run_cli("profile --config " + std::string(ETNS_SOURCE_DIR) +
                       "/configs/export_tier1mean_ns.yaml --set target.board=host --set model.path=" + dir.path() +
                       "/export/tier1mean_ns.pte --out " + out);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: output.dir " + out +
                                    " holds a qemu-m55 bundle and this run is on host: give it its own folder "
                                    "(--out DIR or output.dir) rather than replace it\n");
  EXPECT_EQ(result.stdout_text, "");
  EXPECT_EQ(testing::read_file(out + "/summary.json").size(), 22u) << "untouched";
  // Its own folder works, with the host's default counters and no --set for the device groups.
  const testing::CliResult own =
      testing::run_cli("profile --config " + std::string(ETNS_SOURCE_DIR) +
                       "/configs/export_tier1mean_ns.yaml --set target.board=host --set profiling.iterations=2 "
                       "--set profiling.warmup=0 --set model.path=" + dir.path() + "/export/tier1mean_ns.pte --out " +
                       out + "-host");
  EXPECT_EQ(own.exit_code, 0) << own.stderr_text;
  EXPECT_EQ(read_json(out + "-host/summary.json")["target"], "host");
}

// What an embedded user checks first, in summary.json: the firmware image's
// sizes and every memory region with its capacity and use.
TEST(Profile, SummaryGivesTheImageSizesAndTheMemoryPlan) {
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  ASSERT_EQ(testing::run_cli("export --out " + dir.path() + "/export").exit_code, 0);
  const testing::CliResult result =
      testing::run_cli("profile --config " + std::string(ETNS_SOURCE_DIR) +
                       "/configs/export_tier1mean_ns.yaml --set profiling.iterations=2 --set profiling.warmup=0 "
                       "--set model.path=" + dir.path() + "/export/tier1mean_ns.pte --out " + dir.path() + "/bundle");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  const json summary = read_json(dir.path() + "/bundle/summary.json");
  const json& binary = summary["binary"];
  EXPECT_EQ(binary["image"], "etns_m55_ns.elf");
  EXPECT_GT(binary["text"].get<uint64_t>(), 10000u);
  EXPECT_EQ(binary["total"].get<uint64_t>(),
            binary["text"].get<uint64_t>() + binary["data"].get<uint64_t>() + binary["bss"].get<uint64_t>());
  std::map<std::string, json> regions;
  for (const json& r : summary["memory_plan"]) regions[r["region"].get<std::string>()] = r;
  for (const char* name : {"pte_program", "planned_arena", "method_arena", "temporary_arena", "input_buffer",
                           "output_buffer"}) {
    EXPECT_EQ(regions.count(name), 1u) << name;
  }
  EXPECT_EQ(regions["planned_arena"]["used"], 81920);
  EXPECT_EQ(regions["planned_arena"]["capacity"], 81920);
  EXPECT_EQ(regions["method_arena"]["used"], summary["memory"]["method_arena_used"]);
  EXPECT_EQ(regions["method_arena"]["free"].get<uint64_t>(),
            regions["method_arena"]["capacity"].get<uint64_t>() - regions["method_arena"]["used"].get<uint64_t>());
  EXPECT_EQ(regions["output_buffer"]["used"], 64);
  EXPECT_FALSE(regions["pte_program"]["overflow"].get<bool>());
  EXPECT_TRUE(regions["pte_program"]["capacity"].is_null());
}

TEST(Profile, AnArenaTooSmallForTheLoadIsAnInvalidRunNamedOnStderr) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string out = dir.path() + "/bundle";
  const std::string program = model(shared, "tier1mean_ns");
  const testing::CliResult result =
      profile("tier1mean_ns", "qemu", out, " --set model.path=" + program + " --set engine.config.method_arena_size=1000");
  EXPECT_EQ(result.exit_code, 1);
  const std::string normalised = fs::absolute(program).lexically_normal().string();  // as the config resolves it
  EXPECT_EQ(result.stderr_text, "etns: " + normalised +
                                    ": error memory.method_arena_too_small: the method arena is 1000 bytes, "
                                    "the load used 1400\n");
  const std::string verdict = result.stdout_text.substr(result.stdout_text.find('\n') + 1);
  EXPECT_EQ(verdict.rfind("invalid: tier1mean_ns.pte on qemu-m55, ns: bundle ", 0), 0u) << result.stdout_text;
  expect_verified_bundle(out);
  EXPECT_EQ(read_json(out + "/summary.json")["validity"], "invalid");
}

// One rule for both targets: the host measures the method arena in the
// Cortex-M55's layout and refuses the same too-small arena with the same line.
TEST(Profile, TheHostRefusesTheSameTooSmallMethodArenaAsQemu) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string program = model(shared, "tier1mean_ns");
  const std::string normalised = fs::absolute(program).lexically_normal().string();
  for (const int64_t arena : {1, 1000}) {
    const std::string out = dir.path() + "/host-" + std::to_string(arena);
    const testing::CliResult result = profile("tier1mean_ns", "host", out,
                                              " --set model.path=" + program +
                                                  " --set engine.config.method_arena_size=" + std::to_string(arena));
    EXPECT_EQ(result.exit_code, 1) << arena;
    EXPECT_EQ(result.stderr_text, "etns: " + normalised + ": error memory.method_arena_too_small: the method arena is " +
                                      std::to_string(arena) + " bytes, the load used 1400\n");
    EXPECT_EQ(read_json(out + "/summary.json")["validity"], "invalid");
  }
  const testing::CliResult enough = profile("tier1mean_ns", "host", dir.path() + "/host-1400",
                                            " --set model.path=" + program + " --set engine.config.method_arena_size=1400");
  EXPECT_EQ(enough.exit_code, 0) << enough.stderr_text;
}

TEST(Profile, NeverReplacesAFolderThatIsNotABundle) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string out = dir.path() + "/mine";
  fs::create_directories(out);
  write_text(out + "/notes.txt", "precious");
  const testing::CliResult result = profile("tier1mean_ns", "host", out, " --set model.path=" + model(shared, "tier1mean_ns"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.stderr_text.find("exists and is not an etns bundle"), std::string::npos) << result.stderr_text;
  EXPECT_TRUE(fs::exists(out + "/notes.txt"));
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename(), "mine") << "left behind: " << entry.path();
  }
}

// Rewrites a bundle file and its manifest entry, as a re-run would have.
void rewrite_in_bundle(const std::string& dir, const std::string& file, const json& content) {
  const std::string text = content.dump(2) + "\n";
  write_text(dir + "/" + file, text);
  json manifest = read_json(dir + "/manifest.json");
  for (json& artifact : manifest["artifacts"]) {
    if (artifact["path"] == file) {
      artifact["size_bytes"] = text.size();
      artifact["sha256"] = tools::sha256_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    }
  }
  write_text(dir + "/manifest.json", manifest.dump(2) + "\n");
}

TEST(Compare, SameProgramComparesAndGatesOnTheThreshold) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b";
  ASSERT_EQ(profile("tier1mean_ns", "qemu", a, " --set model.path=" + model(shared, "tier1mean_ns")).exit_code, 0);
  ASSERT_EQ(profile("tier1mean_ns", "qemu", b, " --set model.path=" + model(shared, "tier1mean_ns")).exit_code, 0);

  const testing::CliResult same = testing::run_cli("compare " + a + " " + b + " --threshold 0");
  EXPECT_EQ(same.exit_code, 0) << same.stderr_text;
  EXPECT_NE(same.stdout_text.find("| clean_end_to_end | instructions |"), std::string::npos) << same.stdout_text;
  EXPECT_NE(same.stdout_text.find("No regression beyond +0%."), std::string::npos);
  const testing::CliResult as_json = testing::run_cli("compare " + a + " " + b + " --json");
  ASSERT_EQ(as_json.exit_code, 0);
  const json doc = json::parse(as_json.stdout_text);
  EXPECT_EQ(doc["layers"].size(), 3u);
  EXPECT_EQ(doc["layers"][1]["delta"], 0.0);

  // The candidate's mean kernel now executes 10 % more instructions.
  json results = read_json(b + "/profile_results.json");
  const double before = results["layers"][1]["value"].get<double>();
  results["layers"][1]["value"] = before * 1.1;
  rewrite_in_bundle(b, "profile_results.json", results);
  const testing::CliResult slower = testing::run_cli("compare " + a + " " + b + " --threshold 5");
  EXPECT_EQ(slower.exit_code, 1);
  EXPECT_NE(slower.stderr_text.find("etns: regression: c0i1 cortex_m_ns::quantized_mean.out: "), std::string::npos)
      << slower.stderr_text;
  EXPECT_EQ(testing::run_cli("compare " + a + " " + b + " --threshold 20").exit_code, 0);

  // A bundle edited behind its manifest's back is refused.
  write_text(b + "/summary.json", "{}");
  const testing::CliResult tampered = testing::run_cli("compare " + a + " " + b);
  EXPECT_EQ(tampered.exit_code, 1);
  EXPECT_EQ(tampered.stderr_text,
            "etns: " + b + ": summary.json does not match its SHA-256 in manifest.json (modified after the run?)\n");
}

TEST(Compare, RefusesBundlesOfDifferentPrograms) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string arm = dir.path() + "/arm", ns = dir.path() + "/ns";
  ASSERT_EQ(profile("tier1mean_arm", "host", arm, " --set model.path=" + model(shared, "tier1mean_arm")).exit_code, 0);
  ASSERT_EQ(profile("tier1mean_ns", "host", ns, " --set model.path=" + model(shared, "tier1mean_ns")).exit_code, 0);
  const testing::CliResult result = testing::run_cli("compare " + arm + " " + ns);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(lines(result.stderr_text), 1u) << result.stderr_text;
  EXPECT_NE(result.stderr_text.find("not comparable: different programs (model SHA-256 "), std::string::npos)
      << result.stderr_text;
  EXPECT_EQ(result.stdout_text, "");
}

// compare-programs on tier1's arm and ns bundles (any target), with and
// without the manifest: rows by structure, not by position. arm's
// quantized_mul is never beside a convolution: it is in the group ns's
// hardswish replaces, and the float island is one group; both are Tier-1
// regions, in the JSON with their members' ids.
void expect_tier1_matched_by_structure(const std::string& shared, const std::string& arm, const std::string& ns) {
  for (const std::string& manifest : {std::string(), " --manifest " + shared + "/models/tier1/tier1_manifest.json"}) {
    SCOPED_TRACE(manifest.empty() ? "by structure" : "through the manifest");
    const testing::CliResult result = testing::run_cli("compare-programs " + arm + " " + ns + manifest);
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    const std::string& md = result.stdout_text;
    EXPECT_NE(md.find("\nRows matched by structure"), std::string::npos) << md;
    // The rows, then on QEMU the same rows in estimated cycles, under their own heading.
    const bool cycles =
        md.find(": per-instruction estimated cycles (CPU_CYCLES, qemu-m55; an estimate") != std::string::npos;
    std::istringstream stream(md);
    size_t rows = 0;
    for (std::string line; std::getline(stream, line);) {
      if (!std::regex_search(line, std::regex(R"(^\| \d+ \| )"))) continue;
      ++rows;
      EXPECT_FALSE(line.find("quantized_mul") != std::string::npos &&
                   line.find("quantized_conv2d") != std::string::npos)
          << line;
    }
    EXPECT_EQ(rows, cycles ? 12u : 6u) << md;
    EXPECT_EQ(md.find("| Tier-1 region (arm c0i6–c0i10, ns c0i4–c0i6) in estimated cycles |") != std::string::npos,
              cycles)
        << md;
    EXPECT_TRUE(std::regex_search(
        md, std::regex(R"(\| 2 \| c0i2–c0i4 \| cortex_m::minimum\.out \([0-9,]+\) \+ cortex_m::quantized_mul\.out )"
                       R"(\([0-9,]+\) \+ cortex_m::dequantize_per_tensor\.out \([0-9,]+\) \| [0-9,]+ \| c0i2 \| )"
                       R"(cortex_m_ns::quantized_hardswish\.out \| [0-9,]+ \| [-+0-9.]+% \| [0-9.]+× \| )"
                       R"(group \|)")))
        << md;
    EXPECT_TRUE(std::regex_search(md, std::regex(R"(\| 3 \| c0i5 \| cortex_m::quantized_conv2d\.out \| [0-9,]+ \| )"
                                                 R"(c0i3 \| cortex_m::quantized_conv2d\.out \| .* \| same operator \|)")))
        << md;
    EXPECT_TRUE(std::regex_search(md, std::regex(R"(\| 5 \| c0i11 \| cortex_m::dequantize_per_tensor\.out \| [0-9,]+ \| )"
                                                 R"(c0i7 \| cortex_m::dequantize_per_tensor\.out \| .* \| same operator \|)")))
        << md;
    EXPECT_NE(md.find("| Tier-1 region (arm c0i6–c0i10, ns c0i4–c0i6) |"), std::string::npos) << md;
    EXPECT_EQ(md.find("| Tier-1 region (arm c0i2–c0i4, ns c0i2) |"), std::string::npos)
        << "hardswish replaces stock kernels: outside the region (profiler.md §10.4)\n" << md;
    EXPECT_NE(md.find("| planned arena (bytes) | 196,608 | 98,304 | -50.0% | 0.50× |"), std::string::npos) << md;
    const testing::CliResult as_json = testing::run_cli("compare-programs " + arm + " " + ns + manifest + " --json");
    ASSERT_EQ(as_json.exit_code, 0) << as_json.stderr_text;
    const json doc = json::parse(as_json.stdout_text);
    std::vector<std::string> kinds;
    for (const json& row : doc["rows"]) kinds.push_back(row["match"]);
    EXPECT_EQ(kinds, (std::vector<std::string>{"same_operator", "same_operator", "group", "same_operator", "group",
                                               "same_operator"}));
    ASSERT_EQ(doc["tier1_regions"].size(), 1u);
    EXPECT_EQ(doc["tier1_regions"][0]["baseline_ids"], json({"c0i6", "c0i7", "c0i8", "c0i9", "c0i10"}));
    EXPECT_EQ(doc["tier1_regions"][0]["candidate_ids"], json({"c0i4", "c0i5", "c0i6"}));
    const json& planned = doc["metrics"].back();
    EXPECT_EQ(planned["name"], "planned arena (bytes)");
    EXPECT_EQ(planned["factor"], 0.5) << "candidate ÷ baseline";
  }
}

TEST(ComparePrograms, Tier1PairPrintsEveryRowTheRegionAndTheArena) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const std::string arm = dir.path() + "/arm", ns = dir.path() + "/ns";
  ASSERT_EQ(profile("tier1_arm", "qemu", arm, " --set model.path=" + model(shared, "tier1_arm")).exit_code, 0);
  ASSERT_EQ(profile("tier1_ns", "qemu", ns, " --set model.path=" + model(shared, "tier1_ns")).exit_code, 0);
  expect_tier1_matched_by_structure(shared, arm, ns);
  const testing::CliResult result = testing::run_cli("compare-programs " + arm + " " + ns);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  const std::string& md = result.stdout_text;
  EXPECT_NE(md.find("## tier1: per-instruction executed instructions (INST_RETIRED, qemu-m55)"), std::string::npos)
      << md;
  EXPECT_NE(md.find("## tier1: per-instruction estimated cycles (CPU_CYCLES, qemu-m55; an estimate, not a "
                    "measurement)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| clean end to end (instructions) |"), std::string::npos) << md;
  // A manifest that does not list the program is refused.
  const std::string other = dir.path() + "/other.json";
  write_text(other, R"({"models": {}})");
  const testing::CliResult refused = testing::run_cli("compare-programs " + arm + " " + ns + " --manifest " + other);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.stderr_text.find("is not in the manifest"), std::string::npos) << refused.stderr_text;
}

// The same on the host, so that it runs where no firmware is built.
TEST(ComparePrograms, Tier1RowsMatchByStructureOnTheHost) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string arm = dir.path() + "/arm", ns = dir.path() + "/ns";
  ASSERT_EQ(profile("tier1_arm", "host", arm, " --set model.path=" + model(shared, "tier1_arm")).exit_code, 0);
  ASSERT_EQ(profile("tier1_ns", "host", ns, " --set model.path=" + model(shared, "tier1_ns")).exit_code, 0);
  expect_tier1_matched_by_structure(shared, arm, ns);
}

// dscnn has no Tier-1 operator: arm and ns run the same program, every row is
// the same operator, and its data movement (_to_dim_order_copy, view_copy) is
// no Tier-1 region, with or without the export manifest.
TEST(ComparePrograms, DscnnDataMovementIsNoTier1Region) {
  testing::TempDir dir;
  const std::string programs = dir.path() + "/programs";
  const testing::CliResult exported = testing::run_cli("export --out " + programs);
  ASSERT_EQ(exported.exit_code, 0) << exported.stderr_text;
  for (const char* provider : {"arm", "ns"}) {
    const std::string program = programs + "/dscnn_" + provider + ".pte";
    const testing::CliResult run =
        profile(std::string("tier1_") + provider, "host", dir.path() + "/dscnn_" + provider,
                " --set model.path=" + program + " --set 'engine.config.portable_ops=[\"aten::view_copy.out\"]'");
    ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  }
  const std::string pair = dir.path() + "/dscnn_arm " + dir.path() + "/dscnn_ns";
  for (const std::string& manifest : {std::string(), " --manifest " + programs + "/manifest.json"}) {
    SCOPED_TRACE(manifest.empty() ? "by structure" : "through the manifest");
    const testing::CliResult result = testing::run_cli("compare-programs " + pair + manifest);
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    const std::string& md = result.stdout_text;
    EXPECT_EQ(md.find("| Tier-1 region"), std::string::npos) << md;
    EXPECT_NE(md.find("No Tier-1 region: ns runs no `cortex_m_ns::` operator"), std::string::npos) << md;
    EXPECT_NE(md.find("| 5 | c0i5 | dim_order_ops::_to_dim_order_copy.out | "), std::string::npos) << md;
    EXPECT_TRUE(std::regex_search(md, std::regex(R"(\| 6 \| c0i6 \| aten::view_copy\.out \| [0-9,]+ \| c0i6 \| )"
                                                 R"(aten::view_copy\.out \| .* \| same operator \|)")))
        << md;

    const testing::CliResult as_json = testing::run_cli("compare-programs " + pair + manifest + " --json");
    ASSERT_EQ(as_json.exit_code, 0) << as_json.stderr_text;
    const json doc = json::parse(as_json.stdout_text);
    EXPECT_EQ(doc["matching"], "structure");
    EXPECT_EQ(doc["operator_names"], manifest.empty() ? "bundles" : "manifest");
    EXPECT_EQ(doc["tier1_regions"], json::array());
    ASSERT_EQ(doc["rows"].size(), 10u);
    for (const json& row : doc["rows"]) {
      EXPECT_EQ(row["match"], "same_operator") << row;
      EXPECT_EQ(row["tier1_region"], false) << row;
      EXPECT_EQ(row["baseline"]["ops"], row["candidate"]["ops"]) << row;
    }
    EXPECT_EQ(doc["rows"][6]["baseline"]["ops"][0], "aten::view_copy.out");
  }
}

// Anything but the arm then the ns program of one model is refused with one
// line and exit 2; a pair that is compared says on its first line what.
TEST(ComparePrograms, RefusesWhatIsNotAnArmNsPairOfOneModel) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  auto path = [&](const std::string& program) { return fs::path(model(shared, program)).lexically_normal().string(); };
  auto bundle = [&](const std::string& program, const std::string& name) {
    const std::string out = dir.path() + "/" + name;
    EXPECT_EQ(profile(program, "host", out, " --set model.path=" + model(shared, program)).exit_code, 0) << program;
    return out;
  };
  const std::string arm = bundle("tier1_arm", "arm"), ns = bundle("tier1_ns", "ns");
  const std::string arm_again = bundle("tier1_arm", "arm_again"), other_ns = bundle("tier1mean_ns", "other_ns");
  const std::string manifest = " --manifest " + shared + "/models/tier1/tier1_manifest.json";
  struct Case {
    std::string args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {ns + " " + arm, "etns: not an arm/ns pair: swapped: the baseline " + ns + " is the ns program and the candidate " +
                           arm + " the arm program; give the arm bundle first\n"},
      {arm + " " + arm, "etns: not an arm/ns pair: " + arm + " is given twice (the same bundle)\n"},
      {arm + " " + arm_again, "etns: not an arm/ns pair: both bundles profile the same program (" +
                                  path("tier1_arm") + ", SHA-256 "},
      {arm + " " + other_ns, "etns: not an arm/ns pair: different models (file names: tier1 vs tier1mean); pass "
                             "--manifest if they are one model\n"},
      {arm + " " + other_ns + manifest, "etns: not an arm/ns pair: different models (the manifest lists tier1 vs "
                                        "tier1mean)\n"},
      {ns + " " + arm + manifest, "etns: not an arm/ns pair: swapped: "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const testing::CliResult result = testing::run_cli("compare-programs " + c.args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(lines(result.stderr_text), 1u) << result.stderr_text;
    EXPECT_EQ(result.stderr_text.rfind(c.message, 0), 0u) << result.stderr_text;
    EXPECT_EQ(result.stdout_text, "");
  }
  for (const std::string& how : {std::string(), manifest}) {
    SCOPED_TRACE(how);
    const testing::CliResult result = testing::run_cli("compare-programs " + arm + " " + ns + how);
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    const std::string first = result.stdout_text.substr(0, result.stdout_text.find('\n'));
    EXPECT_EQ(first.rfind("Compared: tier1 arm `tier1_arm.pte` (SHA-256 ", 0), 0u) << first;
    EXPECT_NE(first.find(") → tier1 ns `tier1_ns.pte` (SHA-256 "), std::string::npos) << first;
    EXPECT_NE(first.find(how.empty() ? "from the bundles and file names." : "from the manifest."), std::string::npos)
        << first;
  }
}

// A figure the runs did not measure (per_layer: false) is "—", never a change;
// a zero baseline gives no ratio, and says so.
TEST(Compare, FiguresNotMeasuredOrZeroAreNoChange) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b", full = dir.path() + "/full";
  const std::string program = " --set model.path=" + model(shared, "tier1mean_ns");
  ASSERT_EQ(profile("tier1mean_ns", "host", a, program + " --set profiling.per_layer=false").exit_code, 0);
  ASSERT_EQ(profile("tier1mean_ns", "host", b, program + " --set profiling.per_layer=false").exit_code, 0);
  ASSERT_EQ(profile("tier1mean_ns", "host", full, program).exit_code, 0);

  const testing::CliResult both = testing::run_cli("compare " + a + " " + b);
  ASSERT_EQ(both.exit_code, 0) << both.stderr_text;
  EXPECT_NE(both.stdout_text.find("| per_layer_sum | ns | — | — | — | — | — | not measured |\n"), std::string::npos)
      << both.stdout_text;
  EXPECT_NE(both.stdout_text.find("| layers | rows | — | — | — | — | — | not measured |\n"), std::string::npos);
  EXPECT_NE(both.stdout_text.find("neither run has a per-instruction pass"), std::string::npos);
  EXPECT_EQ(both.stdout_text.find("-100.0%"), std::string::npos) << both.stdout_text;
  EXPECT_EQ(both.stdout_text.find("0.0×"), std::string::npos) << both.stdout_text;
  EXPECT_EQ(both.stdout_text.find("## Instructions"), std::string::npos);
  const json doc = json::parse(testing::run_cli("compare " + a + " " + b + " --json").stdout_text);
  EXPECT_EQ(doc["metrics"][1]["name"], "per_layer_sum");
  EXPECT_EQ(doc["metrics"][1]["state"], "not_measured");
  EXPECT_TRUE(doc["metrics"][1]["delta_pct"].is_null());

  const testing::CliResult one = testing::run_cli("compare " + full + " " + a + " --threshold 1000");
  EXPECT_EQ(one.exit_code, 0) << one.stderr_text;
  EXPECT_TRUE(std::regex_search(
      one.stdout_text, std::regex(R"(\| per_layer_sum \| ns \| [0-9,]+ \| — \| — \| — \| — \| not measured in the candidate \|)")))
      << one.stdout_text;

  // The scratch arena: 0 in both, then 0 in the baseline only.
  for (const auto& [bundle, bytes] : {std::pair{a, 0}, std::pair{b, 0}}) {
    json summary = read_json(bundle + "/summary.json");
    summary["memory"]["scratch_used"] = bytes;
    rewrite_in_bundle(bundle, "summary.json", summary);
  }
  EXPECT_NE(testing::run_cli("compare " + a + " " + b).stdout_text.find(
                "| memory.scratch_used | bytes | 0 | 0 | — | — | — | 0 in both |\n"),
            std::string::npos);
  json summary = read_json(b + "/summary.json");
  summary["memory"]["scratch_used"] = 64;
  rewrite_in_bundle(b, "summary.json", summary);
  const testing::CliResult grown = testing::run_cli("compare " + a + " " + b);
  EXPECT_NE(grown.stdout_text.find("| memory.scratch_used | bytes | 0 | 64 | +64 | — | — | baseline 0: no % or × |\n"),
            std::string::npos)
      << grown.stdout_text;
}

std::string text_of(const std::string& path);

// Sets every row's primary statistics and the clean figure of a bundle: the
// value (the median) and the median absolute deviation, in the metric of `unit`.
void set_statistics(const std::string& bundle, double median, double mad, const std::string& unit, double row1 = 0) {
  json results = read_json(bundle + "/profile_results.json");
  double sum = 0;
  for (json& layer : results["layers"]) {
    const double value = layer["index"] == 1 && row1 > 0 ? row1 : median;
    layer["value"] = value;
    layer["primary"].update({{"value", value}, {"median", value}, {"mean", value}, {"mad", mad}});
    sum += value;
  }
  results["per_layer_sum"] = sum;
  rewrite_in_bundle(bundle, "profile_results.json", results);
  json summary = read_json(bundle + "/summary.json");
  summary["per_layer_sum"] = sum;
  summary["clean_end_to_end"].update({{"value", median}, {"median", median}, {"mean", median}, {"mad", mad}});
  summary["metric"]["unit"] = unit;
  summary["metric"]["name"] = unit == "ns" ? "WALL_NS" : "INST_RETIRED";
  rewrite_in_bundle(bundle, "summary.json", summary);
}

// Host times are noisy: a change within the runs' own noise (3 MADs) is not
// a regression, whatever the threshold; counted instructions are exact.
TEST(Compare, HostTimesWithinTheirNoiseAreNotRegressions) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b";
  ASSERT_EQ(profile("tier1mean_ns", "host", a, " --set model.path=" + model(shared, "tier1mean_ns")).exit_code, 0);
  const json results = read_json(a + "/profile_results.json");  // kept alive for the loop
  for (const json& layer : results["layers"]) {
    EXPECT_TRUE(layer["primary"].contains("mad")) << "the bundle keeps each row's spread";
  }
  EXPECT_TRUE(read_json(a + "/summary.json")["clean_end_to_end"].contains("mad"));
  fs::copy(a, b, fs::copy_options::recursive);

  // Baseline 1,000 ns (MAD 150: noise ±45 %), candidate 1,200 ns (+20 %, MAD 100: ±25 %).
  set_statistics(a, 1000, 150, "ns");
  set_statistics(b, 1200, 100, "ns");
  const testing::CliResult noisy = testing::run_cli("compare " + a + " " + b + " --threshold 5");
  EXPECT_EQ(noisy.exit_code, 0) << noisy.stderr_text;
  EXPECT_EQ(noisy.stderr_text,
            "etns: warning: the threshold +5% is below the run-to-run noise of 5 of 5 timed figures (up to ±45%): "
            "changes within a figure's noise are not called regressions\n");
  EXPECT_NE(noisy.stdout_text.find("| c0i1 | `cortex_m_ns::quantized_mean.out` | 1,000 | 1,200 | +200 | +20.0% | 1.2× | "
                                   "within noise (±45%) |"),
            std::string::npos)
      << noisy.stdout_text;
  EXPECT_NE(noisy.stdout_text.find("No regression beyond +5%."), std::string::npos);
  // A threshold at the noise: no warning, and nothing above the threshold.
  const testing::CliResult above = testing::run_cli("compare " + a + " " + b + " --threshold 45");
  EXPECT_EQ(above.exit_code, 0);
  EXPECT_EQ(above.stderr_text, "");

  // Beyond the noise it is a regression again: one row at +50 %.
  set_statistics(b, 1200, 100, "ns", 1500);
  const testing::CliResult slower = testing::run_cli("compare " + a + " " + b + " --threshold 5");
  EXPECT_EQ(slower.exit_code, 1);
  EXPECT_NE(slower.stderr_text.find("etns: regression: c0i1 cortex_m_ns::quantized_mean.out: 1,000 -> 1,500 ns (+50.0%"),
            std::string::npos)
      << slower.stderr_text;

  // Counted instructions (QEMU) are exact: one more instruction is a regression, spread or not.
  set_statistics(a, 1000, 150, "instructions");
  set_statistics(b, 1000, 150, "instructions", 1001);
  const testing::CliResult exact = testing::run_cli("compare " + a + " " + b + " --threshold 0");
  EXPECT_EQ(exact.exit_code, 1);
  EXPECT_EQ(exact.stderr_text.find("warning"), std::string::npos) << exact.stderr_text;
  EXPECT_NE(exact.stderr_text.find("etns: regression: c0i1 cortex_m_ns::quantized_mean.out: 1,000 -> 1,001 instructions "
                                   "(+0.1%, threshold +0%)"),
            std::string::npos)
      << exact.stderr_text;
}

// --output-dir writes compare_summary.json and layer_diff.csv (every row);
// --top-layers N prints the N largest changes only.
TEST(Compare, OutputDirAndTopLayers) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b", out = dir.path() + "/out";
  ASSERT_EQ(profile("tier1mean_ns", "host", a, " --set model.path=" + model(shared, "tier1mean_ns")).exit_code, 0);
  fs::copy(a, b, fs::copy_options::recursive);
  set_statistics(a, 1000, 0, "instructions");
  set_statistics(b, 1000, 0, "instructions", 1100);
  const testing::CliResult result =
      testing::run_cli("compare " + a + " " + b + " --threshold 5 --top-layers 1 --output-dir " + out);
  EXPECT_EQ(result.exit_code, 1) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("## Instructions (instructions; the 1 largest changes of 3)\n"), std::string::npos)
      << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("| c0i1 | `cortex_m_ns::quantized_mean.out` | 1,000 | 1,100 |"), std::string::npos);
  EXPECT_EQ(result.stdout_text.find("| c0i0 |"), std::string::npos) << result.stdout_text;

  const json summary = read_json(out + "/compare_summary.json");
  EXPECT_EQ(summary["schema"], "etns.compare-summary");
  EXPECT_EQ(summary["baseline_dir"], a);
  EXPECT_EQ(summary["candidate_dir"], b);
  EXPECT_EQ(summary["comparability"]["layers_comparable"], true);
  EXPECT_EQ(summary["verdict"]["status"], "fail");
  EXPECT_EQ(summary["verdict"]["regressions"].size(), 1u);  // c0i1 (+10 %); the sum grew 3.3 %
  EXPECT_FALSE(summary.contains("layers"));
  EXPECT_FALSE(summary["config"].empty());
  EXPECT_FALSE(summary["metrics"].empty());

  const std::string csv = text_of(out + "/layer_diff.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "id,baseline_id,candidate_id,baseline_op,candidate_op,op_match,unit,baseline_value,candidate_value,"
            "delta_value,delta_pct,speedup,noise_pct,state,within_noise,regression,baseline_WALL_NS,candidate_WALL_NS,"
            "delta_WALL_NS,delta_pct_WALL_NS");
  EXPECT_EQ(lines(csv), 4u) << csv;
  EXPECT_NE(csv.find("\n1,c0i1,c0i1,cortex_m_ns::quantized_mean.out,cortex_m_ns::quantized_mean.out,true,instructions,"
                     "1000,1100,100,10,0.909,,measured,false,true,"),
            std::string::npos)
      << csv;
}

// What compare reads is validated: a figure of the wrong type or a key left
// out names its file and field; a gated figure the candidate lacks fails the gate; a policy file
// gates each figure, and a bad key in it is one line and exit 2.
TEST(Compare, SchemaErrorsMissingFiguresAndPolicies) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b";
  ASSERT_EQ(profile("tier1mean_ns", "host", a, " --set model.path=" + model(shared, "tier1mean_ns")).exit_code, 0);
  fs::copy(a, b, fs::copy_options::recursive);
  const json summary = read_json(b + "/summary.json");

  json text_figure = summary;
  text_figure["clean_end_to_end"]["value"] = "fast";
  rewrite_in_bundle(b, "summary.json", text_figure);
  const testing::CliResult wrong_type = testing::run_cli("compare " + a + " " + b + " --threshold 5");
  EXPECT_EQ(wrong_type.exit_code, 1);
  EXPECT_EQ(wrong_type.stderr_text, "etns: " + b + "/summary.json: /clean_end_to_end/value: expected a number, found string\n");
  EXPECT_EQ(wrong_type.stdout_text, "");

  // No clean figure: null in summary.json and profile_results.json alike (a
  // bundle whose documents disagree on it is refused on reading).
  // A key left out is refused like a wrong type, even one that may be null.
  const json results = read_json(b + "/profile_results.json");
  json without_clean = results;
  without_clean.erase("clean_end_to_end");
  rewrite_in_bundle(b, "summary.json", summary);
  rewrite_in_bundle(b, "profile_results.json", without_clean);
  const testing::CliResult lacking = testing::run_cli("compare " + a + " " + b);
  EXPECT_EQ(lacking.exit_code, 1);
  EXPECT_EQ(lacking.stderr_text,
            "etns: " + b + "/profile_results.json: /clean_end_to_end: missing (expected an object or null)\n");
  EXPECT_EQ(lacking.stdout_text, "");

  json no_clean = summary;
  no_clean["clean_end_to_end"] = nullptr;
  rewrite_in_bundle(b, "summary.json", no_clean);
  json no_clean_results = results;
  no_clean_results["clean_end_to_end"] = nullptr;
  rewrite_in_bundle(b, "profile_results.json", no_clean_results);
  const testing::CliResult missing = testing::run_cli("compare " + a + " " + b + " --threshold 1000");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.stderr_text.find("etns: regression: clean_end_to_end: "), std::string::npos) << missing.stderr_text;
  EXPECT_NE(missing.stderr_text.find(" ns in the baseline, missing in the candidate (threshold +1000%)"),
            std::string::npos)
      << missing.stderr_text;

  // The shipped policy: host times are gated with their noise, bytes exactly.
  rewrite_in_bundle(b, "summary.json", summary);
  rewrite_in_bundle(b, "profile_results.json", results);
  const std::string policy = std::string(ETNS_SOURCE_DIR) + "/configs/regression_policy.yaml";
  const testing::CliResult same = testing::run_cli("compare " + a + " " + b + " --policy " + policy);
  EXPECT_EQ(same.exit_code, 0) << same.stderr_text;
  EXPECT_NE(same.stdout_text.find("No regression beyond the thresholds of " + policy + "."), std::string::npos)
      << same.stdout_text;
  json bigger = summary;
  bigger["memory"]["planned_arena"] = bigger["memory"]["planned_arena"].get<uint64_t>() + 16;
  rewrite_in_bundle(b, "summary.json", bigger);
  const testing::CliResult grown = testing::run_cli("compare " + a + " " + b + " --policy " + policy + " --json");
  EXPECT_EQ(grown.exit_code, 1);
  EXPECT_NE(grown.stderr_text.find("etns: regression: memory.planned_arena: "), std::string::npos) << grown.stderr_text;
  EXPECT_EQ(json::parse(grown.stdout_text)["policy"], policy);

  write_text(dir.path() + "/bad.yaml", "time:\n  layer: 5\n");
  const testing::CliResult bad = testing::run_cli("compare " + a + " " + b + " --policy " + dir.path() + "/bad.yaml");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.stderr_text, "etns: " + dir.path() + "/bad.yaml: time.layer: unknown key (did you mean 'layers'?)\n");
  EXPECT_EQ(testing::run_cli("compare " + a + " " + b + " --policy " + policy + " --threshold 1").exit_code, 2)
      << "one gate or the other";
}

// The page as scripts/main.sh makes it: etns's own programs and the upstream
// ones, on QEMU and on the host, with the bench, the goldens and the imported
// models (the page's longest form).
TEST(Reproduce, RebuildsTheEvidencePageEndToEnd) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const testing::CliResult result = testing::run_cli(
      "reproduce --upstream " + shared + "/models/tier1 --golden " + shared + "/golden --tflite " + shared +
      "/models/mlperf-tiny --tflite " + shared + "/models/real-tflite --out " + dir.path() +
      "/evidence --iterations 3 --warmup 1");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text << result.stdout_text;
  EXPECT_EQ(result.stdout_text, "reproduced: " + dir.path() + "/evidence/report.md\n");
  const std::vector<uint8_t> bytes = testing::read_file(dir.path() + "/evidence/report.md");
  const std::string report(bytes.begin(), bytes.end());
  // At most 400 lines, main.sh's options included.
  EXPECT_LE(std::count(report.begin(), report.end(), '\n'), 400) << report;

  // The first screen (40 lines) leads with the answer in cycles and instructions: one row per
  // program beside TFLM + CMSIS-NN, then the board's own table.
  size_t cut = 0;
  for (int line = 0; line < 40 && cut != std::string::npos; ++line) cut = report.find('\n', cut + 1);
  const std::string first_screen = report.substr(0, cut);
  EXPECT_EQ(report.rfind("# etns evidence: int8 models on the Cortex-M55, in estimated cycles and executed "
                         "instructions\n\n**The answer.** One inference on the Cortex-M55 ",
                         0),
            0u)
      << report;
  EXPECT_NE(first_screen.find(" on the four MLPerf Tiny models etns takes "), std::string::npos) << first_screen;
  EXPECT_NE(first_screen.find("| program, input A | executed instructions | estimated cycles | CPI (est.) | ms at 96 "
                              "MHz (est.) | conv MAC-pipe use (est.) | TFLM + CMSIS-NN: executed instructions | "
                              "TFLM + CMSIS-NN: estimated cycles | etns ÷ TFLM: instructions | etns ÷ TFLM: est. "
                              "cycles |"),
            std::string::npos)
      << first_screen;
  const std::string count = "[0-9]{1,3}(,[0-9]{3})*";
  for (const char* program : {"tier1_arm", "tier1_ns"}) {
    const std::regex row("\\| \\*\\*" + std::string(program) + "\\*\\* \\(upstream program\\) \\| " + count +
                         " \\| " + count + " \\| [12]\\.[0-9]{2} \\| [0-9]+\\.[0-9]{2} \\| [0-9]+ % \\| — \\| — \\| — \\| — \\|\n");
    EXPECT_TRUE(std::regex_search(first_screen, row)) << program << "\n" << first_screen;
  }
  for (const char* model : {"kws", "vww", "ic", "ad"}) {
    const std::regex row("\\| \\*\\*" + std::string(model) + "\\*\\* \\(imported from `mlperf-tiny`\\) \\| " + count +
                         " \\| " + count + " \\| [12]\\.[0-9]{2} \\| [0-9]+\\.[0-9]{2} \\| [^|]+ \\| " + count +
                         " \\| ≈ " + count + " \\| 0\\.[0-9]{2}× \\| 0\\.[0-9]{2}× \\|\n");
    EXPECT_TRUE(std::regex_search(first_screen, row)) << model << "\n" << first_screen;
  }
  for (const char* text : {"| **ad** (imported from `mlperf-tiny`) | ", "— (no conv)", " (TFLM 25 %) |",
                           "an estimate, not a measurement", "`bench/anchors/mlperf_tiny_tflm.json`, made outside this "
                           "repository", "`bench/anchors/apollo510_board.json`", "| board cycles (measured) |",
                           "| tier1_arm, one execute() | upstream ExecuTorch + CMSIS-NN + portable kernels | 3,507,826 | "
                           "2,985,779 | 1.17 | ", "| Tier-1 conv (1x32x32x16, 3x3, 16→16), one call | CMSIS-NN "
                           "arm_convolve_s8 | 1,005,563 | 915,475 | 1.10 | ", "(quantized_conv2d in tier1_arm)",
                           "- Inputs: tier1, golden input A; the models, `<model>.A.input.bin`."}) {
    EXPECT_NE(first_screen.find(text), std::string::npos) << text << "\n" << first_screen;
  }

  // Then arm -> ns on the same runtime, per figure.
  const size_t pair_at = report.find("\n## arm → ns: the Tier-1 operators on the same runtime\n");
  ASSERT_NE(pair_at, std::string::npos) << report;
  const std::string pair_screen = report.substr(pair_at, report.find("\n## ", pair_at + 1) - pair_at);
  for (const char* text : {"| one `execute()` on the M55: executed instructions | ",
                           "| Tier-1 region: executed instructions | ", "| planned arena | 196,608 → ",
                           "| kernel scratch on the M55 | ", "| firmware image: flash (text + data) | ",
                           "| host `execute()` (this machine, wall time; SIMD variants, see below) | ",
                           ": the same program, so any difference is noise |",
                           "| ns output against arm, in output LSBs | max ",
                           "- **Bit-exact with upstream.** 57 of 57 golden tensors", "- **On the host** (x86-64 wall "
                           "time; the host build's Highway SIMD variant of each kernel that has one"}) {
    EXPECT_NE(pair_screen.find(text), std::string::npos) << text << "\n" << pair_screen;
  }
  EXPECT_EQ(report.find("this machine, reference kernels"), std::string::npos) << "the host runs its SIMD variants";
  // tier1's region is the float island, from the structural match (arm c0i6-c0i10); dscnn has none.
  EXPECT_TRUE(std::regex_search(pair_screen,
                                std::regex(R"(\| Tier-1 region: executed instructions \| [0-9,]+ → [0-9,]+ \(−[0-9.]+ %, )"
                                           R"(0\.[0-9]{2}×\)<br>arm c0i6–c0i10, ns c0i4–c0i6 \| )")))
      << pair_screen;
  EXPECT_NE(pair_screen.find("none (no Tier-1 operator)"), std::string::npos) << pair_screen;
  for (const char* text : {"<details><summary><b>tier1</b> — upstream program: ",
                           "<details><summary><b>tier1mean</b> — upstream program: ",
                           "**dscnn** (etns export): arm and ns are the same program (byte-identical",
                           "rows matched by structure over the operator names of its export manifest (`tier1_manifest.json`)",
                           "#### Cortex-M55 under QEMU (executed instructions, estimated cycles)",
                           "| Tier-1 region (arm c0i6–c0i10, ns c0i4–c0i6) |", "| `mean` op alone (c0i2, c0i1) |",
                           "| Tier-1 region (arm c0i1–c0i3, ns c0i1) |", "checks pass: PASS.",
                           "profile runs, each a bundle in `<target>/<source>/<program>`: every one valid.",
                           "## Imported TFLite models (Cortex-M55 under QEMU)", "| kws | 13 → 13 | 13 of 13 | ",
                           "| kws | CONV_2D | 5 | 2,368,000 MACs | ", "## What the fast kernels change (Cortex-M55 under QEMU)",
                           "### Kernels: one call, the reference against the build's choice",
                           "| `quantized_conv2d` | tier1 | 18,887,020 | mve_rows ",
                           "### Programs: one clean `execute()`, all-zero input", "| upstream/tier1_ns.pte | ns |",
                           "| etns/tier1_ns.pte | ns |", "[bench.md](bench.md)", "**What arm and ns are here.**",
                           "tier1_arm's `aten::sub.out` executes "}) {
    EXPECT_NE(report.find(text), std::string::npos) << text;
  }
  // Repetition cut: one section per evidence model (upstream's where it has one), no host
  // per-instruction tables beside the M55's, the long tables beside the page.
  EXPECT_EQ(report.find("<b>tier1</b> — etns export"), std::string::npos) << report;
  EXPECT_EQ(report.find("#### Host (wall time)"), std::string::npos) << report;
  EXPECT_EQ(report.find("| person_detect | CONV_2D |"), std::string::npos) << report;
  EXPECT_EQ(report.find("| `quantized_conv2d` | kws_pointwise_25x5x64 |"), std::string::npos) << report;
  EXPECT_EQ(report.find("Not comparable"), std::string::npos) << report;
  for (const char* file : {"bench.md", "bench.json", "verify_kernels.txt", "imported/operator_types.md"}) {
    EXPECT_TRUE(fs::is_regular_file(dir.path() + "/evidence/" + file)) << file;
  }
  EXPECT_NE(text_of(dir.path() + "/evidence/imported/operator_types.md").find("| person_detect | CONV_2D |"),
            std::string::npos);
  EXPECT_NE(text_of(dir.path() + "/evidence/verify_kernels.txt").find("PASS: linked kernels match the declared "
                                                                          "build flavor"),
            std::string::npos);
  // Every summary row has both targets' figures; ns executes fewer instructions than arm.
  for (const char* source : {"etns", "upstream"}) {
    for (const char* model : {"tier1", "tier1mean"}) {
      const std::regex row("\\| " + std::string(model) + " \\| " + source +
                           R"( \| \d+ / \d+ \| [0-9,]+ / [0-9,]+ \| [0-9,]+ \| [0-9,]+ \| 0\.[0-9]{2} \| )"
                           R"([0-9,]+\.[0-9] \| [0-9,]+\.[0-9] \| \[svg\]\([a-z0-9_]+\.svg\) \|\n)");
      EXPECT_TRUE(std::regex_search(report, row)) << model << " " << source << "\n" << report;
    }
  }
  for (const char* chart : {"etns_tier1.svg", "etns_tier1mean.svg", "upstream_tier1.svg", "upstream_tier1mean.svg"}) {
    const std::vector<uint8_t> svg = testing::read_file(dir.path() + "/evidence/" + chart);
    EXPECT_EQ(std::string(svg.begin(), svg.begin() + 4), "<svg") << chart;
  }
  for (const char* bundle : {"qemu-m55/upstream/tier1_arm", "qemu-m55/upstream/tier1mean_ns", "host/upstream/tier1_ns",
                             "qemu-m55/etns/tier1_arm", "host/etns/tier1mean_ns"}) {
    expect_verified_bundle(dir.path() + "/evidence/" + bundle);
  }
}

std::string text_of(const std::string& path) {
  const std::vector<uint8_t> bytes = testing::read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

// A bad --upstream is one line naming the option and the folder, exit 2, and
// nothing is exported or profiled first (the --out folder is not even made).
TEST(Reproduce, BadUpstreamFailsBeforeAnythingRuns) {
  testing::TempDir dir;
  const std::string out = dir.path() + "/evidence";
  const std::string half = dir.path() + "/half";  // an arm program without its ns partner: no pair
  fs::create_directories(half);
  write_text(half + "/tier1_arm.pte", "not read");
  struct Case {
    std::string folder;
    std::string reason;
  };
  for (const Case& c : {Case{dir.path() + "/missing", "not a folder"},
                        Case{half, "no <model>_arm.pte / <model>_ns.pte pair"}}) {
    const testing::CliResult result =
        testing::run_cli("reproduce --target host --out " + out + " --upstream " + c.folder);
    EXPECT_EQ(result.exit_code, 2) << result.stderr_text;
    EXPECT_EQ(result.stderr_text, "etns: --upstream " + c.folder + ": " + c.reason + "\n");
    EXPECT_EQ(result.stdout_text, "");
    EXPECT_FALSE(fs::exists(out)) << "reproduce wrote " << out << " before checking --upstream";
  }
}

// On a terminal, reproduce's progress line counts the steps: every profile run,
// then the two firmware kernel checks (no bench on the host alone).
TEST(Reproduce, ProgressCountsTheStepsOnATerminal) {
  ETNS_REQUIRE_QEMU();  // reproduce verifies both firmware images
  if (!testing::terminal_available()) GTEST_SKIP() << "util-linux 'script' is not on PATH: no pseudo-terminal";
  testing::TempDir dir;
  const std::string exported = dir.path() + "/export";
  const std::string models = dir.path() + "/models";
  ASSERT_EQ(testing::run_cli("export --out " + exported).exit_code, 0);
  fs::create_directories(models);
  for (const char* program : {"tier1_arm.pte", "tier1_ns.pte"}) {
    fs::copy_file(exported + "/" + program, models + "/" + program);
  }
  const testing::CliResult result = testing::run_cli_on_terminal(
      "reproduce --target host --iterations 1 --warmup 0 --models " + models + " --out " + dir.path() + "/evidence");
  ASSERT_EQ(result.exit_code, 0) << result.stdout_text;
  size_t at = 0;
  for (const char* step : {"[1/4] etns tier1_arm on host", "[2/4] etns tier1_ns on host", "[3/4] verify-kernels arm",
                           "[4/4] verify-kernels ns"}) {
    at = result.stdout_text.find(step, at);
    EXPECT_NE(at, std::string::npos) << step << " (in order)\n" << result.stdout_text;
    if (at == std::string::npos) break;
  }
  // One status line rewritten in place: no newline before the final report line.
  EXPECT_EQ(std::count(result.stdout_text.begin(), result.stdout_text.end(), '\n'), 1) << result.stdout_text;
}

// etns's own programs and --upstream on one page, on the host only (fast).
// The upstream folder holds copies of the exported tier1 pair under the same
// file names and without a manifest, so nothing from ../shared is needed,
// the bundle folders would collide without the source level, and the
// upstream rows must be matched by structure (not through etns's manifest).
TEST(Reproduce, OwnAndUpstreamProgramsShareOnePage) {
  ETNS_REQUIRE_QEMU();  // reproduce verifies both firmware images, found as the QEMU target finds them
  testing::TempDir dir;
  const std::string exported = dir.path() + "/export";
  const std::string upstream = dir.path() + "/upstream";
  const std::string out = dir.path() + "/evidence";
  const testing::CliResult export_result = testing::run_cli("export --out " + exported);
  ASSERT_EQ(export_result.exit_code, 0) << export_result.stderr_text;
  fs::create_directories(upstream);
  for (const char* program : {"tier1_arm.pte", "tier1_ns.pte"}) {
    fs::copy_file(exported + "/" + program, upstream + "/" + program);
  }

  const testing::CliResult result = testing::run_cli("reproduce --target host --iterations 1 --warmup 0 --out " +
                                                     out + " --upstream " + upstream);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text << result.stdout_text;
  EXPECT_EQ(result.stdout_text, "reproduced: " + out + "/report.md\n");
  const std::string report = text_of(out + "/report.md");

  EXPECT_LE(std::count(report.begin(), report.end(), '\n'), 400) << report;
  // Without qemu-m55 the first screen says there are no counts and no estimates, and goes on.
  EXPECT_NE(report.find("qemu-m55 is not among the targets (`--target`): no executed instructions and no cycle "
                        "estimates; the host's wall time only.\n\n## arm → ns: "),
            std::string::npos)
      << report;
  // One section per evidence model: upstream's tier1 (the pair the comparison is about), etns's tier1mean.
  EXPECT_EQ(report.find("<b>tier1</b> — etns export"), std::string::npos) << report;
  for (const char* text : {"## Every program pair\n", "<details><summary><b>tier1mean</b> — etns export</summary>",
                           "<details><summary><b>tier1</b> — upstream program</summary>", "- **etns export** (`etns`): ",
                           "rows matched by structure over the operator names of its export manifest (`manifest.json`)",
                           "- **upstream program** (`upstream`): 1 pair, ",
                           "over the programs' own operators (no export manifest beside them)", "not cycles",
                           "#### Host (wall time)", "![tier1 (upstream program): wall time per program instruction",
                           " profile runs, each a bundle in `<target>/<source>/<program>`: every one valid.",
                           "## Flash and RAM by component\n",
                           "| component | etns_m55_arm.elf flash B | etns_m55_ns.elf flash B | kws-app (kws, selective) "
                           "flash B |",
                           "| runtime core | ", "| program verifier | ", "| **flash (sections)** | "}) {
    EXPECT_NE(report.find(text), std::string::npos) << text << "\n" << report;
  }
  EXPECT_EQ(report.find("<b>tier1mean</b> — upstream program"), std::string::npos);
  // A coverage model is a row of the table, not a section.
  EXPECT_EQ(report.find("<b>relu6</b>"), std::string::npos) << report;
  EXPECT_NE(report.find("| relu6 | etns | "), std::string::npos) << report;
  // No path of this machine on the page: folders by name, firmware by its place in the build.
  EXPECT_EQ(report.find(dir.path()), std::string::npos) << report;
  EXPECT_EQ(report.find(std::string(ETNS_SOURCE_DIR)), std::string::npos) << report;
  EXPECT_NE(report.find("build/firmware/etns_m55_arm.elf"), std::string::npos) << report;
  EXPECT_NE(report.find("after 0 warm-up runs"), std::string::npos) << report;
  EXPECT_EQ(report.find("Not comparable"), std::string::npos) << report;
  // The upstream pair is compared without a manifest, etns's pairs through theirs.
  EXPECT_EQ(occurrences(report, "Rows matched by structure:"), 1u) << report;
  EXPECT_EQ(occurrences(report, "Rows matched by structure over the export manifest's operator names:"),
            occurrences(report, "</b> — etns export"))
      << report;

  // The summary: one row per source and model. Host only: the QEMU figures are absent,
  // the host times are there. Same bytes, so the same program facts in both rows.
  const std::regex row(R"(\| tier1 \| (etns|upstream) \| (\d+ / \d+) \| ([0-9,]+ / [0-9,]+) \| — \| — \| — \| )"
                       R"([0-9,]+\.[0-9] \| [0-9,]+\.[0-9] \| \[svg\]\((etns|upstream)_tier1\.svg\) \|\n)");
  std::vector<std::string> facts;
  for (auto match = std::sregex_iterator(report.begin(), report.end(), row); match != std::sregex_iterator();
       ++match) {
    facts.push_back((*match)[1].str() + ": " + (*match)[2].str() + " | " + (*match)[3].str());
  }
  ASSERT_EQ(facts.size(), 2u) << report;
  EXPECT_EQ(facts[0].substr(0, 6), "etns: ");
  EXPECT_EQ(facts[1].substr(0, 10), "upstream: ");
  EXPECT_EQ(facts[0].substr(6), facts[1].substr(10));
  EXPECT_TRUE(std::regex_search(report, std::regex(R"(\| tier1mean \| etns \| \d+ / \d+ \| )"))) << report;

  // Both sources' bundles, each of its own program: nothing overwritten.
  for (const char* source : {"etns", "upstream"}) {
    for (const char* program : {"tier1_arm", "tier1_ns"}) {
      const std::string bundle = out + "/host/" + source + "/" + program;
      SCOPED_TRACE(bundle);
      expect_verified_bundle(bundle);
      const std::string model_path = read_json(bundle + "/run_metadata.json")["model"]["path"].get<std::string>();
      const std::string folder = std::string(source) == "etns" ? out + "/programs" : upstream;
      EXPECT_EQ(fs::path(model_path).parent_path(), fs::path(folder));
    }
  }
  EXPECT_FALSE(fs::exists(out + "/host/tier1_arm")) << "a bundle outside the source folders";
  for (const char* chart : {"etns_tier1.svg", "etns_tier1mean.svg", "upstream_tier1.svg"}) {
    EXPECT_EQ(text_of(out + "/" + chart).substr(0, 4), "<svg") << chart;
  }
}

}  // namespace
}  // namespace etns
