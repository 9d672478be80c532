#include "tools/writers/export/exporter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/sha256.h"
#include "tools/writers/export/coverage_models.h"
#include "tools/writers/export/dscnn_model.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/program_model.h"

namespace etns::tools {
namespace {

const Tier1Export& exported() {
  static const Tier1Export once = export_tier1();
  return once;
}

// The evidence models first, in upstream order, then the coverage models,
// then the application model.
std::vector<std::string> model_names() {
  std::vector<std::string> names = {"tier1", "tier1mean"};
  for (const CoverageModel& m : coverage_models()) names.push_back(m.name);
  names.push_back(kDscnnModel);
  return names;
}

QuantizedGraph graph_of(const ExportedProgram& p, uint64_t seed = kTier1Seed) {
  if (p.model == "tier1") return build_quantized_graph(Tier1Model::Tier1, p.provider, seed);
  if (p.model == "tier1mean") return build_quantized_graph(Tier1Model::Tier1Mean, p.provider, seed);
  if (p.model == kDscnnModel) return build_dscnn_graph(p.provider, seed);
  return build_coverage_graph(p.model, p.provider, seed);
}

TEST(Exporter, EveryModelForBothProvidersInOrder) {
  const Tier1Export& e = exported();
  const std::vector<std::string> names = model_names();
  ASSERT_EQ(e.programs.size(), 2 * names.size());
  EXPECT_EQ(names.size(), 12u);
  for (size_t i = 0; i < e.programs.size(); ++i) {
    const std::string want = names[i / 2] + (i % 2 == 0 ? "_arm.pte" : "_ns.pte");
    EXPECT_EQ(e.programs[i].file, want);
    // The bytes are graph_to_pte's for the model's graph.
    EXPECT_EQ(e.programs[i].bytes, graph_to_pte(graph_of(e.programs[i])));
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
  EXPECT_EQ(m["models"]["tier1"]["providers"]["ns"]["channels_last"], true);
  EXPECT_EQ(m["models"]["tier1mean"]["providers"]["ns"]["channels_last"], false);
  EXPECT_EQ(m["models"]["sub_channel"]["providers"]["arm"]["channels_last"], false);
  EXPECT_EQ(m["models"]["sub_channel"]["providers"]["ns"]["channels_last"], true);
  EXPECT_EQ(m["models"]["tier1"]["kind"], "evidence");
  EXPECT_EQ(m["models"]["relu6"]["kind"], "coverage");
  EXPECT_EQ(m["models"]["dscnn"]["kind"], "application");
  EXPECT_EQ(m["models"]["mean_last"]["output_shape"], nlohmann::ordered_json({2, 12}));
  EXPECT_EQ(m["models"]["tier1"]["output_size_bytes"], 65536);
  EXPECT_EQ(m["models"]["tier1mean"]["output_size_bytes"], 64);
  EXPECT_EQ(m["models"]["tier1mean"]["input_size_bytes"], 65536);
  EXPECT_EQ(m["models"]["tier1mean"]["output_shape"], nlohmann::ordered_json({1, 16, 1, 1}));
  for (const ExportedProgram& p : e.programs) {
    SCOPED_TRACE(p.file);
    const nlohmann::ordered_json& f = m["models"][p.model]["providers"][to_string(p.provider)];
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
  // Every coverage model: arm keeps exactly its portable op, ns has none.
  const std::map<std::string, std::string> portable = {
      {"relu6", "aten::clamp.out"},          {"hardtanh", "aten::clamp.out"},
      {"clamp", "aten::clamp.out"},          {"clamp_min", "aten::clamp.out"},
      {"leaky_relu_0p01", "aten::leaky_relu.out"}, {"leaky_relu_0p2", "aten::leaky_relu.out"},
      {"sub_channel", "aten::sub.out"},      {"mean_c", "aten::mean.out"},
      {"mean_last", "aten::mean.out"}};
  for (const auto& [model, op] : portable) {
    SCOPED_TRACE(model);
    EXPECT_EQ(m["models"][model]["providers"]["arm"]["portable_ops"], nlohmann::ordered_json({op}));
    EXPECT_EQ(m["models"][model]["providers"]["ns"]["portable_ops"], nlohmann::ordered_json::array());
  }
  // Each exported program's arena is at its lower bound.
  for (const ExportedProgram& p : e.programs) EXPECT_EQ(p.plan.arena_bytes, p.plan.lower_bound_bytes) << p.file;
}

TEST(Exporter, AnotherSeedGivesOtherValidPrograms) {
  const uint64_t seed = 7;
  const Tier1Export other = export_tier1(seed);
  ASSERT_EQ(other.programs.size(), exported().programs.size());
  EXPECT_EQ(other.manifest["seed"], seed);
  for (size_t i = 0; i < other.programs.size(); ++i) {
    SCOPED_TRACE(other.programs[i].file);
    EXPECT_NE(other.programs[i].bytes, exported().programs[i].bytes) << "weights or quantisation follow the seed";
    EXPECT_EQ(other.programs[i].bytes, graph_to_pte(graph_of(other.programs[i], seed)));
  }
  for (size_t i = 0; i < other.inputs.size(); ++i) EXPECT_NE(other.inputs[i].bytes, exported().inputs[i].bytes);
}

TEST(Exporter, WritesEveryFileAndManifestLast) {
  TemporaryDirectory dir;
  const std::string out = dir.path() + "/a/b";
  std::vector<std::string> written;
  write_tier1_export(exported(), out, [&](const std::string& path) { written.push_back(path); });
  const Tier1Export& e = exported();
  const size_t files = e.programs.size() + e.inputs.size() + 1;
  ASSERT_EQ(written.size(), files);
  EXPECT_EQ(written.back(), out + "/manifest.json");
  for (size_t i = 0; i < e.programs.size(); ++i) {
    EXPECT_EQ(written[i], out + "/" + e.programs[i].file);
    EXPECT_EQ(read_file(written[i]), e.programs[i].bytes);
  }
  for (size_t i = 0; i < e.inputs.size(); ++i) {
    EXPECT_EQ(written[e.programs.size() + i], out + "/" + e.inputs[i].file);
    EXPECT_EQ(read_file(written[e.programs.size() + i]), e.inputs[i].bytes);
  }
  const std::vector<uint8_t> manifest = read_file(written.back());
  EXPECT_EQ(std::string(manifest.begin(), manifest.end()), manifest_text(e));
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) entries += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(entries, files) << "no temporary files left behind";
}

TEST(Exporter, ExampleInputsAreTheModelsInputsInMemoryOrder) {
  const Tier1Export& e = exported();
  // One per model, plus sub_channel's channels_last one for ns.
  ASSERT_EQ(e.inputs.size(), model_names().size() + 1);
  for (const ExportedProgram& p : e.programs) {
    SCOPED_TRACE(p.file);
    const std::string file = e.manifest["models"][p.model]["providers"][to_string(p.provider)]["example_input"];
    const auto it = std::find_if(e.inputs.begin(), e.inputs.end(), [&](const ExportedFile& f) { return f.file == file; });
    ASSERT_NE(it, e.inputs.end());
    const ProgramModel program = read_program(p.bytes, p.file);
    const ModelTensor& input = program.values.at(program.inputs.at(0)).tensor;
    EXPECT_EQ(it->bytes.size(), input.numel() * sizeof(float));
    std::vector<float> logical = p.model.rfind("tier1", 0) == 0 ? example_input()
                                 : p.model == kDscnnModel        ? dscnn_example_input(kTier1Seed)
                                                                 : coverage_example_input(p.model, kTier1Seed);
    if (input.sizes.size() == 4) {
      logical = to_memory_order(logical, std::vector<int32_t>(input.sizes.begin(), input.sizes.end()), input.dim_order);
    }
    std::vector<uint8_t> want(logical.size() * sizeof(float));
    std::memcpy(want.data(), logical.data(), want.size());
    EXPECT_EQ(it->bytes, want);
  }
  EXPECT_EQ(e.manifest["models"]["sub_channel"]["providers"]["ns"]["example_input"], "sub_channel_ns.input.bin");
  EXPECT_EQ(e.manifest["models"]["relu6"]["providers"]["ns"]["example_input"], "relu6.input.bin");
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
