#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tools/profile/config.h"
#include "tools/profile/results.h"

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

// Writes the bundle into config.output_dir. Everything goes to a temporary
// sibling folder first, which is renamed into place at the end: an interrupted
// run never leaves a half bundle, and a previous bundle there is replaced
// whole. A folder that exists and is not a bundle is never touched (Failure).
void write_bundle(const ProfileConfig& config, const ProfileResult& result);

// A bundle read back. Its manifest is verified: every declared file exists
// inside the bundle with the declared size and SHA-256, and the core files
// are declared. Throws Failure naming the bundle and the problem.
struct Bundle {
  std::string dir;
  nlohmann::json manifest;
  nlohmann::json summary;
  nlohmann::json metadata;
  nlohmann::json results;
};
Bundle read_bundle(const std::string& dir);

}  // namespace etns::tools
