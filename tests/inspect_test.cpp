// `etns inspect --json` on the four shipped programs agrees with their export
// manifest; the method arena it reports for the Cortex-M55 is the one the
// firmware uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/shared_data.h"
#include "tools/common/files.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"

namespace etns {
namespace {

std::vector<std::string> sorted_strings(const nlohmann::json& list) {
  std::vector<std::string> out = list.get<std::vector<std::string>>();
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Inspect, MatchesTheManifestForEveryProgram) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> manifest_bytes = testing::read_file(shared + "/models/tier1/tier1_manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(manifest_bytes.begin(), manifest_bytes.end());
  const std::map<std::string, size_t> instruction_counts = {
      {"tier1_arm.pte", 12}, {"tier1_ns.pte", 8}, {"tier1mean_arm.pte", 5}, {"tier1mean_ns.pte", 3}};
  const std::map<std::string, size_t> arena_bytes = {
      {"tier1_arm.pte", 196608}, {"tier1_ns.pte", 98304}, {"tier1mean_arm.pte", 81920}, {"tier1mean_ns.pte", 81920}};

  size_t checked = 0;
  for (const auto& [model, entry] : manifest["models"].items()) {
    for (const auto& [provider, facts] : entry["providers"].items()) {
      const std::string file = facts["pte"];
      SCOPED_TRACE(file);
      const testing::CliResult result = testing::run_cli("inspect --json " + shared + "/models/tier1/" + file);
      ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
      const nlohmann::json d = nlohmann::json::parse(result.stdout_text);
      EXPECT_EQ(d["sha256"], facts["sha256"]);
      EXPECT_EQ(d["size_bytes"], facts["byte_size"]);
      const nlohmann::json& method = d["methods"][0];
      EXPECT_EQ(method["instructions"].size(), instruction_counts.at(file));
      EXPECT_EQ(method["planned_buffers_bytes"], nlohmann::json::array({arena_bytes.at(file)}));
      EXPECT_EQ(method["planned_buffers_bytes"][0], facts["planned_arena_size"]);
      EXPECT_EQ(sorted_strings(method["operators"]), sorted_strings(facts["operators"]));
      EXPECT_EQ(sorted_strings(method["portable_operators"]), sorted_strings(facts["portable_ops"]));
      ASSERT_EQ(method["instructions"].size(), facts["instructions"].size());
      for (size_t i = 0; i < facts["instructions"].size(); ++i) {
        EXPECT_EQ(method["instructions"][i]["id"], facts["instructions"][i]["id"]);
        EXPECT_EQ(method["instructions"][i]["operator"], facts["instructions"][i]["op"]);
      }
      EXPECT_EQ(method["inputs"][0]["sizes"], facts["input_shape"]);
      EXPECT_EQ(method["outputs"][0]["sizes"], facts["output_shape"]);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4u);
}

TEST(Inspect, TextNamesTheFallbacksTheExporterMisses) {
  ETNS_REQUIRE_SHARED(shared);
  // The upstream exporter reports only aten::sub.out for tier1_arm.
  const testing::CliResult result = testing::run_cli("inspect " + shared + "/models/tier1/tier1_arm.pte");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("portable fallbacks (3) aten::clamp.out aten::leaky_relu.out aten::sub.out"),
            std::string::npos)
      << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("sha256      056e99fd3c103af785bae418f712c7612e72b03a2df49f9e391824b8a14f9416"),
            std::string::npos);
  EXPECT_NE(result.stdout_text.find("c0i10  aten::clamp.out"), std::string::npos);
  EXPECT_NE(result.stdout_text.find("arena 1     196608 bytes"), std::string::npos);
}

// An operator no provider of this build has a kernel for is listed, but
// marked: `run` would refuse the program at load. ns-only operators say so.
TEST(Inspect, MarksOperatorsThisBuildCannotRun) {
  ETNS_REQUIRE_SHARED(shared);
  tools::ProgramModel model = tools::read_program(tools::read_file(shared + "/models/tier1/tier1_arm.pte"));
  bool renamed = false;
  for (tools::ModelOperator& op : model.operators) {
    if (op.name == "aten::sub") {
      op.name = "aten::full_like";
      renamed = true;
    }
  }
  ASSERT_TRUE(renamed);
  testing::TempDir dir;
  const std::string program = dir.path() + "/full_like.pte";
  const std::vector<uint8_t> bytes = tools::write_program(model);
  std::ofstream(program, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                 static_cast<std::streamsize>(bytes.size()));
  const testing::CliResult result = testing::run_cli("inspect " + program);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("aten::full_like.out  (no kernel in this build: run refuses the program)\n"),
            std::string::npos)
      << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("portable fallbacks (3) aten::clamp.out aten::full_like.out (not in this build) "
                                    "aten::leaky_relu.out\n"),
            std::string::npos)
      << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("  not runnable here: 1 operator has no kernel in this build (see above)\n"),
            std::string::npos)
      << result.stdout_text;
  const testing::CliResult json = testing::run_cli("inspect --json " + program);
  ASSERT_EQ(json.exit_code, 0) << json.stderr_text;
  const nlohmann::json kernels = nlohmann::json::parse(json.stdout_text)["methods"][0]["kernels_in_this_build"];
  EXPECT_EQ(kernels["aten::full_like.out"], nlohmann::json::array());
  EXPECT_EQ(kernels["aten::clamp.out"], nlohmann::json::array({"arm", "ns"}));

  const testing::CliResult ns = testing::run_cli("inspect " + shared + "/models/tier1/tier1_ns.pte");
  EXPECT_NE(ns.stdout_text.find("cortex_m_ns::quantized_relu.out  (ns only)\n"), std::string::npos) << ns.stdout_text;
}

