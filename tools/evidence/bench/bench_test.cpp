#include "tools/evidence/bench/bench.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

using Counts = std::map<std::string, uint64_t>;

Counts counts(uint64_t total, uint64_t weighted, uint64_t mve, uint64_t cycles) {
  return {{"total", total}, {"weighted", weighted}, {"mve", mve}, {"cycles", cycles}};
}

KernelBenchRow kernel(const std::string& op, const std::string& variant, const Counts& c, const std::string& unit,
                      uint64_t work) {
  return {op, op == "quantized_relu" ? "tier1" : "tiny", variant, c, unit, work};
}

BenchResults two_rows() {
  BenchResults results;
  results.kernels.push_back(kernel("quantized_relu", "ref", counts(900, 900, 0, 1350), "elements", 600));
  results.kernels.push_back(kernel("quantized_relu", "mve", counts(40, 200, 30, 300), "elements", 600));
  results.programs.push_back({"tier1_ns.pte", "ns", "reference", counts(5000, 5000, 1, 6000)});
  results.programs.push_back({"tier1_ns.pte", "ns", "fast", counts(700, 900, 400, 1200)});
  return results;
}

// A convolution of 3,072 MACs: the reference at 12,000 estimated cycles, the
// MVE variant at 768.
BenchResults with_macs() {
  BenchResults results = two_rows();
  results.kernels.push_back(kernel("quantized_conv2d", "ref", counts(10000, 10000, 0, 12000), "macs", 3072));
  results.kernels.push_back(kernel("quantized_conv2d", "mve", counts(1000, 1000, 800, 768), "macs", 3072));
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

// The estimated cycles are gated like the instructions.
TEST(BenchBaseline, EstimatedCyclesAboveTheBaselineAreARegression) {
  const BenchResults results = two_rows();
  nlohmann::json baseline = baseline_from(results);
  EXPECT_EQ(baseline["counts"]["program/tier1_ns.pte/fast"]["cycles"], 1200);
  EXPECT_FALSE(baseline["counts"]["program/tier1_ns.pte/fast"].contains("mve"));
  baseline["counts"]["program/tier1_ns.pte/fast"]["cycles"] = 1000;
  const std::vector<std::string> regressions = check_baseline(results, baseline, "b.json", nullptr);
  ASSERT_EQ(regressions.size(), 1u);
  EXPECT_EQ(regressions[0], "program/tier1_ns.pte/fast: est. cycles 1,200 > baseline 1,000 (+200)");
}

TEST(BenchBaseline, ACountBelowTheBaselineIsANote) {
  const BenchResults results = two_rows();
  nlohmann::json baseline = baseline_from(results);
  baseline["counts"]["program/tier1_ns.pte/fast"]["total"] = 1000;
  std::vector<std::string> notes;
  EXPECT_TRUE(check_baseline(results, baseline, "b.json", &notes).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "program/tier1_ns.pte/fast: instructions 700 < baseline 1,000");
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
  results.kernels.push_back(kernel("quantized_sub", "mve", counts(1, 1, 1, 3), "", 0));
  std::vector<std::string> notes;
  EXPECT_TRUE(check_baseline(results, baseline, "b.json", &notes).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "quantized_sub/tiny/mve: not in the baseline yet (1 instructions, 3 est. cycles)");
}

TEST(BenchBaseline, SaysWhatItsCountsAre) {
  BenchResults results = two_rows();
  results.cycle_model = "LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55";
  const nlohmann::json baseline = baseline_from(results);
  EXPECT_EQ(baseline["schema_version"], 2);
  EXPECT_EQ(baseline["counts_are"],
            "executed instructions (exact) and estimated cycles (LLVM 19 Cortex-M55 model) on QEMU mps3-an547");
  EXPECT_EQ(baseline["cycle_model"], results.cycle_model);
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
  baseline = baseline_from(results);
  baseline["counts"]["quantized_relu/tier1/ref"].erase("cycles");
  try {
    check_baseline(results, baseline, "b.json", nullptr);
    FAIL() << "an entry without cycles was accepted";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "b.json: quantized_relu/tier1/ref.cycles is missing or not a count");
  }
}

// A version 1 baseline (instructions only) is refused with what to do.
TEST(BenchBaseline, RefusesTheInstructionsOnlyVersion) {
  const BenchResults results = two_rows();
  nlohmann::json baseline = baseline_from(results);
  baseline["schema_version"] = 1;
  try {
    validate_baseline(baseline, "b.json");
    FAIL() << "a version 1 baseline was accepted";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(),
                 "b.json: bench baseline schema_version 1, this etns reads version 2 (instructions and estimated "
                 "cycles); write a new one with etns bench --write-baseline");
    EXPECT_EQ(failure.exit_code(), 2);
  }
}

