#pragma once

#include "tools/writers/program/memory_planner.h"
#include "tools/writers/program/program_model.h"

namespace etns::tools {

// How a writer finishes its program.
struct FinishOptions {
  // Instructions share equal scalar values (value_sharing.h). The importer
  // asks for it; the exporter and lower keep one value per argument, as the
  // files they write have always had (their bytes are pinned by tests).
  bool share_equal_values = false;
};

// The one way every writer (export, import, lower) finishes a program: equal
// scalar values shared when `options` asks, then unused values dropped and
// every planned tensor placed, once (replan_memory). Returns the plan.
ReplanReport finish_program(ProgramModel& model, const FinishOptions& options);

}  // namespace etns::tools
