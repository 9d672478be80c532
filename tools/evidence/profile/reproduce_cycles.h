#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/provider.h"
#include "tools/evidence/runner/qemu_session.h"

// The evidence page's first screen (`etns reproduce`): each program's one
// clean execute() on the Cortex-M55 firmware under QEMU, input A, in executed
// instructions (exact) and in the Cortex-M55 cycles the QEMU plugin estimates
// from them (qemu_plugin/cycle_model.h: an estimate, never a measurement),
// beside TensorFlow Lite Micro + CMSIS-NN's figures for the same model
// (bench/anchors/mlperf_tiny_tflm.json) and the cycles an Apollo510 board
// measured for other stacks (bench/anchors/apollo510_board.json).
namespace etns::tools {

// The operator whose multiply-pipe use the page shows.
inline constexpr const char* kConvOperator = "cortex_m::quantized_conv2d.out";

// One operator's calls in a run's per-instruction pass.
struct OperatorCycles {
  uint32_t calls = 0;
  uint64_t instructions = 0;  // executed
  uint64_t cycles = 0;        // estimated
  uint64_t macs = 0;          // kConvOperator only: outputs × taps × input channels of a group
};

// One program's figures on the first screen.
struct CycleFigures {
  std::string name;     // "tier1_arm", "kws": the row, and the key into the anchors
  std::string origin;   // "upstream program", "imported from `mlperf-tiny`"
  std::string input;    // what it ran on: "golden input A", "`kws.A.input.bin`"
  std::string refused;  // one line when there are no figures (the run failed)
  std::string cycle_model;    // QemuRun::cycle_model
  uint64_t instructions = 0;  // executed, one clean execute()
  uint64_t cycles = 0;        // estimated, the same execute()
  std::map<std::string, OperatorCycles> operators;  // by operator name
};

// Fills `figures` from a run of the program at `pte_path`: the clean pass's
// executed instructions and estimated cycles; per operator its calls,
// instructions and estimated cycles in the per-instruction pass; and each
// convolution's MACs from the program's own shapes (out elements × weight
// elements ÷ output channels). Throws Failure naming the program when the
// run and the program disagree.
void fill_cycle_figures(const std::string& pte_path, const QemuRun& run, CycleFigures& figures);

// Runs the program once after one warm-up on `provider`'s firmware under
// QEMU, on `input` (zeros when empty), and fills its figures. A failure is
// one line in `refused`, not an exception.
CycleFigures measure_cycles(CycleFigures figures, const std::string& pte_path, protocol::Provider provider,
                            const std::vector<uint8_t>& input);

// MACs ÷ (8 × estimated cycles): the share of the Cortex-M55's limit of 8 int8
// MACs per cycle the program's convolutions use; negative without either.
double conv_pipe_use(const CycleFigures& figures);

// The first screen below the title: the answer in one paragraph, the table of
// `programs` (tier1_arm, tier1_ns, then the models TFLM's anchors list, in
// their order; others are left to later sections) beside TFLM + CMSIS-NN,
// what each column is and where it comes from, then the board's own table
// beside etns's estimate for the same work. `tflm` and `board` are the
// anchors' documents.
std::string cycles_first_screen(const std::vector<CycleFigures>& programs, const nlohmann::ordered_json& tflm,
                                const nlohmann::ordered_json& board);
// The same with the anchors compiled into etns.
std::string cycles_first_screen(const std::vector<CycleFigures>& programs);

}  // namespace etns::tools
