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

// Two QEMU runs of one program that estimate cycles: compare puts the
// estimate beside the counts, labelled, and never gates it.
TEST(Compare, EstimatedCyclesStandBesideInstructionsUngated) {
  TemporaryDirectory dir("etns-compare-test");
  using testing::synthetic_qemu_result;
  const ProfileConfig a = testing::synthetic_qemu_config(dir.path(), "a");
  const ProfileConfig b = testing::synthetic_qemu_config(dir.path(), "b");
  write_bundle(a, synthetic_qemu_result({{"c0i0", "cortex_m::quantized_add.out", 100, 150},
                                         {"c0i1", "aten::sub.out", 300, 50}},
                                        420, 230));
  write_bundle(b, synthetic_qemu_result({{"c0i0", "cortex_m::quantized_add.out", 100, 300},
                                         {"c0i1", "aten::sub.out", 300, 50}},
                                        420, 460));
  const BundleComparison compared = compare_bundles(read_bundle(a.output_dir), read_bundle(b.output_dir),
                                                    threshold_policy(0));
  EXPECT_TRUE(compared.passed()) << "the estimate doubled, the counts did not: the gate is on the counts";
  const std::string md = comparison_markdown(compared);
  EXPECT_NE(md.find("| cycles.clean_end_to_end | estimated cycles | 230 | 460 | +230 | +100.0% | 2.0× |  |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| cycles.per_layer_sum | estimated cycles | 200 | 350 | +150 | +75.0% | 1.8× |  |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("## Instructions (estimated cycles: CPU_CYCLES, an estimate, not a measurement; not gated)\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| c0i0 | `cortex_m::quantized_add.out` | 150 | 300 | +150 | +100.0% | 2.0× |  |\n"),
            std::string::npos)
      << md;
  const std::string model = testing::kSyntheticCycleModel;
  EXPECT_NE(md.find("| cycles.model | " + model + " | " + model + " | same |"),
            std::string::npos)
      << md;
  const nlohmann::json doc = comparison_json(compared);
  EXPECT_EQ(doc["metrics"][1]["name"], "per_layer_sum") << "the counts keep their places";
  EXPECT_EQ(doc["metrics"][2]["name"], "cycles.clean_end_to_end");
  EXPECT_EQ(doc["metrics"][2]["unit"], "estimated cycles");
  EXPECT_FALSE(doc["metrics"][2].contains("threshold_pct"));
  EXPECT_EQ(doc["layers"][0]["cycles"]["candidate"], 300);
  EXPECT_EQ(doc["layers"][0]["cycles"]["unit"], "estimated cycles");

  write_comparison_files(compared, dir.path() + "/diff");
  const std::vector<uint8_t> csv = read_file(dir.path() + "/diff/layer_diff.csv");
  EXPECT_NE(std::string(csv.begin(), csv.end()).find(",baseline_CPU_CYCLES,candidate_CPU_CYCLES,delta_CPU_CYCLES,"),
            std::string::npos);

  // A host bundle has no estimate: no cycles rows at all.
  const Bundle host = read_bundle(testing::write_synthetic_bundle(dir.path(), "host"));
  const BundleComparison hosts = compare_bundles(host, host, threshold_policy(std::nullopt));
  for (const FigureRow& row : hosts.metrics) EXPECT_EQ(row.name.rfind("cycles.", 0), std::string::npos) << row.name;
  EXPECT_EQ(comparison_markdown(hosts).find("estimated cycles"), std::string::npos);
}

// compare-programs: the rows again in estimated cycles, and the Tier-1
// region (the float island ns replaces) in estimated cycles beside its count.
TEST(ComparePrograms, TheTier1RegionInEstimatedCycles) {
  TemporaryDirectory dir("etns-compare-test");
  using testing::synthetic_qemu_result;
  const ProfileConfig arm = testing::synthetic_qemu_config(dir.path(), "arm", "model_arm.pte");
  ProfileConfig ns = testing::synthetic_qemu_config(dir.path(), "ns", "model_ns.pte");
  ns.backend = protocol::Provider::Ns;
  write_bundle(arm, synthetic_qemu_result({{"c0i0", "cortex_m::quantize_per_tensor.out", 100, 120},
                                           {"c0i1", "cortex_m::dequantize_per_tensor.out", 200, 260},
                                           {"c0i2", "aten::mean.out", 5000, 9000},
                                           {"c0i3", "cortex_m::quantize_per_tensor.out", 100, 120},
                                           {"c0i4", "cortex_m::dequantize_per_tensor.out", 200, 250}},
                                          5700, 9800));
  write_bundle(ns, synthetic_qemu_result({{"c0i0", "cortex_m::quantize_per_tensor.out", 100, 120},
                                          {"c0i1", "cortex_m_ns::quantized_mean.out", 800, 500},
                                          {"c0i2", "cortex_m::dequantize_per_tensor.out", 200, 250}},
                                         1200, 900));
  const Bundle a = read_bundle(arm.output_dir);
  const Bundle b = read_bundle(ns.output_dir);
  const ComparisonReport report = compare_programs(a, b, std::nullopt);
  const std::string& md = report.markdown;
  EXPECT_NE(md.find("| Tier-1 region (arm c0i1–c0i3, ns c0i1) | 5,300 | 800 | -84.9% | 0.15× |\n"
                    "| Tier-1 region (arm c0i1–c0i3, ns c0i1) in estimated cycles | 9,380 | 500 | -94.7% | 0.053× |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| clean end to end (instructions) | 5,700 | 1,200 | -78.9% | 0.21× |\n"
                    "| clean end to end (estimated cycles) | 9,800 | 900 | -90.8% | 0.092× |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `mean` op alone (c0i2, c0i1) in estimated cycles | 9,000 | 500 | -94.4% | 0.056× |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("## model: per-instruction estimated cycles (CPU_CYCLES, qemu-m55; an estimate, not a "
                    "measurement)\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 1 | c0i1–c0i3 | cortex_m::dequantize_per_tensor.out (260) + aten::mean.out (9,000) + "
                    "cortex_m::quantize_per_tensor.out (120) | 9,380 | c0i1 | cortex_m_ns::quantized_mean.out | 500 | "
                    "-94.7% | 0.053× | group (Tier-1 region) |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Estimated cycles (CPU_CYCLES): Cortex-M55 core cycles estimated from the executed instructions "
                    "by `LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55; board profile an547: no wait "
                    "states`: an estimate, not a measurement (no caches, bus contention or interrupts"),
            std::string::npos)
      << md;

  const nlohmann::json& doc = report.document;
  for (const nlohmann::json& metric : doc["metrics"]) {
    EXPECT_EQ(metric["name"].get<std::string>().find("estimated cycles"), std::string::npos)
        << "metrics keeps the counts only: " << metric["name"];
  }
  EXPECT_EQ(doc["cycles"]["estimated"], true);
  EXPECT_EQ(doc["cycles"]["baseline_model"], testing::kSyntheticCycleModel);
  EXPECT_EQ(doc["tier1_regions"][0]["cycles"]["baseline"], 9380);
  EXPECT_EQ(doc["tier1_regions"][0]["cycles"]["candidate"], 500);
  EXPECT_EQ(doc["tier1_regions"][0]["baseline"], 5300);
  EXPECT_EQ(doc["rows"][1]["baseline"]["cycles"], nlohmann::json({260, 9000, 120}));
  EXPECT_EQ(doc["rows"][1]["candidate"]["cycles_value"], 500);
  EXPECT_EQ(doc["rows"][1]["cycles"]["delta"], -8880);

  // Only one bundle with the estimate: nothing is compared in cycles, and the page says why.
  ProfileConfig counts_only = testing::synthetic_qemu_config(dir.path(), "ns_counts", "model_ns.pte");
  counts_only.backend = protocol::Provider::Ns;
  counts_only.counters.resize(1);
  ProfileResult result = synthetic_qemu_result({{"c0i0", "cortex_m::quantize_per_tensor.out", 100, 120},
                                                {"c0i1", "cortex_m_ns::quantized_mean.out", 800, 500},
                                                {"c0i2", "cortex_m::dequantize_per_tensor.out", 200, 250}},
                                               1200, 900);
  result.counters.resize(1);
  for (LayerResult& layer : result.layers) layer.samples.resize(1);
  result.clean_counters.resize(1);
  write_bundle(counts_only, result);
  const ComparisonReport one = compare_programs(a, read_bundle(counts_only.output_dir), std::nullopt);
  EXPECT_EQ(one.markdown.find("in estimated cycles"), std::string::npos) << one.markdown;
  EXPECT_NE(one.markdown.find("Estimated cycles: only the arm bundle has them (CPU_CYCLES), so none are compared."),
            std::string::npos)
      << one.markdown;
  EXPECT_TRUE(one.document["cycles"].is_null());
}

}  // namespace
}  // namespace etns::tools
