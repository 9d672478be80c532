#include "tools/evidence/compare/compare.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tools/evidence/bundle/test_bundles.h"
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

// The programs' instruction lists, as `etns inspect` prints them.
const std::vector<std::string> kTier1Arm = {
    "cortex_m::quantize_per_tensor.out",   "cortex_m::quantized_conv2d.out", "cortex_m::minimum.out",
    "cortex_m::quantized_mul.out",         "cortex_m::dequantize_per_tensor.out", "cortex_m::quantized_conv2d.out",
    "cortex_m::dequantize_per_tensor.out", "aten::leaky_relu.out",           "aten::sub.out",
    "cortex_m::quantize_per_tensor.out",   "aten::clamp.out",                "cortex_m::dequantize_per_tensor.out"};
const std::vector<std::string> kTier1Ns = {
    "cortex_m::quantize_per_tensor.out",      "cortex_m::quantized_conv2d.out",
    "cortex_m_ns::quantized_hardswish.out",   "cortex_m::quantized_conv2d.out",
    "cortex_m_ns::quantized_leaky_relu.out",  "cortex_m_ns::quantized_sub.out",
    "cortex_m_ns::quantized_relu.out",        "cortex_m::dequantize_per_tensor.out"};
const std::vector<std::string> kTier1MeanArm = {"cortex_m::quantize_per_tensor.out", "cortex_m::dequantize_per_tensor.out",
                                                "aten::mean.out", "cortex_m::quantize_per_tensor.out",
                                                "cortex_m::dequantize_per_tensor.out"};
const std::vector<std::string> kTier1MeanNs = {"cortex_m::quantize_per_tensor.out", "cortex_m_ns::quantized_mean.out",
                                               "cortex_m::dequantize_per_tensor.out"};
// dscnn has no Tier-1 operator: `etns export` writes the same program for arm and ns.
const std::vector<std::string> kDscnn = {
    "cortex_m::quantize_per_tensor.out",     "cortex_m::quantized_conv2d.out",
    "cortex_m::quantized_depthwise_conv2d.out", "cortex_m::quantized_conv2d.out",
    "cortex_m::quantized_avg_pool2d.out",    "dim_order_ops::_to_dim_order_copy.out",
    "aten::view_copy.out",                   "cortex_m::quantized_linear.out",
    "cortex_m::softmax.out",                 "cortex_m::dequantize_per_tensor.out"};

using Indices = std::vector<size_t>;

// The match as text, one row per line: "group 2-4 | 2 region".
std::string rows_text(const std::vector<MatchedRow>& rows) {
  auto span = [](const Indices& indices) {
    if (indices.empty()) return std::string("-");
    if (indices.size() == 1) return std::to_string(indices.front());
    return std::to_string(indices.front()) + "-" + std::to_string(indices.back());
  };
  std::string text;
  for (const MatchedRow& row : rows) {
    text += std::string(code_of(row.match)) + " " + span(row.baseline) + " | " + span(row.candidate) +
            (row.tier1_region ? " region" : "") + "\n";
  }
  return text;
}

// Every instruction of both lists is on exactly one row, in program order,
// and a same-operator row pairs identical names.
void expect_covers(const std::vector<MatchedRow>& rows, const std::vector<std::string>& a,
                   const std::vector<std::string>& b) {
  Indices seen_a, seen_b;
  for (const MatchedRow& row : rows) {
    seen_a.insert(seen_a.end(), row.baseline.begin(), row.baseline.end());
    seen_b.insert(seen_b.end(), row.candidate.begin(), row.candidate.end());
    if (row.match == RowMatch::SameOperator) {
      ASSERT_EQ(row.baseline.size(), 1u);
      ASSERT_EQ(row.candidate.size(), 1u);
      EXPECT_EQ(a[row.baseline[0]], b[row.candidate[0]]);
    }
  }
  Indices all_a(a.size()), all_b(b.size());
  for (size_t i = 0; i < a.size(); ++i) all_a[i] = i;
  for (size_t j = 0; j < b.size(); ++j) all_b[j] = j;
  EXPECT_EQ(seen_a, all_a);
  EXPECT_EQ(seen_b, all_b);
}

// The ns hardswish replaces arm's minimum and quantized_mul (and the
// dequantize beside them): a group, but no Tier-1 region, as arm runs no
// portable kernel there; the three ns kernels replace the float island, the
// region. quantized_mul is never beside a convolution.
TEST(MatchByStructure, Tier1PairsGroupsNotPositions) {
  const std::vector<MatchedRow> rows = match_by_structure(kTier1Arm, kTier1Ns);
  expect_covers(rows, kTier1Arm, kTier1Ns);
  EXPECT_EQ(rows_text(rows),
            "same_operator 0 | 0\n"
            "same_operator 1 | 1\n"
            "group 2-4 | 2\n"
            "same_operator 5 | 3\n"
            "group 6-10 | 4-6 region\n"
            "same_operator 11 | 7\n");
}

