#include "tools/writers/program/finish_program.h"

#include "tools/writers/program/value_sharing.h"

namespace etns::tools {

ReplanReport finish_program(ProgramModel& model, const FinishOptions& options) {
  // Sharing comes first: the plan's value indices are the shared program's.
  if (options.share_equal_values) share_equal_values(model);
  return replan_memory(model);
}

}  // namespace etns::tools
