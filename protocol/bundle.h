#pragma once

// The names a profile bundle is written and read with (docs/profiling.md,
// "The bundle"): its files, their schemas, the passes, statuses, validity
// and issue severities. Written by `etns profile`, read by compare,
// compare-programs and reproduce; named once here so that writer and readers
// cannot drift apart. The passes are the firmware's own pass names
// (job.h), which the bundle lists as measured.

#include "protocol/job.h"

namespace etns::protocol::bundle {

// ---- Files ------------------------------------------------------------------
constexpr char kSummaryFile[] = "summary.json";
constexpr char kMetadataFile[] = "run_metadata.json";
constexpr char kResultsFile[] = "profile_results.json";
constexpr char kResultsCsvFile[] = "profile_results.csv";  // with output.format: csv
constexpr char kDetailedDir[] = "detailed";                // detailed/profile_<group>.csv
constexpr char kReportFile[] = "report.md";
constexpr char kManifestFile[] = "manifest.json";  // written last: every other file's size and SHA-256

// ---- Schemas: every document carries `schema` and `schema_version` -------------
constexpr char kSummarySchema[] = "etns.run-summary";
constexpr char kMetadataSchema[] = "etns.run-metadata";
constexpr char kResultsSchema[] = "etns.profile-results";
constexpr char kManifestSchema[] = "etns.result-manifest";
constexpr int kSchemaVersion = 1;
constexpr char kBundleType[] = "profile";  // manifest.json `bundle_type`

// ---- The passes profile_results.json lists ------------------------------------
constexpr const char* kPassPerInstruction = console::kPassPerInstruction;
constexpr const char* kPassClean = console::kPassClean;

// ---- manifest.json `status` ----------------------------------------------------
constexpr char kStatusComplete[] = "complete";
constexpr char kStatusFailed[] = "failed";

// ---- `validity`: any error issue makes a run invalid, any warning degraded ---
constexpr char kValid[] = "valid";
constexpr char kDegraded[] = "degraded";
constexpr char kInvalid[] = "invalid";

// ---- Issue `severity` ------------------------------------------------------------
constexpr char kSeverityError[] = "error";
constexpr char kSeverityWarning[] = "warning";

// ---- manifest.json artifact `role` ----------------------------------------------
constexpr char kRoleCore[] = "core";              // the three documents and profile_results.csv
constexpr char kRoleProjection[] = "projection";  // detailed/*.csv
constexpr char kRoleReport[] = "report";          // report.md

}  // namespace etns::protocol::bundle
