#include "tools/export/exporter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/sha256.h"
#include "tools/export/graph_to_program.h"
#include "tools/export/program_model.h"

namespace etns::tools {
namespace {

const Tier1Export& exported() {
  static const Tier1Export once = export_tier1();
  return once;
}

TEST(Exporter, FourProgramsInUpstreamOrder) {
  const Tier1Export& e = exported();
  ASSERT_EQ(e.programs.size(), 4u);
  const std::vector<std::string> files = {"tier1_arm.pte", "tier1_ns.pte", "tier1mean_arm.pte", "tier1mean_ns.pte"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(e.programs[i].file, files[i]);
    // The bytes are graph_to_pte's for the model's graph.
    EXPECT_EQ(e.programs[i].bytes,
              graph_to_pte(build_quantized_graph(e.programs[i].model, e.programs[i].provider)));
  }
}

TEST(Exporter, TwoExportsAreIdentical) {
  const Tier1Export again = export_tier1(kTier1Seed);
  ASSERT_EQ(again.programs.size(), exported().programs.size());
  for (size_t i = 0; i < again.programs.size(); ++i) EXPECT_EQ(again.programs[i].bytes, exported().programs[i].bytes);
  EXPECT_EQ(manifest_text(again), manifest_text(exported()));
}

TEST(Exporter, ManifestDescribesEachProgram) {
  const Tier1Export& e = exported();
  const nlohmann::ordered_json& m = e.manifest;
  EXPECT_EQ(m["seed"], kTier1Seed);
  EXPECT_EQ(m["exporter"], "etns " ETNS_VERSION);
  // Key order as upstream writes it (profiler.md §12.5), exporter in torch_version's place.
  std::vector<std::string> keys;
  for (const auto& item : m.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"seed", "exporter", "models"}));
  EXPECT_EQ(m["models"]["tier1"]["channels_last"], true);
  EXPECT_EQ(m["models"]["tier1mean"]["channels_last"], false);
  EXPECT_EQ(m["models"]["tier1"]["output_size_bytes"], 65536);
  EXPECT_EQ(m["models"]["tier1mean"]["output_size_bytes"], 64);
  EXPECT_EQ(m["models"]["tier1mean"]["input_size_bytes"], 65536);
  EXPECT_EQ(m["models"]["tier1mean"]["output_shape"], nlohmann::ordered_json({1, 16, 1, 1}));
  for (const ExportedProgram& p : e.programs) {
    SCOPED_TRACE(p.file);
    const nlohmann::ordered_json& f = m["models"][to_string(p.model)]["providers"][to_string(p.provider)];
    EXPECT_EQ(f["pte"], p.file);
    EXPECT_EQ(f["sha256"], sha256_hex(p.bytes.data(), p.bytes.size()));
    EXPECT_EQ(f["byte_size"], p.bytes.size());
    const ProgramModel program = read_program(p.bytes, p.file);
    ASSERT_EQ(f["instructions"].size(), program.instructions.size());
    for (size_t i = 0; i < program.instructions.size(); ++i) {
      const ModelOperator& op = program.operators[program.instructions[i].op_index];
      EXPECT_EQ(f["instructions"][i]["id"], "c0i" + std::to_string(i));
      EXPECT_EQ(f["instructions"][i]["op"], op.name + "." + op.overload);
    }
    EXPECT_EQ(f["operators"].size(), program.operators.size());
    EXPECT_TRUE(std::is_sorted(f["operators"].begin(), f["operators"].end()));
    EXPECT_EQ(f["planned_arena_size"], program.non_const_buffer_sizes.at(1));
    EXPECT_EQ(f["planned_arena_size"], p.plan.arena_bytes);
    EXPECT_EQ(f["planned_arena_lower_bound"], p.plan.lower_bound_bytes);
  }
  EXPECT_EQ(m["models"]["tier1"]["providers"]["arm"]["portable_ops"],
            nlohmann::ordered_json({"aten::clamp.out", "aten::leaky_relu.out", "aten::sub.out"}));
  EXPECT_EQ(m["models"]["tier1mean"]["providers"]["arm"]["portable_ops"], nlohmann::ordered_json({"aten::mean.out"}));
  EXPECT_EQ(m["models"]["tier1"]["providers"]["ns"]["portable_ops"], nlohmann::ordered_json::array());
  EXPECT_EQ(m["models"]["tier1mean"]["providers"]["ns"]["portable_ops"], nlohmann::ordered_json::array());
}

TEST(Exporter, OtherSeedIsAUsageError) {
  try {
    export_tier1(kTier1Seed + 1);
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_EQ(failure.exit_code(), 2);
    EXPECT_EQ(std::string(failure.what()), "--seed 20260820: the Tier-1 models are defined for seed 20260819 only");
  }
}

TEST(Exporter, WritesEveryFileAndManifestLast) {
  TemporaryDirectory dir;
  const std::string out = dir.path() + "/a/b";
  std::vector<std::string> written;
  write_tier1_export(exported(), out, [&](const std::string& path) { written.push_back(path); });
  ASSERT_EQ(written.size(), 5u);
  EXPECT_EQ(written.back(), out + "/manifest.json");
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(written[i], out + "/" + exported().programs[i].file);
    EXPECT_EQ(read_file(written[i]), exported().programs[i].bytes);
  }
  const std::vector<uint8_t> manifest = read_file(written.back());
  EXPECT_EQ(std::string(manifest.begin(), manifest.end()), manifest_text(exported()));
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) entries += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(entries, 5u) << "no temporary files left behind";
}

TEST(Exporter, BadOutIsAUsageError) {
  TemporaryDirectory dir;
  const std::string file = dir.path() + "/file";
  write_file_atomic(file, "x");
  for (const std::string& out : {file, file + "/sub"}) {
    try {
      write_tier1_export(exported(), out, [](const std::string&) {});
      FAIL() << "expected a Failure for " << out;
    } catch (const Failure& failure) {
      EXPECT_EQ(failure.exit_code(), 2);
      EXPECT_EQ(std::string(failure.what()).rfind("--out " + out + ": ", 0), 0u) << failure.what();
    }
  }
}

}  // namespace
}  // namespace etns::tools
