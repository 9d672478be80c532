#include "tools/evidence/profile/reproduce_cycles.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/export/exporter.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

// TFLM's anchors and the board's, cut to what the page reads.
ojson tflm_anchors() {
  return ojson::parse(R"json({
    "provenance": {"emulator": "QEMU 7.2 mps3-an547", "tflite_micro": "tflm abc", "cmsis_nn": "cmsis def"},
    "cycle_estimate": {"uncertainty": "±10 %"},
    "models": {
      "kws": {"tflm_cmsis_nn_instructions": 2000, "tflm_cmsis_nn_cycles_estimate": 4000,
              "tflm_cmsis_nn_conv_mac_pipe_use_estimate": 0.25},
      "ad": {"tflm_cmsis_nn_instructions": 500, "tflm_cmsis_nn_cycles_estimate": 1000}
    }})json");
}

ojson board_anchors() {
  return ojson::parse(R"json({
    "provenance": {"board": "Apollo510 board"},
    "clock": {"name": "the lp clock", "hz": 100000000, "source": "its header"},
    "rows": [
      {"work": "tier1_arm, one execute()", "stack": "upstream", "board_cycles": 5000, "qemu_instructions": 4000,
       "etns": {"program": "tier1_arm"}},
      {"work": "conv, one call", "stack": "CMSIS-NN", "board_cycles": 3000,
       "etns": {"program": "tier1_arm", "operator": "cortex_m::quantized_conv2d.out"}}
    ]})json");
}

CycleFigures figures(const std::string& name, uint64_t instructions, uint64_t cycles) {
  CycleFigures f;
  f.name = name;
  f.origin = "test";
  f.input = "`" + name + ".A.input.bin`";
  f.cycle_model = "the model";
  f.instructions = instructions;
  f.cycles = cycles;
  return f;
}

