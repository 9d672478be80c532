#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/import/tflite_import.h"
#include "tools/writers/program/graph_to_program.h"

// `etns import` as a function: a .tflite file's bytes to a verified, imported
// program (used by the import command and by `etns reproduce`).
namespace etns::tools {

struct ImportedProgram {
  ImportedModel imported;     // the graph and what each TFLite operator became
  ConvertedProgram program;   // the program model, memory planned
  std::vector<uint8_t> pte;   // its bytes
  uint64_t constant_bytes = 0;
};

// Reads and verifies the model (read_tflite), imports it, plans memory and
// fills container_meta_type's pytree specs as ExecuTorch's exporter does.
// `provider`: import_tflite's. Throws Failure with one line starting with
// `context`.
ImportedProgram import_program(const std::vector<uint8_t>& tflite, const std::string& context,
                               protocol::Provider provider = protocol::Provider::Arm);

// The first instruction of TFLite operator `op` (its instructions are
// consecutive, the one writing its output last).
inline int32_t first_instruction(const ImportedOperator& op) { return op.instruction - op.instructions + 1; }

}  // namespace etns::tools