TEST(MatchByStructure, Tier1MeanIslandIsOneRegion) {
  const std::vector<MatchedRow> rows = match_by_structure(kTier1MeanArm, kTier1MeanNs);
  expect_covers(rows, kTier1MeanArm, kTier1MeanNs);
  EXPECT_EQ(rows_text(rows), "same_operator 0 | 0\ngroup 1-3 | 1 region\nsame_operator 4 | 2\n");
  // Swapped, the longest common subsequence could pair ns's dequantize with
  // arm's first one; the fewest stretches keep the island one group, and a
  // candidate with only portable kernels there makes no Tier-1 region.
  EXPECT_EQ(rows_text(match_by_structure(kTier1MeanNs, kTier1MeanArm)),
            "same_operator 0 | 0\ngroup 1 | 1-3\nsame_operator 2 | 4\n");
}

// Portable and data-movement operators both programs run are anchors like any
// other: dscnn's view_copy and _to_dim_order_copy are never a Tier-1 region.
TEST(MatchByStructure, IdenticalProgramsMatchRowForRow) {
  const std::vector<MatchedRow> rows = match_by_structure(kDscnn, kDscnn);
  expect_covers(rows, kDscnn, kDscnn);
  ASSERT_EQ(rows.size(), kDscnn.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].match, RowMatch::SameOperator) << k;
    EXPECT_EQ(rows[k].baseline, Indices{k});
    EXPECT_FALSE(rows[k].tier1_region) << k;
  }
  // One portable kernel replaced: the region is that kernel alone, not the
  // data movement after it. A stock kernel replaced is a group, no region.
  std::vector<std::string> arm = kDscnn;
  arm[4] = "aten::avg_pool2d.out";
  std::vector<std::string> ns = kDscnn;
  ns[4] = "cortex_m_ns::quantized_avg_pool2d.out";
  const std::vector<MatchedRow> one = match_by_structure(arm, ns);
  expect_covers(one, arm, ns);
  const std::string rest = "same_operator 5 | 5\nsame_operator 6 | 6\nsame_operator 7 | 7\n"
                           "same_operator 8 | 8\nsame_operator 9 | 9\n";
  const std::string head = "same_operator 0 | 0\nsame_operator 1 | 1\nsame_operator 2 | 2\nsame_operator 3 | 3\n";
  EXPECT_EQ(rows_text(one), head + "group 4 | 4 region\n" + rest);
  EXPECT_EQ(rows_text(match_by_structure(kDscnn, ns)), head + "group 4 | 4\n" + rest);
}

TEST(MatchByStructure, AnOperatorOnOneSideOnly) {
  const std::vector<std::string> arm = {"cortex_m::quantize_per_tensor.out", "cortex_m::quantized_conv2d.out",
                                        "aten::view_copy.out", "cortex_m::dequantize_per_tensor.out"};
  std::vector<std::string> ns = arm;
  ns.erase(ns.begin() + 2);
  EXPECT_EQ(rows_text(match_by_structure(arm, ns)),
            "same_operator 0 | 0\nsame_operator 1 | 1\nonly_in_baseline 2 | -\nsame_operator 3 | 2\n");
  // A Tier-1 kernel with nothing on the other side replaces nothing: no region.
  ns = arm;
  ns.insert(ns.begin() + 2, "cortex_m_ns::quantized_relu.out");
  const std::vector<MatchedRow> rows = match_by_structure(arm, ns);
  expect_covers(rows, arm, ns);
  EXPECT_EQ(rows_text(rows),
            "same_operator 0 | 0\nsame_operator 1 | 1\nonly_in_candidate - | 2\nsame_operator 2 | 3\n"
            "same_operator 3 | 4\n");
  // Nothing shared: one group; nothing at all: no rows.
  EXPECT_EQ(rows_text(match_by_structure({"aten::mean.out"}, {"cortex_m_ns::quantized_mean.out"})),
            "group 0 | 0 region\n");
  EXPECT_EQ(rows_text(match_by_structure({}, {"aten::mean.out"})), "only_in_candidate - | 0\n");
  EXPECT_TRUE(match_by_structure({}, {}).empty());
}

// × is candidate ÷ baseline everywhere: a figure that grew by 91 % is 1.9×.
TEST(CompareFormat, FactorIsCandidateOverBaseline) {
  EXPECT_EQ(format_delta_pct(100, 191), "+91.0%");
  EXPECT_EQ(format_factor(100, 191), "1.9×");
  EXPECT_EQ(format_factor(1156091, 461878), "0.40×");
  EXPECT_EQ(format_factor(741211, 4234), "0.0057×");
  EXPECT_EQ(format_factor(2, 500), "250×");
  EXPECT_EQ(format_factor(64, 0), "0×");
  EXPECT_EQ(format_factor(0, 64), "");
  EXPECT_EQ(delta_json(100, 191)["factor"], 1.91);
  EXPECT_TRUE(delta_json(0, 1)["factor"].is_null());
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
