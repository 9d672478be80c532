#pragma once

#include <string>
#include <vector>

#include "tools/evidence/profile/profiler.h"

// The evidence page's section on imported TFLite models (`etns reproduce
// --tflite DIR...`): every DIR/<m>.tflite of each folder imported, run once on the Cortex-M55
// firmware under QEMU on DIR/<m>.A.input.bin (all zeros without one), its
// executed instructions per TFLite operator type beside TensorFlow Lite
// Micro + CMSIS-NN's for the same model (bench/anchors/mlperf_tiny_tflm.json),
// its memory beside TFLM's arena, and, where DIR/<m>.A.tensors holds TFLM's
// tensors, every operator's output checked against them.
namespace etns::tools {

struct ImportedSection {
  std::string markdown;  // "## Imported TFLite models ..." (empty when no folder was given)
  bool ok = true;        // every model imported, ran and (where checked) was bit-exact
};

// `out_dir` receives the imported programs (<out>/imported/<m>.pte).
ImportedSection imported_models_section(const std::vector<std::string>& tflite_dirs, const std::string& out_dir,
                                        const ProgressFn& progress);

}  // namespace etns::tools