TEST(BenchLine, ReadsTheRegionTheNamesAndTheWork) {
  KernelBenchLine line = parse_kernel_bench_line("bench 7 quantized_conv2d tier1 mve macs 2359296", "k.elf");
  EXPECT_EQ(line.region, 7u);
  EXPECT_EQ(bench_key(line.row), "quantized_conv2d/tier1/mve");
  EXPECT_EQ(line.row.work_unit, "macs");
  EXPECT_EQ(line.row.work, 2359296u);
  line = parse_kernel_bench_line("bench 0 quantized_relu tier1 ref elements 16384", "k.elf");
  EXPECT_EQ(line.row.work_unit, "elements");
  EXPECT_EQ(line.row.work, 16384u);
  line = parse_kernel_bench_line("bench 12 pad spatial ref none 0", "k.elf");
  EXPECT_EQ(line.region, 12u);
  EXPECT_EQ(line.row.work_unit, "");
  EXPECT_EQ(line.row.work, 0u);
}

TEST(BenchLine, RefusesWhatIsNotABenchLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bench 3 op shape ref",
       "k.elf: bench line 'bench 3 op shape ref' is not 'bench <region> <op> <shape> <variant> <unit> <n>' (an "
       "image from another etns version?)"},
      {"bench x op shape ref macs 4", "k.elf: bench line 'bench x op shape ref macs 4': region is not a number"},
      {"bench 4294967296 op shape ref macs 4",
       "k.elf: bench line 'bench 4294967296 op shape ref macs 4': region is not a number"},
      {"bench 1 op shape ref macs -4", "k.elf: bench line 'bench 1 op shape ref macs -4': the work is not a count"},
      {"bench 1 op shape ref flops 4",
       "k.elf: bench line 'bench 1 op shape ref flops 4': work unit 'flops', expected macs, elements or none"},
      {"bench 1 op shape ref macs 0",
       "k.elf: bench line 'bench 1 op shape ref macs 0': 0 macs (a case that declares work does some)"},
      {"bench 1 op shape ref none 5",
       "k.elf: bench line 'bench 1 op shape ref none 5': unit none with work 5 (none takes 0)"},
  };
  for (const auto& [text, message] : cases) {
    try {
      parse_kernel_bench_line(text, "k.elf");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Failure& failure) {
      EXPECT_EQ(std::string(failure.what()), message);
    }
  }
}

// 3,072 MACs in 768 estimated cycles: 0.25 cycles per MAC, 4 MACs per cycle,
// half of the M55's 8. In 12,000 cycles: 3.90625 per MAC, 3,072 / 96,000 = 3.2 %.
TEST(BenchWork, CyclesPerUnitAndMacPipeUse) {
  const BenchResults results = with_macs();
  const KernelBenchRow& conv_ref = results.kernels[2];
  const KernelBenchRow& conv_mve = results.kernels[3];
  EXPECT_DOUBLE_EQ(*cycles_per_work(conv_mve), 0.25);
  EXPECT_DOUBLE_EQ(*mac_pipe_use(conv_mve), 0.5);
  EXPECT_DOUBLE_EQ(*cycles_per_work(conv_ref), 3.90625);
  EXPECT_DOUBLE_EQ(*mac_pipe_use(conv_ref), 0.032);
  // 300 cycles over 600 elements; elements have no multiply pipe figure.
  EXPECT_DOUBLE_EQ(*cycles_per_work(results.kernels[1]), 0.5);
  EXPECT_FALSE(mac_pipe_use(results.kernels[1]).has_value());
  // Nothing declared, or no cycles: no figure.
  const KernelBenchRow none = kernel("pad", "ref", counts(10, 10, 0, 20), "", 0);
  EXPECT_FALSE(cycles_per_work(none).has_value());
  const KernelBenchRow no_cycles = kernel("quantized_linear", "ref", counts(10, 10, 0, 0), "macs", 64);
  EXPECT_FALSE(mac_pipe_use(no_cycles).has_value());
}

