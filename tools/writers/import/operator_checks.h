#pragma once

#include "tools/writers/import/import_context.h"

// Checks every operator passes before its builtin's import runs: what TFLite
// Micro's Prepare would refuse (its input count, SQUEEZE's dims) and what the
// program the import writes could not hold (a rank above the runtime's, an
// operator reading its own output, a model input with constant data), each
// said in TFLite's terms, naming the operator and the tensor. Throws Failure
// through OperatorImport::fail.
namespace etns::tools {

void check_operator(const ImportState& state, const OperatorImport& c);

}  // namespace etns::tools
