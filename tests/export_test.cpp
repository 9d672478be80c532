// `etns export` through the real CLI: the files it writes are deterministic,
// load and run on their provider exactly like the graph reference executor,
// inspect as the upstream programs' instruction lists, and agree with the
// manifest beside them.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/graph_reference.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"
#include "tools/evidence/config/config.h"
#include "tools/writers/export/coverage_models.h"
#include "tools/writers/export/dscnn_model.h"
#include "tools/writers/export/tier1_models.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/evidence/runner/model_facts.h"

namespace etns {
namespace {

using tools::Provider;
using tools::Tier1Model;

// The evidence programs come first, in upstream order.
const std::vector<std::string> kEvidenceFiles = {"tier1_arm.pte", "tier1_ns.pte", "tier1mean_arm.pte",
                                                 "tier1mean_ns.pte"};

std::vector<std::string> coverage_names() {
  std::vector<std::string> names;
  for (const tools::CoverageModel& m : tools::coverage_models()) names.push_back(m.name);
  return names;
}

// Every file the export writes, in the order it prints them.
std::vector<std::string> all_files() {
  std::vector<std::string> files = kEvidenceFiles, inputs = {"tier1.input.bin", "tier1mean.input.bin"};
  for (const std::string& name : coverage_names()) {
    files.push_back(name + "_arm.pte");
    files.push_back(name + "_ns.pte");
    inputs.push_back(name + ".input.bin");
    if (name == "sub_channel") inputs.push_back("sub_channel_ns.input.bin");
  }
  files.push_back(std::string(tools::kDscnnModel) + "_arm.pte");
  files.push_back(std::string(tools::kDscnnModel) + "_ns.pte");
  inputs.push_back(std::string(tools::kDscnnModel) + ".input.bin");
  files.insert(files.end(), inputs.begin(), inputs.end());
  files.push_back("manifest.json");
  return files;
}

// One export for the whole binary, made through the CLI.
struct Export {
  testing::TempDir dir;
  testing::CliResult result;
  std::string out() const { return dir.path() + "/export"; }
};
const Export& exported() {
  static Export e;
  static const bool ran = [] {
    e.result = testing::run_cli("export --out " + e.out());
    return true;
  }();
  (void)ran;
  return e;
}

nlohmann::json manifest() {
  return tools::read_json_file(exported().out() + "/manifest.json");
}

TEST(Export, WritesOneLinePerFile) {
  const Export& e = exported();
  ASSERT_EQ(e.result.exit_code, 0) << e.result.stderr_text;
  EXPECT_EQ(e.result.stderr_text, "");
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = e.result.stdout_text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(e.result.stdout_text.substr(start, end - start));
  const std::vector<std::string> files = all_files();
  ASSERT_EQ(lines.size(), files.size()) << e.result.stdout_text;
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(lines[i].rfind("wrote " + e.out() + "/" + files[i], 0), 0u) << lines[i];
  }
  // Each program's line gives its arena beside its lower bound.
  EXPECT_NE(lines[1].find("planned arena 81920 bytes (lower bound 81920)"), std::string::npos) << lines[1];
}

TEST(Export, TwoRunsWriteIdenticalBytes) {
  ASSERT_EQ(exported().result.exit_code, 0);
  testing::TempDir second;
  const testing::CliResult result = testing::run_cli("export --out " + second.path() + " --seed 20260819");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  for (const std::string& file : all_files()) {
    SCOPED_TRACE(file);
    const std::vector<uint8_t> a = tools::read_file(exported().out() + "/" + file);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(tools::read_file(second.path() + "/" + file), a);
  }
}

TEST(Export, ProgramsRunLikeTheReferenceExecutor) {
  ASSERT_EQ(exported().result.exit_code, 0);
  const std::vector<float> x = tools::example_input();
  for (Tier1Model m : {Tier1Model::Tier1, Tier1Model::Tier1Mean})
    for (Provider p : {Provider::Arm, Provider::Ns}) {
      const std::string name = std::string(to_string(m)) + "_" + to_string(p);
      SCOPED_TRACE(name);
      const tools::QuantizedGraph g = tools::build_quantized_graph(m, p);
      const tools::GraphTensor& in = g.tensors[g.input()];
      const std::vector<float> input = tools::to_memory_order(x, in.sizes, in.dim_order);
      const std::vector<float> want = testing::run_graph(g, input);
      ASSERT_EQ(want.size() * sizeof(float), g.tensors[g.output()].nbytes());
      tools::HostSession session(exported().out() + "/" + name + ".pte", &testing::graph_registry(p));
      session.set_input(0, testing::float_bytes(input));
      session.execute();
      EXPECT_EQ(session.output_bytes(0), testing::float_bytes(want)) << "bit for bit";
    }
  // The coverage programs and the application model, on their own example
  // inputs as the export wrote them.
  const nlohmann::json m = manifest();
  std::vector<std::string> others = coverage_names();
  others.push_back(tools::kDscnnModel);
  for (const std::string& name : others)
    for (Provider p : {Provider::Arm, Provider::Ns}) {
      const std::string program = name + "_" + to_string(p);
      SCOPED_TRACE(program);
      const tools::QuantizedGraph g = name == tools::kDscnnModel
                                          ? tools::build_dscnn_graph(p, tools::kTier1Seed)
                                          : tools::build_coverage_graph(name, p, tools::kTier1Seed);
      const std::string input_file = m["models"][name]["providers"][to_string(p)]["example_input"];
      const std::vector<uint8_t> input = tools::read_file(exported().out() + "/" + input_file);
      std::vector<float> values(input.size() / sizeof(float));
      std::memcpy(values.data(), input.data(), input.size());
      const std::vector<float> want = testing::run_graph(g, values);
      ASSERT_EQ(want.size() * sizeof(float), g.tensors[g.output()].nbytes());
      tools::HostSession session(exported().out() + "/" + program + ".pte", &testing::graph_registry(p));
      session.set_input(0, input);
      session.execute();
      EXPECT_EQ(session.output_bytes(0), testing::float_bytes(want)) << "bit for bit";
    }
}

TEST(Export, InspectShowsTheUpstreamInstructionLists) {
  ASSERT_EQ(exported().result.exit_code, 0);
  // profiler.md §12.6.
  const std::string q = "cortex_m::quantize_per_tensor.out", dq = "cortex_m::dequantize_per_tensor.out",
                    conv = "cortex_m::quantized_conv2d.out";
  const std::map<std::string, std::vector<std::string>> instructions = {
      {"tier1_arm.pte",
       {q, conv, "cortex_m::minimum.out", "cortex_m::quantized_mul.out", dq, conv, dq, "aten::leaky_relu.out",
        "aten::sub.out", q, "aten::clamp.out", dq}},
      {"tier1_ns.pte",
       {q, conv, "cortex_m_ns::quantized_hardswish.out", conv, "cortex_m_ns::quantized_leaky_relu.out",
        "cortex_m_ns::quantized_sub.out", "cortex_m_ns::quantized_relu.out", dq}},
      {"tier1mean_arm.pte", {q, dq, "aten::mean.out", q, dq}},
      {"tier1mean_ns.pte", {q, "cortex_m_ns::quantized_mean.out", dq}},
  };
  const std::map<std::string, std::vector<std::string>> portable = {
      {"tier1_arm.pte", {"aten::clamp.out", "aten::leaky_relu.out", "aten::sub.out"}},
      {"tier1_ns.pte", {}},
      {"tier1mean_arm.pte", {"aten::mean.out"}},
      {"tier1mean_ns.pte", {}},
  };
  const nlohmann::json m = manifest();
  for (const auto& [file, want] : instructions) {
    SCOPED_TRACE(file);
    const std::string provider = file.find("_ns") != std::string::npos ? "ns" : "arm";
    const testing::CliResult result =
        testing::run_cli("inspect --json --provider " + provider + " " + exported().out() + "/" + file);
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    const nlohmann::json d = nlohmann::json::parse(result.stdout_text);
    const nlohmann::json& method = d["methods"][0];
    ASSERT_EQ(method["instructions"].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(method["instructions"][i]["id"], "c0i" + std::to_string(i));
      EXPECT_EQ(method["instructions"][i]["operator"], want[i]) << i;
    }
    EXPECT_EQ(method["portable_operators"].get<std::vector<std::string>>(), portable.at(file));
    // The manifest says the same.
    const std::string model = file.substr(0, file.find('_'));
    const nlohmann::json& facts = m["models"][model]["providers"][provider];
    EXPECT_EQ(facts["portable_ops"].get<std::vector<std::string>>(), portable.at(file));
    EXPECT_EQ(method["planned_buffers_bytes"], nlohmann::json::array({facts["planned_arena_size"]}));
    EXPECT_EQ(d["sha256"], facts["sha256"]);
    EXPECT_EQ(d["size_bytes"], facts["byte_size"]);
  }
}

TEST(Export, InspectShowsEachCoverageProgramsLowering) {
  ASSERT_EQ(exported().result.exit_code, 0);
  const nlohmann::json m = manifest();
  for (const tools::CoverageModel& model : tools::coverage_models())
    for (const std::string provider : {"arm", "ns"}) {
      const std::string file = model.name + "_" + provider + ".pte";
      SCOPED_TRACE(file);
      const testing::CliResult result =
          testing::run_cli("inspect --json --provider " + provider + " " + exported().out() + "/" + file);
      ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
      const nlohmann::json method = nlohmann::json::parse(result.stdout_text)["methods"][0];
      const std::vector<std::string> portable = method["portable_operators"].get<std::vector<std::string>>();
      EXPECT_EQ(m["models"][model.name]["providers"][provider]["portable_ops"].get<std::vector<std::string>>(),
                portable);
      bool has_ns_op = false;
      for (const nlohmann::json& instruction : method["instructions"]) {
        has_ns_op = has_ns_op || instruction["operator"] == model.ns_operator + ".out";
      }
      if (std::string(provider) == "ns") {
        EXPECT_EQ(method["instructions"].size(), 3u);
        EXPECT_TRUE(has_ns_op);
        EXPECT_TRUE(portable.empty());
      } else {
        EXPECT_FALSE(has_ns_op);
        EXPECT_EQ(portable.size(), 1u);
      }
    }
}

TEST(Export, NsProgramsNameEachOperatorArmLacks) {
  ASSERT_EQ(exported().result.exit_code, 0);
  std::map<std::string, std::vector<std::string>> missing = {
      {"tier1_ns.pte",
       {"cortex_m_ns::quantized_hardswish.out", "cortex_m_ns::quantized_leaky_relu.out",
        "cortex_m_ns::quantized_sub.out", "cortex_m_ns::quantized_relu.out"}},
      {"tier1mean_ns.pte", {"cortex_m_ns::quantized_mean.out"}},
  };
  for (const tools::CoverageModel& model : tools::coverage_models()) {
    missing[model.name + "_ns.pte"] = {model.ns_operator + ".out"};
  }
  for (const auto& [file, names] : missing) {
    SCOPED_TRACE(file);
    const testing::CliResult result =
        testing::run_cli("inspect --provider arm " + exported().out() + "/" + file);
    EXPECT_EQ(result.exit_code, 1);
    for (const std::string& name : names) {
      EXPECT_NE(result.stderr_text.find("missing operator"), std::string::npos);
      EXPECT_NE(result.stderr_text.find(name), std::string::npos) << name << "\n" << result.stderr_text;
    }
    EXPECT_NE(result.stderr_text.find(std::to_string(names.size()) + " operator(s) missing from provider 'arm'"),
              std::string::npos)
        << result.stderr_text;
  }
}

TEST(Export, ManifestAgreesWithTheFiles) {
  ASSERT_EQ(exported().result.exit_code, 0);
  const nlohmann::json m = manifest();
  EXPECT_EQ(m["seed"], 20260819);
  EXPECT_EQ(m["exporter"].get<std::string>().rfind("etns ", 0), 0u);
  size_t checked = 0;
  for (const auto& [model, entry] : m["models"].items()) {
    for (const auto& [provider, facts] : entry["providers"].items()) {
      const std::string path = exported().out() + "/" + facts["pte"].get<std::string>();
      SCOPED_TRACE(path);
      EXPECT_EQ(facts["pte"], model + "_" + provider + ".pte");
      const std::vector<uint8_t> bytes = tools::read_file(path);
      EXPECT_EQ(facts["sha256"], tools::sha256_hex(bytes.data(), bytes.size()));
      EXPECT_EQ(facts["byte_size"], bytes.size());
      tools::HostSession session(path, nullptr);
      EXPECT_EQ(facts["instructions"].size(), session.method().instruction_count());
      EXPECT_LE(facts["planned_arena_lower_bound"].get<uint64_t>(), facts["planned_arena_size"].get<uint64_t>());
      EXPECT_EQ(facts["input_shape"], entry["input_shape"]);
      const std::vector<uint8_t> input =
          tools::read_file(exported().out() + "/" + facts["example_input"].get<std::string>());
      EXPECT_EQ(input.size(), entry["input_size_bytes"].get<size_t>());
      EXPECT_EQ(facts["output_shape"], entry["output_shape"]);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * (2 + coverage_names().size() + 1));
}

// configs/export_*.yaml profile the exported evidence programs: their arena
// and portable_ops must be the programs' own.
TEST(Export, ShippedConfigsMatchTheExportedPrograms) {
  ASSERT_EQ(exported().result.exit_code, 0);
  const nlohmann::json m = manifest();
  for (const std::string model : {"tier1", "tier1mean"})
    for (const std::string provider : {"arm", "ns"}) {
      const std::string path = std::string(ETNS_SOURCE_DIR) + "/configs/export_" + model + "_" + provider + ".yaml";
      SCOPED_TRACE(path);
      // The config names out/export/; the test's export lives elsewhere.
      const std::vector<uint8_t> text = tools::read_file(path);
      EXPECT_NE(std::string(text.begin(), text.end()).find("path: ../out/export/" + model + "_" + provider + ".pte"),
                std::string::npos);
      const tools::ProfileConfig config = tools::load_profile_config(
          path, {"model.path=" + exported().out() + "/" + model + "_" + provider + ".pte"}, tools::read_model_facts);
      const nlohmann::json& facts = m["models"][model]["providers"][provider];
      EXPECT_EQ(config.portable_ops, facts["portable_ops"].get<std::vector<std::string>>());
      ASSERT_TRUE(config.arena_size.has_value());
      EXPECT_EQ(*config.arena_size, facts["planned_arena_size"].get<int64_t>());
      EXPECT_EQ(protocol::to_string(config.backend), provider);
      EXPECT_EQ(config.ns_ops(), config.backend == protocol::Provider::Ns);
    }
}

TEST(Export, BadOutIsOneLineAndExitTwo) {
  testing::TempDir dir;
  const std::string file = dir.path() + "/file";
  tools::write_file_atomic(file, "x");
  const testing::CliResult result = testing::run_cli("export --out " + file);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: --out " + file + ": not a folder\n");
  EXPECT_EQ(result.stdout_text, "");
  const testing::CliResult seed = testing::run_cli("export --out " + dir.path() + "/x --seed banana");
  EXPECT_EQ(seed.exit_code, 2);
  EXPECT_NE(seed.stderr_text.find("--seed"), std::string::npos) << seed.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/x"));
}

TEST(Export, AnotherSeedExportsOtherProgramsThatRun) {
  ASSERT_EQ(exported().result.exit_code, 0);
  testing::TempDir dir;
  const testing::CliResult result = testing::run_cli("export --out " + dir.path() + " --seed 7");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(tools::read_json_file(dir.path() + "/manifest.json")["seed"], 7);
  for (const std::string program : {"tier1_ns", "relu6_arm", "mean_last_ns"}) {
    SCOPED_TRACE(program);
    EXPECT_NE(tools::read_file(dir.path() + "/" + program + ".pte"),
              tools::read_file(exported().out() + "/" + program + ".pte"));
    const std::string model = program.substr(0, program.rfind('_'));
    const std::string provider = program.substr(program.rfind('_') + 1);
    const testing::CliResult run =
        testing::run_cli("run " + dir.path() + "/" + program + ".pte --provider " + provider + " --input " +
                         dir.path() + "/" + model + ".input.bin --output " + dir.path() + "/" + program + ".out");
    EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  }
}

}  // namespace
}  // namespace etns
