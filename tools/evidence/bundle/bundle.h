#pragma once

#include <string>

#include "tools/evidence/bundle/bundle_documents.h"
#include "tools/evidence/bundle/results.h"
#include "tools/evidence/config/config.h"

// The result bundle of a profile run (docs/profiling.md lists every file):
//   summary.json, run_metadata.json, profile_results.json
//   [profile_results.csv]   when output.format is csv
//   detailed/profile_<group>.csv   when output.detailed is true
//   report.md
//   manifest.json           written last: SHA-256 and size of every file above
namespace etns::tools {

constexpr const char* kEtnsVersion = ETNS_VERSION;  // from CMake: the project version

// Throws Failure (exit 2) when output.dir holds something a run must not
// replace: a file or folder that is not an etns bundle, or a bundle measured
// on another target (a host run must not overwrite the QEMU bundle beside
// it). Profile calls it before measuring; write_bundle again before writing.
void check_bundle_destination(const ProfileConfig& config);

// Writes the bundle into config.output_dir. Everything goes to a staging
// sibling folder first ("<dir>.etns-staging.<pid>"), which is renamed into
// place at the end: an interrupted run never leaves a half bundle, and a
// previous bundle there is replaced whole. A folder that exists and is not a
// bundle is never touched (Failure). Staging folders of the same destination
// left by a process that no longer exists (a killed profile) are removed.
void write_bundle(const ProfileConfig& config, const ProfileResult& result);

// A bundle read back: the only way readers get at one. Its manifest is
// verified (every declared file exists inside the bundle with the declared
// size and SHA-256, and the core files are declared), every document is
// validated against its schema (every key required, types, values from a
// fixed set), and the documents must agree on target, provider, rows, clean
// figure and validity. Throws Failure, one line naming the bundle file and,
// for a schema error, the field:
// "<dir>/summary.json: /clean_end_to_end/median: expected a number, found null".
struct Bundle {
  std::string dir;
  ManifestDoc manifest;
  SummaryDoc summary;
  MetadataDoc metadata;
  ResultsDoc results;
};
Bundle read_bundle(const std::string& dir);

// The staging folder a process writes the bundle for `destination` into.
std::string staging_dir_of(const std::string& destination, long pid);

}  // namespace etns::tools
