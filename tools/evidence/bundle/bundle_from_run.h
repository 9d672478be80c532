#pragma once

#include <string>

#include "tools/evidence/bundle/bundle_documents.h"
#include "tools/evidence/bundle/results.h"
#include "tools/evidence/config/config.h"

// The measure -> bundle stage: a run's samples become the bundle's typed
// documents. Every aggregate (the configured value, median, mean, min, max,
// MAD, shares, the per-instruction sum) is computed here, once; the JSON,
// CSV and Markdown writers only format what these documents hold.
namespace etns::tools {

struct RunDocuments {
  SummaryDoc summary;
  MetadataDoc metadata;
  ResultsDoc results;
};

// `run_id` and `timestamp` identify the run in every document that names it.
RunDocuments documents_of_run(const ProfileConfig& config, const ProfileResult& result, const std::string& run_id,
                              const std::string& timestamp);

}  // namespace etns::tools