// The rows in their order, each figure and ratio, and the board's table with etns's estimate beside.
TEST(CyclesFirstScreen, PutsEachProgramBesideTflmAndTheBoard) {
  CycleFigures arm = figures("tier1_arm", 1000, 1500);
  arm.operators[kConvOperator] = {2, 600, 1000, 4000};  // 2 calls, 4000 MACs in 1000 cycles: 50 %
  CycleFigures ad = figures("ad", 100, 200);
  CycleFigures kws = figures("kws", 1000, 2000);
  kws.operators[kConvOperator] = {1, 100, 100, 200};  // 25 %
  CycleFigures other = figures("person_detect", 7, 9);
  CycleFigures refused = figures("tier1_ns", 0, 0);
  refused.refused = "QEMU stopped";
  const std::string md = cycles_first_screen({ad, arm, refused, other, kws}, tflm_anchors(), board_anchors());

  EXPECT_EQ(md.rfind("**The answer.** One inference on the Cortex-M55 (the firmware under QEMU `mps3-an547`, input "
                     "A): on the two MLPerf Tiny models etns takes 0.20–0.50× the cycles TensorFlow Lite Micro + "
                     "CMSIS-NN takes (both estimated) and executes 0.20–0.50× its instructions (both counted).",
                     0),
            0u)
      << md;
  const size_t arm_row = md.find("| **tier1_arm** (test) | 1,000 | 1,500 | 1.50 | 0.02 | 50 % | — | — | — | — |\n");
  const size_t ns_row = md.find("| **tier1_ns** (test) | not run: QEMU stopped | ");
  const size_t kws_row = md.find("| **kws** (test) | 1,000 | 2,000 | 2.00 | 0.02 | 25 % (TFLM 25 %) | 2,000 | ≈ 4,000 | "
                                 "0.50× | 0.50× |\n");
  const size_t ad_row = md.find("| **ad** (test) | 100 | 200 | 2.00 | 0.00 | — (no conv) | 500 | ≈ 1,000 | 0.20× | 0.20× |\n");
  ASSERT_NE(arm_row, std::string::npos) << md;
  ASSERT_NE(ns_row, std::string::npos) << md;
  ASSERT_NE(kws_row, std::string::npos) << md;
  ASSERT_NE(ad_row, std::string::npos) << md;
  EXPECT_TRUE(arm_row < ns_row && ns_row < kws_row && kws_row < ad_row) << "tier1 first, then the anchors' order\n" << md;
  EXPECT_EQ(md.find("person_detect"), std::string::npos) << "a model TFLM's anchors do not list stays off\n" << md;
  for (const char* text : {"| ms at 100 MHz (est.) |", "estimated from them by the model", "an estimate, not a measurement",
                           "at 100 MHz, the lp clock (its header)", "made outside this repository", "tflm abc",
                           "±10 %", "- Inputs: tier1, `tier1_arm.A.input.bin`; the models, `<model>.A.input.bin`.",
                           "cycles measured by others on an Apollo510 board, 100 MHz, with other stacks",
                           "| tier1_arm, one execute() | upstream | 5,000 | 4,000 | 1.25 | 1,500 (tier1_arm) | 0.30× |",
                           "| conv, one call | CMSIS-NN | 3,000 | — | — | 500 (quantized_conv2d in tier1_arm) | 0.17× |"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text << "\n" << md;
  }
}

// Without tier1 and without the models there is nothing to lead with, and the page says so.
TEST(CyclesFirstScreen, SaysWhenNothingRan) {
  const std::string md = cycles_first_screen({}, tflm_anchors(), board_anchors());
  EXPECT_NE(md.find("input A): no program ran on qemu-m55."), std::string::npos) << md;
  EXPECT_NE(md.find("- Inputs: tier1, not run; the models, not run (`--tflite` names their folder)."), std::string::npos)
      << md;
  EXPECT_NE(md.find("| tier1_arm, one execute() | upstream | 5,000 | 4,000 | 1.25 | — | — |"), std::string::npos) << md;
  EXPECT_NE(md.find("stand beside the MLPerf Tiny models, which `--tflite` imports."), std::string::npos) << md;
}

// The anchors compiled into etns: TFLM's estimate for each MLPerf Tiny model, the board's clock and rows.
TEST(CyclesFirstScreen, CompiledAnchorsCarryTheEstimatesAndTheBoard) {
  const std::string md = cycles_first_screen({figures("kws", 870000, 1200000), figures("tier1_arm", 1, 2)});
  for (const char* text : {"| 1,817,754 | ≈ 2,194,000 | 0.48× | 0.55× |", "ms at 96 MHz (est.)",
                           "AM_HAL_CLKGEN_FREQ_MAX_HZ", "| 3,507,826 | 2,985,779 | 1.17 |", "| 1,005,563 | 915,475 | 1.10 |",
                           "| 137,958 | 110,960 | 1.24 |", "| 2,761,860 | — | — |"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text << "\n" << md;
  }
}

TEST(ConvPipeUse, IsMacsOverEightPerEstimatedCycle) {
  CycleFigures f;
  EXPECT_LT(conv_pipe_use(f), 0);
  f.operators[kConvOperator] = {1, 10, 1000, 4000};
  EXPECT_DOUBLE_EQ(conv_pipe_use(f), 0.5);
}

// A run of tier1_arm as QEMU would report it, every instruction `count`
// instructions and twice that in cycles; `drop` leaves one instruction out.
QemuRun fake_run(const std::string& pte, uint64_t count, const std::string& drop = "") {
  const HostSession session(pte, nullptr);
  QemuRun run;
  run.classes = {"total", "weighted", "cycles"};
  run.cycle_model = "the model";
  for (size_t i = 0; i < session.method().instruction_count(); ++i) {
    const runtime::Instruction& instruction = session.method().instruction(i);
    if (instruction.id == drop) continue;
    run.instructions.push_back({instruction.id, instruction.operator_name, {ClassCounts{{count, count, 2 * count}}}});
  }
  run.clean_visits.push_back(ClassCounts{{7, 7, 11}});
  return run;
}

// The convolutions' MACs come from the program's own shapes: tier1_arm has two
// 3x3 16→16 convolutions on 32x32, 2,359,296 MACs each.
TEST(FillCycleFigures, TakesMacsFromTheProgramAndCountsFromTheRun) {
  const std::string dir = (fs::temp_directory_path() / ("etns-cycles-" + std::to_string(getpid()))).string();
  fs::create_directories(dir);
  const std::string pte = dir + "/tier1_arm.pte";
  for (const ExportedProgram& program : export_tier1().programs) {
    if (program.file == "tier1_arm.pte") write_file_atomic(pte, program.bytes.data(), program.bytes.size());
  }
  CycleFigures f;
  fill_cycle_figures(pte, fake_run(pte, 100), f);
  EXPECT_EQ(f.instructions, 7u);
  EXPECT_EQ(f.cycles, 11u);
  EXPECT_EQ(f.cycle_model, "the model");
  const OperatorCycles& conv = f.operators.at(kConvOperator);
  EXPECT_EQ(conv.calls, 2u);
  EXPECT_EQ(conv.instructions, 200u);
  EXPECT_EQ(conv.cycles, 400u);
  EXPECT_EQ(conv.macs, 2u * 2359296u);
  EXPECT_EQ(f.operators.at("cortex_m::quantized_mul.out").calls, 1u);
  EXPECT_EQ(f.operators.at("cortex_m::quantized_mul.out").macs, 0u);

  // A run that skipped a convolution the program has is refused, naming both counts.
  CycleFigures g;
  try {
    fill_cycle_figures(pte, fake_run(pte, 100, "c0i5"), g);
    ADD_FAILURE() << "a missing convolution was accepted";
  } catch (const Failure& failure) {
    EXPECT_EQ(std::string(failure.what()), pte + ": 2 convolutions in the program, 1 in the run");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace etns::tools