TEST(Inspect, TextGivesTheMethodArenaOnTheCortexM55AndOnThisHost) {
  ETNS_REQUIRE_SHARED(shared);
  const testing::CliResult result = testing::run_cli("inspect " + shared + "/models/tier1/tier1_ns.pte --provider ns");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  // The host figure is x86-64's here; other hosts lay the arena out their own way.
  const std::string expected = sizeof(void*) == 8 && alignof(int64_t) == 8
                                   ? "  method arena: 5,864 B on Cortex-M55 (32-bit), 8,736 B on this host\n"
                                   : "  method arena: 5,864 B on Cortex-M55 (32-bit), ";
  EXPECT_NE(result.stdout_text.find(expected), std::string::npos) << result.stdout_text;
  // The figure itself is checked against the firmware's below.
  EXPECT_NE(result.stdout_text.find("  kernel scratch: "), std::string::npos) << result.stdout_text;
  EXPECT_NE(result.stdout_text.find(" B on Cortex-M55; this host reserves the same (its reference kernels use none)\n"),
            std::string::npos)
      << result.stdout_text;
}

// Every exported program (each kernel of both providers, the portable
// fallbacks included): the Cortex-M55 figures inspect computes on the host are
// the method arena and the kernel scratch the firmware's own load used.
TEST(Inspect, CortexM55MethodArenaIsWhatTheFirmwareUses) {
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  const testing::CliResult exported = testing::run_cli("export --out " + dir.path());
  ASSERT_EQ(exported.exit_code, 0) << exported.stderr_text;
  const nlohmann::json manifest = tools::read_json_file(dir.path() + "/manifest.json");
  size_t checked = 0;
  for (const auto& [model, entry] : manifest["models"].items()) {
    for (const auto& [provider, facts] : entry["providers"].items()) {
      const std::string program = dir.path() + "/" + facts["pte"].get<std::string>();
      SCOPED_TRACE(program);
      const testing::CliResult inspect = testing::run_cli("inspect --json --provider " + provider + " " + program);
      ASSERT_EQ(inspect.exit_code, 0) << inspect.stderr_text;
      const nlohmann::json binding = nlohmann::json::parse(inspect.stdout_text)["methods"][0]["binding"];
      const testing::CliResult run = testing::run_cli(
          "run " + program + " --target qemu-m55 --provider " + provider + " --input " + dir.path() + "/" +
          facts["example_input"].get<std::string>() + " --output " + dir.path() + "/out.bin --counts " +
          dir.path() + "/counts.json");
      ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
      const nlohmann::json counts = tools::read_json_file(dir.path() + "/counts.json");
      EXPECT_EQ(binding["method_arena_bytes_cortex_m55"], counts["method_arena_bytes"]);
      EXPECT_EQ(binding["scratch_bytes_cortex_m55"], counts["scratch_bytes"]);
      // The temporary arena inspect gives is the one load accepts.
      const uint64_t scratch = counts["scratch_bytes"].get<uint64_t>();
      EXPECT_EQ(binding["temporary_arena_bytes"].get<uint64_t>(), scratch > 0 ? scratch + 15 : 0);
      EXPECT_LE(binding["method_arena_bytes_cortex_m55"], binding["method_arena_bytes_host"]);
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
}

}  // namespace
}  // namespace etns
