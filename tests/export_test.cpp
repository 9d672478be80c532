// `etns export` through the real CLI: the files it writes are deterministic,
// load and run on their provider exactly like the graph reference executor,
// inspect as the upstream programs' instruction lists, and agree with the
// manifest beside them.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/graph_reference.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"
#include "tools/export/tier1_models.h"
#include "tools/runner/host_session.h"

namespace etns {
namespace {

using tools::Provider;
using tools::Tier1Model;

const std::vector<std::string> kFiles = {"tier1_arm.pte", "tier1_ns.pte", "tier1mean_arm.pte", "tier1mean_ns.pte",
                                         "manifest.json"};

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
  ASSERT_EQ(lines.size(), kFiles.size()) << e.result.stdout_text;
  for (size_t i = 0; i < kFiles.size(); ++i) {
    EXPECT_EQ(lines[i].rfind("wrote " + e.out() + "/" + kFiles[i], 0), 0u) << lines[i];
  }
  // Each program's line gives its arena beside its lower bound.
  EXPECT_NE(lines[1].find("planned arena 81920 bytes (lower bound 81920)"), std::string::npos) << lines[1];
}

TEST(Export, TwoRunsWriteIdenticalBytes) {
  ASSERT_EQ(exported().result.exit_code, 0);
  testing::TempDir second;
  const testing::CliResult result = testing::run_cli("export --out " + second.path() + " --seed 20260819");
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  for (const std::string& file : kFiles) {
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
      const tools::GraphTensor& in = g.tensors[g.input];
      const std::vector<float> input = tools::to_memory_order(x, in.sizes, in.dim_order);
      const std::vector<float> want = testing::run_graph(g, input);
      ASSERT_EQ(want.size() * sizeof(float), g.tensors[g.output].nbytes());
      tools::HostSession session(exported().out() + "/" + name + ".pte", &testing::graph_registry(p));
      session.set_input(0, testing::float_bytes(input));
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

TEST(Export, NsProgramsNameEachOperatorArmLacks) {
  ASSERT_EQ(exported().result.exit_code, 0);
  const std::map<std::string, std::vector<std::string>> missing = {
      {"tier1_ns.pte",
       {"cortex_m_ns::quantized_hardswish.out", "cortex_m_ns::quantized_leaky_relu.out",
        "cortex_m_ns::quantized_sub.out", "cortex_m_ns::quantized_relu.out"}},
      {"tier1mean_ns.pte", {"cortex_m_ns::quantized_mean.out"}},
  };
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
      EXPECT_EQ(facts["output_shape"], entry["output_shape"]);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4u);
}

TEST(Export, BadOutIsOneLineAndExitTwo) {
  testing::TempDir dir;
  const std::string file = dir.path() + "/file";
  tools::write_file_atomic(file, "x");
  const testing::CliResult result = testing::run_cli("export --out " + file);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text, "etns: --out " + file + ": not a folder\n");
  EXPECT_EQ(result.stdout_text, "");
  const testing::CliResult seed = testing::run_cli("export --out " + dir.path() + "/x --seed 7");
  EXPECT_EQ(seed.exit_code, 2);
  EXPECT_EQ(seed.stderr_text, "etns: --seed 7: the Tier-1 models are defined for seed 20260819 only\n");
}

}  // namespace
}  // namespace etns