TEST(BenchReport, TablesNameWhatTheCountsAre) {
  BenchResults results = with_macs();
  results.qemu_version = "QEMU emulator version 7.2";
  results.cycle_model = "LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55";
  const std::string md = bench_to_markdown(results);
  EXPECT_NE(md.find("counted exactly by the etns QEMU plugin (QEMU emulator version 7.2)"), std::string::npos)
      << md;
  EXPECT_NE(md.find("**estimated** from the same executed instructions by LLVM 19 MCA, Cortex-M55 scheduling "
                    "model, cortex-m55"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("an estimate, not a measurement"), std::string::npos);
  EXPECT_NE(md.find("| `quantized_relu` | tier1 | mve | 40 | 200 | 300 | 7.50 | 75.0 % | 600 elements | "
                    "0.500 / element | – | 4.5× |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `quantized_conv2d` | tiny | mve | 1,000 | 1,000 | 768 | 0.77 | 80.0 % | 3,072 MACs | "
                    "0.250 / MAC | 50.0 % | 10.0× |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `quantized_conv2d` | tiny | ref | 10,000 | 10,000 | 12,000 | 1.20 | 0.0 % | 3,072 MACs | "
                    "3.91 / MAC | 3.2 % | 1.0× |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| tier1_ns.pte | ns | 5,000 | 5,000 | 6,000 | 1.20 | 700 | 900 | 1,200 | 1.71 | 57.1 % | "
                    "5.6× | 5.0× |"),
            std::string::npos)
      << md;
  const nlohmann::json doc = bench_to_json(results);
  EXPECT_EQ(doc["schema"], "etns.bench");
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(doc["cycle_model"], results.cycle_model);
  EXPECT_EQ(doc["kernels"][1]["key"], "quantized_relu/tier1/mve");
  EXPECT_EQ(doc["kernels"][1]["counts"]["cycles"], 300);
  EXPECT_EQ(doc["kernels"][3]["work"], nlohmann::json({{"unit", "macs"}, {"amount", 3072}}));
  EXPECT_EQ(doc["programs"][1]["counts"]["cycles"], 1200);
  results.kernels[0].work_unit = "";
  results.kernels[0].work = 0;
  EXPECT_TRUE(bench_to_json(results)["kernels"][0]["work"].is_null());
  EXPECT_NE(bench_to_markdown(results).find("| `quantized_relu` | tier1 | ref | 900 | 900 | 1,350 | 1.50 | 0.0 % | – | "
                                            "– | – | 1.0× |"),
            std::string::npos);
}

// The terminal: a few lines, the program table compacted, the files named.
TEST(BenchReport, SummaryIsShort) {
  BenchResults results = with_macs();
  for (int i = 0; i < 13; ++i) {
    results.programs.push_back({"mlperf-tiny/m" + std::to_string(i) + "_arm.pte", "arm", "reference",
                                counts(5000, 5000, 1, 6000)});
    results.programs.push_back({"mlperf-tiny/m" + std::to_string(i) + "_arm.pte", "arm", "fast",
                                counts(700, 900, 400, 1200)});
  }
  const std::string text = bench_summary_text(results, "out/bench/bench.md", "out/bench/bench.json");
  std::istringstream lines(text);
  int count = 0;
  for (std::string line; std::getline(lines, line);) ++count;
  EXPECT_LE(count, 22) << text;
  EXPECT_NE(text.find("4 kernel variants and 14 programs"), std::string::npos) << text;
  EXPECT_NE(text.find("every row in out/bench/bench.md (data: out/bench/bench.json)"), std::string::npos) << text;
  EXPECT_NE(text.find("est. cycles are estimated by"), std::string::npos) << text;
  // Columns as wide as the longest label (mlperf-tiny/m10_arm.pte, 23) and 13, 13, 13, 13, 7, 9.
  EXPECT_NE(text.find("\ntier1_ns.pte" + std::string(11 + 2 + 8, ' ') + "5,000" + std::string(2 + 8, ' ') + "6,000" +
                      std::string(2 + 10, ' ') + "700" + std::string(2 + 8, ' ') + "1,200" + std::string(2 + 3, ' ') +
                      "1.71" + std::string(2 + 5, ' ') + "5.0x\n"),
            std::string::npos)
      << text;
  BenchResults no_programs = with_macs();
  no_programs.programs.clear();
  no_programs.notes = {"Programs not measured: no models at x (pass --models DIR)."};
  const std::string short_text = bench_summary_text(no_programs, "a.md", "a.json");
  EXPECT_NE(short_text.find("Programs not measured"), std::string::npos);
  EXPECT_EQ(short_text.find("ref. instr."), std::string::npos);
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

// The page's compact table: one row per operator and shape, the last
// variant listed as the build's choice, the others inline.
TEST(BenchMarkdown, CompactTableHasOneRowPerOperatorAndShape) {
  BenchResults results = with_macs();
  results.kernels.push_back(kernel("quantized_relu", "lut", counts(100, 100, 0, 250), "elements", 600));
  const std::string md = bench_compact_tables_markdown(results, "###");
  EXPECT_NE(md.find("| `quantized_relu` | tier1 | 900 | lut 100 | 250 | 2.50 | 0.0 % | 9.0× | 600 elements | "
                    "0.417 / element | – | mve 200 |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `quantized_conv2d` | tiny | 10,000 | mve 1,000 | 768 | 0.77 | 80.0 % | 10.0× | 3,072 MACs | "
                    "0.250 / MAC | 50.0 % | – |\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| `quantized_relu` | tier1 | ref"), std::string::npos) << md;
  EXPECT_NE(md.find("### Programs: one clean `execute()`"), std::string::npos) << md;
  EXPECT_NE(md.find("| tier1_ns.pte | ns | 5,000 | 5,000 | 6,000 | 1.20 | 700 | 900 | 1,200 |"), std::string::npos)
      << md;
}

}  // namespace
}  // namespace etns::tools
