#include "tools/evidence/bench/bench.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

BenchResults two_rows() {
  BenchResults results;
  results.kernels.push_back({"quantized_relu", "tier1", "ref", {{"total", 900}, {"weighted", 900}, {"mve", 0}}});
  results.kernels.push_back({"quantized_relu", "tier1", "mve", {{"total", 40}, {"weighted", 200}, {"mve", 30}}});
  results.programs.push_back({"tier1_ns.pte", "ns", "reference", {{"total", 5000}, {"weighted", 5000}, {"mve", 1}}});
  results.programs.push_back({"tier1_ns.pte", "ns", "fast", {{"total", 700}, {"weighted", 900}, {"mve", 400}}});
  return results;
}

TEST(BenchBaseline, OwnCountsPass) {
  const BenchResults results = two_rows();
  std::vector<std::string> notes;
  EXPECT_TRUE(check_baseline(results, baseline_from(results), "b.json", &notes).empty());
  EXPECT_TRUE(notes.empty());
}

TEST(BenchBaseline, ACountAboveTheBaselineIsARegression) {
  const BenchResults results = two_rows();
  nlohmann::json baseline = baseline_from(results);
  baseline["counts"]["quantized_relu/tier1/mve"]["weighted"] = 199;
  const std::vector<std::string> regressions = check_baseline(results, baseline, "b.json", nullptr);
  ASSERT_EQ(regressions.size(), 1u);
  EXPECT_EQ(regressions[0], "quantized_relu/tier1/mve: weighted 200 > baseline 199 (+1)");
}

TEST(BenchBaseline, ACountBelowTheBaselineIsANote) {
  const BenchResults results = two_rows();
  nlohmann::json baseline = baseline_from(results);
  baseline["counts"]["program/tier1_ns.pte/fast"]["total"] = 1000;
  std::vector<std::string> notes;
  EXPECT_TRUE(check_baseline(results, baseline, "b.json", &notes).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "program/tier1_ns.pte/fast: total 700 < baseline 1,000");
}

TEST(BenchBaseline, AnEntryNoLongerMeasuredFails) {
  BenchResults results = two_rows();
  const nlohmann::json baseline = baseline_from(results);
  results.kernels.pop_back();
  const std::vector<std::string> regressions = check_baseline(results, baseline, "b.json", nullptr);
  ASSERT_EQ(regressions.size(), 1u);
  EXPECT_NE(regressions[0].find("quantized_relu/tier1/mve: in the baseline but not measured"), std::string::npos);
}

TEST(BenchBaseline, ProgramsSkippedWhenNoneWereMeasured) {
  BenchResults results = two_rows();
  const nlohmann::json baseline = baseline_from(results);
  results.programs.clear();
  EXPECT_TRUE(check_baseline(results, baseline, "b.json", nullptr).empty());
}

TEST(BenchBaseline, NewRowsAreNotesNotFailures) {
  BenchResults results = two_rows();
  const nlohmann::json baseline = baseline_from(results);
  results.kernels.push_back({"quantized_sub", "tier1", "mve", {{"total", 1}, {"weighted", 1}, {"mve", 1}}});
  std::vector<std::string> notes;
  EXPECT_TRUE(check_baseline(results, baseline, "b.json", &notes).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("not in the baseline yet"), std::string::npos);
}

TEST(BenchBaseline, RefusesWhatIsNotABaseline) {
  const BenchResults results = two_rows();
  EXPECT_THROW(check_baseline(results, nlohmann::json::object(), "b.json", nullptr), Failure);
  nlohmann::json baseline = baseline_from(results);
  baseline["counts"]["quantized_relu/tier1/mve"]["total"] = "many";
  try {
    check_baseline(results, baseline, "b.json", nullptr);
    FAIL() << "a count that is a string was accepted";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "b.json: quantized_relu/tier1/mve.total is missing or not a count");
  }
}

TEST(BenchReport, TablesNameWhatTheCountsAre) {
  BenchResults results = two_rows();
  results.qemu_version = "QEMU emulator version 7.2";
  const std::string md = bench_to_markdown(results);
  EXPECT_NE(md.find("not cycles"), std::string::npos);
  EXPECT_NE(md.find("| `quantized_relu` | tier1 | mve | 40 | 200 | 75.0 % | 4.5× |"), std::string::npos) << md;
  EXPECT_NE(md.find("| tier1_ns.pte | ns | 5,000 | 5,000 | 700 | 900 | 57.1 % | 5.6× |"), std::string::npos)
      << md;
  const nlohmann::json doc = bench_to_json(results);
  EXPECT_EQ(doc["schema"], "etns.bench");
  EXPECT_EQ(doc["kernels"][1]["key"], "quantized_relu/tier1/mve");
}

// Labels are one per program or none; a mismatch is refused before any QEMU run.
TEST(BenchRun, ProgramLabelsMustMatchThePrograms) {
  BenchOptions options;
  options.programs = {"a/tier1_arm.pte", "b/tier1_arm.pte"};
  options.program_labels = {"a/tier1_arm.pte"};
  options.qemu = "/nonexistent/qemu";
  try {
    run_bench(options, [](const std::string&) {});
    FAIL() << "one label for two programs was accepted";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "bench: 1 program labels for 2 programs");
  }
}

}  // namespace
// The page's compact table: one row per operator and shape, the last
// variant listed as the build's choice, the others inline.
TEST(BenchMarkdown, CompactTableHasOneRowPerOperatorAndShape) {
  BenchResults results = two_rows();
  results.kernels.push_back({"quantized_relu", "tier1", "lut", {{"total", 100}, {"weighted", 100}, {"mve", 0}}});
  const std::string md = bench_compact_tables_markdown(results, "###");
  EXPECT_NE(md.find("| `quantized_relu` | tier1 | 900 | lut 100 | 0.0 % | 9.0× | mve 200 |\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("| `quantized_relu` | tier1 | ref"), std::string::npos) << md;
  EXPECT_NE(md.find("### Programs: one clean `execute()`"), std::string::npos) << md;
  EXPECT_NE(md.find("| tier1_ns.pte | ns | 5,000 | 5,000 | 700 | 900 |"), std::string::npos) << md;
}

}  // namespace etns::tools
