#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "tools/writers/import/tflite_import.h"

// The importer writes no program a target would refuse: the program is loaded
// on the host as the QEMU firmware runner loads it (runtime::load_within_budget
// with the runner's budget and the provider's kernels, every kernel's prepare
// run), and a refusal is said in the importer's terms, naming the TFLite
// operator whose instructions the runtime refused.
namespace etns::tools {

// The TFLite operator (an index into imported.operators) whose instructions
// include program instruction `instruction`, or -1.
int32_t operator_of_instruction(const ImportedModel& imported, int64_t instruction);

// The program instruction a runtime line names ("c0i5 cortex_m::...: ..."),
// or -1 when it names none.
int64_t instruction_named(const std::string& line);

// Every tensor the program plans (all but constants) fits the target's planned
// memory (runtime::kPlannedMemoryBytes), its bytes counted in checked 64-bit
// arithmetic, so the memory planner never sums what no target holds (and a
// 32-bit size_t on the M55 gives the host's verdict). Throws Failure
// "<context>: operator <i> (<BUILTIN>): tensor "<name>" <sizes> needs N bytes,
// ..." naming the operator whose instruction first uses the tensor.
void check_planned_sizes(const ImportedModel& imported, const std::string& context);

// Loads `pte` as every target does. Throws Failure "<context>: operator <i>
// (<BUILTIN>): the runtime refuses its program: <the runtime's line>" when
// the line names an instruction, else "<context>: the runtime refuses the
// program: <line>".
void check_program_loads(const std::vector<uint8_t>& pte, const ImportedModel& imported, const std::string& context,
                         protocol::Provider provider);

}  // namespace etns::tools
