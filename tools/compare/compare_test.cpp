#include "tools/compare/compare.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tools/bundle/test_bundles.h"
#include "tools/common/failure.h"
#include "tools/common/process.h"

namespace etns::tools {
namespace {

std::string refusal(const Bundle& a, const Bundle& b) {
  try {
    compare_bundles(a, b, threshold_policy(std::nullopt));
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "(compared)";
}

TEST(Compare, RefusalsAndLimitsCarryStableCodes) {
  TemporaryDirectory dir("etns-compare-test");
  const Bundle host = read_bundle(testing::write_synthetic_bundle(dir.path(), "host"));
  ProfileResult on_qemu = testing::synthetic_result();
  on_qemu.target = "qemu-m55";
  const Bundle qemu = read_bundle(testing::write_synthetic_bundle(dir.path(), "qemu", on_qemu));
  EXPECT_EQ(refusal(host, qemu),
            "not comparable: the bundles measure different things (host WALL_NS vs qemu-m55 WALL_NS) [different-target]");

  ProfileConfig clean_only = testing::synthetic_config(dir.path(), "clean_only");
  clean_only.per_layer = false;
  ProfileResult no_layers = testing::synthetic_result();
  no_layers.layers.clear();
  no_layers.layer_primary.clear();
  write_bundle(clean_only, no_layers);
  const BundleComparison compared = compare_bundles(host, read_bundle(clean_only.output_dir), threshold_policy(0));
  ASSERT_EQ(compared.issues.size(), 1u);
  EXPECT_EQ(code_of(compared.issues[0].code), std::string("per-layer-missing"));
  EXPECT_EQ(comparison_json(compared)["comparability"]["issues"][0]["code"], "per-layer-missing");
  EXPECT_NE(comparison_markdown(compared).find("(per_layer: false in the other): per-instruction rows omitted "
                                               "[per-layer-missing]"),
            std::string::npos);
  EXPECT_TRUE(compared.passed()) << "a figure the candidate's configuration does not measure is not a regression";
}

// The issue's bundle: profile_results.json without clean_end_to_end, its hash
// recomputed in the manifest so that only the schema can object. Compare
// reads both bundles as `etns compare` does and refuses, naming file and field.
TEST(Compare, RefusesABundleWhoseResultsLackTheCleanFigure) {
  TemporaryDirectory dir("etns-compare-test");
  const std::string baseline = testing::write_synthetic_bundle(dir.path(), "baseline");
  const std::string candidate = testing::write_synthetic_bundle(dir.path(), "candidate");
  nlohmann::json results = testing::read_document(candidate, "profile_results.json");
  ASSERT_TRUE(results.contains("clean_end_to_end"));
  results.erase("clean_end_to_end");
  testing::rewrite_in_bundle(candidate, "profile_results.json", results);
  std::string refused = "(compared)";
  try {
    compare_bundles(read_bundle(baseline), read_bundle(candidate), threshold_policy(std::nullopt));
  } catch (const Failure& failure) {
    refused = failure.what();
  }
  EXPECT_EQ(refused, candidate + "/profile_results.json: /clean_end_to_end: missing (expected an object or null)");
}

TEST(Compare, ConfigurationRowsShowToolchainAndArenas) {
  TemporaryDirectory dir("etns-compare-test");
  const Bundle a = read_bundle(testing::write_synthetic_bundle(dir.path(), "a"));
  ProfileConfig tcm = testing::synthetic_config(dir.path(), "b");
  tcm.arena_location = "tcm";
  write_bundle(tcm, testing::synthetic_result());
  const BundleComparison compared = compare_bundles(a, read_bundle(tcm.output_dir), threshold_policy(std::nullopt));
  auto row = [&](const std::string& name) {
    const auto found = std::find_if(compared.config.begin(), compared.config.end(),
                                    [&](const ConfigRow& r) { return r.name == name; });
    return found == compared.config.end() ? nullptr : &*found;
  };
  ASSERT_NE(row("arena.location"), nullptr);
  EXPECT_EQ(row("arena.location")->baseline, "sram");
  EXPECT_EQ(row("arena.location")->candidate, "tcm");
  EXPECT_FALSE(row("arena.location")->same());
  ASSERT_NE(row("toolchain"), nullptr);
  EXPECT_TRUE(row("toolchain")->same());
  EXPECT_TRUE(row("arena.size")->same());
  ASSERT_NE(row("toolchain.host_compiler"), nullptr);
  EXPECT_NE(comparison_markdown(compared).find("| arena.location | sram | tcm | **diff** |"), std::string::npos);
}

}  // namespace
}  // namespace etns::tools
