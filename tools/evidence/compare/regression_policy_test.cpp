#include "tools/evidence/compare/regression_policy.h"

#include <gtest/gtest.h>

#include "tools/evidence/bundle/test_bundles.h"
#include "tools/common/failure.h"
#include "tools/common/process.h"
#include "tools/evidence/compare/compare.h"

namespace etns::tools {
namespace {

using json = nlohmann::json;

std::string policy_error(const std::string& path) {
  try {
    load_regression_policy(path);
  } catch (const Failure& failure) {
    EXPECT_EQ(failure.exit_code(), 2);
    return failure.what();
  }
  return "(loaded without an error)";
}

TEST(RegressionPolicy, ReadsThresholdsPerKindAndFigure) {
  TemporaryDirectory dir("etns-policy-test");
  const std::string path = dir.path() + "/policy.yaml";
  write_file_atomic(path, std::string("instructions: {clean_end_to_end: 0, layers: 0}\n"
                                      "time:\n  per_layer_sum: 12.5\nmemory:\n  planned_arena: 1\ndefault: 3\n"));
  const RegressionPolicy policy = load_regression_policy(path);
  EXPECT_EQ(policy.threshold_for(MetricKind::Instructions, "layers"), 0.0);
  EXPECT_EQ(policy.threshold_for(MetricKind::Time, "per_layer_sum"), 12.5);
  EXPECT_EQ(policy.threshold_for(MetricKind::Time, "layers"), 3.0) << "the default";
  EXPECT_EQ(policy.threshold_for(MetricKind::Memory, "planned_arena"), 1.0);

  // JSON is YAML too; without a default, what is not listed is not gated.
  write_file_atomic(path, std::string(R"({"time": {"layers": 20}})"));
  const RegressionPolicy time_only = load_regression_policy(path);
  EXPECT_EQ(time_only.threshold_for(MetricKind::Time, "layers"), 20.0);
  EXPECT_FALSE(time_only.threshold_for(MetricKind::Instructions, "layers").has_value());
}

TEST(RegressionPolicy, EveryBadKeyIsOneLineNamingIt) {
  TemporaryDirectory dir("etns-policy-test");
  const std::string path = dir.path() + "/policy.yaml";
  const std::pair<std::string, std::string> cases[] = {
      {"time:\n  layer: 5\n", "time.layer: unknown key (did you mean 'layers'?)"},
      {"instruction:\n  layers: 0\n", "instruction: unknown key (did you mean 'instructions'?)"},
      {"memory:\n  planned_arena: -1\n", "memory.planned_arena: expected a percentage >= 0, found '-1'"},
      {"memory:\n  planned_arena: lots\n", "memory.planned_arena: expected a percentage >= 0, found 'lots'"},
      {"time: 5\n", "time: expected a mapping of figure: percentage"},
      {"default:\n", "default: expected a percentage >= 0, found null"},
      {"- 5\n", "/: expected a mapping with instructions, time, memory or default"},
      {"{}\n", "/: no threshold: give at least one of instructions, time, memory or default"},
  };
  for (const auto& [text, error] : cases) {
    write_file_atomic(path, text);
    EXPECT_EQ(policy_error(path), path + ": " + error) << text;
  }
  write_file_atomic(path, std::string("time: [1,\n"));
  EXPECT_EQ(policy_error(path).rfind(path + ": line ", 0), 0u);
  EXPECT_EQ(policy_error(dir.path() + "/absent.yaml"), "--policy " + dir.path() + "/absent.yaml: cannot read the file");
}

// Each figure meets its own gate: a per-instruction threshold can stop a row
// while the run's totals pass.
TEST(RegressionPolicy, GatesEachFigureWithItsThreshold) {
  TemporaryDirectory dir("etns-policy-test");
  const std::string a = testing::write_synthetic_bundle(dir.path(), "a");
  ProfileResult slower = testing::synthetic_result();
  slower.layers[0].samples = {{20, 20, 20}};  // c0i0 11 -> 20 ns (+82 %), beyond its noise (±27 %)
  slower.layer_primary[0] = {20, 20, 20};
  const std::string b = testing::write_synthetic_bundle(dir.path(), "b", slower);
  RegressionPolicy policy;
  policy.file = "policy.yaml";
  policy.time_pct = {{"per_layer_sum", 50}, {"layers", 10}};
  const BundleComparison gated = compare_bundles(read_bundle(a), read_bundle(b), policy);
  ASSERT_EQ(gated.regressions.size(), 1u);
  EXPECT_EQ(gated.regressions[0].rfind("c0i0 cortex_m::quantized_add.out: 11 -> 20 ns (+81.8%", 0), 0u)
      << gated.regressions[0];
  EXPECT_NE(gated.regressions[0].find("threshold +10%, policy.yaml"), std::string::npos) << gated.regressions[0];
  EXPECT_NE(comparison_markdown(gated).find("**Regressions** beyond the thresholds of policy.yaml:"), std::string::npos);

  policy.time_pct["layers"] = 90;
  EXPECT_TRUE(compare_bundles(read_bundle(a), read_bundle(b), policy).passed());
}

// A gated figure the baseline has and the candidate lacks (null in both of
// its documents, which must agree) never passes.
TEST(RegressionPolicy, AGateNeverPassesOnAMissingValue) {
  TemporaryDirectory dir("etns-policy-test");
  const std::string a = testing::write_synthetic_bundle(dir.path(), "a");
  const std::string b = testing::write_synthetic_bundle(dir.path(), "b");
  for (const char* file : {"summary.json", "profile_results.json"}) {
    json document = testing::read_document(b, file);
    document["clean_end_to_end"] = nullptr;
    testing::rewrite_in_bundle(b, file, document);
  }
  const BundleComparison compared = compare_bundles(read_bundle(a), read_bundle(b), threshold_policy(1000));
  ASSERT_EQ(compared.regressions.size(), 1u);
  EXPECT_EQ(compared.regressions[0], "clean_end_to_end: 45 ns in the baseline, missing in the candidate (threshold +1000%)");
  EXPECT_FALSE(compared.passed());
  EXPECT_TRUE(compare_bundles(read_bundle(a), read_bundle(b), threshold_policy(std::nullopt)).passed())
      << "without a gate nothing is a regression";
}

}  // namespace
}  // namespace etns::tools
