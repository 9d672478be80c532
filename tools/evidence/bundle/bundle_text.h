#pragma once

#include <string>
#include <vector>

#include "tools/evidence/bundle/bundle_from_run.h"

// The bundle's projections for spreadsheets and people, formatted from the
// typed documents (nothing is aggregated here).
namespace etns::tools {

// One CSV table: id, op, operator, the named counters' values, then the
// share of the first named counter's column sum.
std::string results_csv(const ResultsDoc& results, const std::vector<std::string>& counters);

// report.md: validity and issues, one row per instruction, the clean pass and memory.
std::string report_markdown(const RunDocuments& documents);

}  // namespace etns::tools
