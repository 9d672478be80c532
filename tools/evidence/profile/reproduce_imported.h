#pragma once

#include <string>
#include <vector>

#include "tools/evidence/profile/profiler.h"
#include "tools/evidence/profile/reproduce_cycles.h"

// The evidence page's section on imported TFLite models (`etns reproduce
// --tflite DIR...`): every DIR/<m>.tflite of each folder imported, run once on the Cortex-M55
// firmware under QEMU on DIR/<m>.A.input.bin (all zeros without one), its
// executed instructions per TFLite operator type beside TensorFlow Lite
// Micro + CMSIS-NN's for the same model (bench/anchors/mlperf_tiny_tflm.json),
// with the Cortex-M55 cycles the QEMU plugin estimates from them, its memory
// beside TFLM's arena, and, where DIR/<m>.A.tensors holds TFLM's tensors,
// every operator's output checked against them.
namespace etns::tools {

struct ImportedSection {
  std::string markdown;  // "## Imported TFLite models ..." (empty when no folder was given)
  bool ok = true;        // every model imported, ran and (where checked) was bit-exact
  std::vector<CycleFigures> figures;  // each model's, in the section's order, for the first screen
};

// `out_dir` receives the imported programs (<out>/imported/<m>.pte) and every
// model's table per operator type (<out>/imported/operator_types.md).
ImportedSection imported_models_section(const std::vector<std::string>& tflite_dirs, const std::string& out_dir,
                                        const ProgressFn& progress);

}  // namespace etns::tools
