// `etns inspect --json` on the four shipped programs agrees with their export manifest.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/shared_data.h"

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

}  // namespace
}  // namespace etns
