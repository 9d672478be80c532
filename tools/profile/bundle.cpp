#include "tools/profile/bundle.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <random>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"
#include "tools/profile/bundle_from_run.h"
#include "tools/profile/bundle_text.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string uuid_v4() {
  std::random_device random;
  uint8_t bytes[16];
  for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(random());
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0F) | 0x40);
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3F) | 0x80);
  std::string text;
  for (size_t i = 0; i < 16; ++i) text += fmt::format((i == 4 || i == 6 || i == 8 || i == 10) ? "-{:02x}" : "{:02x}", bytes[i]);
  return text;
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string sha256_of(const std::string& text) {
  return sha256_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

// The files of a bundle being staged, with what was written, so that the
// manifest hashes the bytes without reading them back.
struct StagedFiles {
  fs::path dir;
  std::vector<std::pair<std::string, std::string>> files;  // relative path, content

  void put(const std::string& file, const std::string& text) {
    write_file_atomic((dir / file).string(), text);
    files.emplace_back(file, text);
  }
};

std::string role_of(const std::string& path) {
  if (path == "summary.json" || path == "run_metadata.json" || path == "profile_results.json" ||
      path == "profile_results.csv") {
    return "core";
  }
  if (path.rfind("detailed/", 0) == 0) return "projection";
  return "report";
}

ManifestDoc manifest_of(const StagedFiles& staged, const RunDocuments& documents, const ProfileConfig& config,
                        const ProfileResult& result) {
  ManifestDoc manifest;
  manifest.run_id = documents.metadata.run_id;
  manifest.timestamp = documents.metadata.timestamp;
  manifest.etns_version = kEtnsVersion;
  manifest.status = result.failure.empty() ? "complete" : "failed";
  manifest.validity = documents.summary.validity;
  manifest.issues = documents.summary.issues;
  manifest.config_sha256 = sha256_of(config.resolved.dump());
  manifest.model_sha256 = documents.metadata.model_sha256.value_or("");
  manifest.target = result.target;
  manifest.board = documents.metadata.detail("board").value_or("");
  manifest.provider = config.backend;
  manifest.metric = result.primary.name;
  for (const CounterSpec& counter : result.counters) manifest.counters.push_back(counter.name);
  manifest.aggregation = config.aggregation;
  for (const auto& [file, text] : staged.files) manifest.artifacts.push_back({file, text.size(), sha256_of(text), role_of(file)});
  return manifest;
}

// Staging folders are "<destination>.etns-staging.<pid>", the replaced bundle
// "<destination>.etns-old.<pid>" while it is swapped out: the owner is in the name.
constexpr const char* kStagingTag = ".etns-staging.";
constexpr const char* kOldTag = ".etns-old.";

std::string old_dir_of(const fs::path& destination) { return destination.string() + kOldTag + std::to_string(getpid()); }

// Removes what a killed run left beside `destination`: its staging folders
// and swapped-out bundles, but only those whose process no longer exists (a
// live one may be writing the same destination right now).
void remove_stale_staging(const fs::path& destination) {
  const std::string name = destination.filename().string();
  const fs::path parent = destination.has_parent_path() ? destination.parent_path() : fs::path(".");
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, error)) {
    const std::string sibling = entry.path().filename().string();
    for (const std::string tag : {kStagingTag, kOldTag}) {
      const std::string prefix = name + tag;
      if (sibling.size() <= prefix.size() || sibling.compare(0, prefix.size(), prefix) != 0) continue;
      const std::string digits = sibling.substr(prefix.size());
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
      const long pid = std::stol(digits);
      if (pid == getpid() || pid <= 0 || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      std::error_code removed;
      fs::remove_all(entry.path(), removed);
    }
  }
}

// Moves the finished bundle into place; whatever was there is replaced only
// if it was a bundle (or empty).
void publish(const fs::path& staging, const fs::path& target) {
  std::error_code error;
  if (fs::exists(target)) {
    const bool empty = fs::is_directory(target) && fs::is_empty(target);
    if (!fs::is_directory(target) || (!empty && !fs::exists(target / "manifest.json"))) {
      fs::remove_all(staging, error);
      throw Failure("output.dir " + target.string() + " exists and is not an etns bundle; not replacing it", 2);
    }
    const fs::path old = old_dir_of(target);
    fs::rename(target, old, error);
    if (error) throw Failure("cannot replace " + target.string() + ": " + error.message());
    fs::rename(staging, target, error);
    if (error) throw Failure("cannot move the bundle to " + target.string() + ": " + error.message());
    fs::remove_all(old, error);
    return;
  }
  fs::rename(staging, target, error);
  if (error) throw Failure("cannot move the bundle to " + target.string() + ": " + error.message());
}

// Each declared file exists inside the bundle with its declared size and SHA-256.
void verify_artifacts(const std::string& dir, const ManifestDoc& manifest) {
  const fs::path root(dir);
  bool declared_summary = false, declared_metadata = false, declared_results = false;
  for (const ArtifactDoc& artifact : manifest.artifacts) {
    const fs::path relative(artifact.path);
    if (relative.is_absolute() || artifact.path.find("..") != std::string::npos) {
      throw Failure(dir + "/manifest.json: artifact path '" + artifact.path + "' leaves the bundle");
    }
    if (!fs::exists(root / relative)) {
      throw Failure(dir + ": " + artifact.path + " is declared in manifest.json but missing");
    }
    const std::vector<uint8_t> bytes = read_file((root / relative).string());
    if (bytes.size() != artifact.size_bytes || sha256_hex(bytes.data(), bytes.size()) != artifact.sha256) {
      throw Failure(dir + ": " + artifact.path + " does not match its SHA-256 in manifest.json (modified after the run?)");
    }
    declared_summary = declared_summary || artifact.path == "summary.json";
    declared_metadata = declared_metadata || artifact.path == "run_metadata.json";
    declared_results = declared_results || artifact.path == "profile_results.json";
  }
  if (!declared_summary || !declared_metadata || !declared_results) {
    throw Failure(dir + "/manifest.json: summary.json, run_metadata.json and profile_results.json must be declared");
  }
}

}  // namespace

std::string staging_dir_of(const std::string& destination, long pid) {
  return destination + kStagingTag + std::to_string(pid);
}

void check_bundle_destination(const ProfileConfig& config) {
  const fs::path dir = fs::path(config.output_dir).lexically_normal();
  std::error_code error;
  if (!fs::exists(dir, error)) return;
  const bool empty = fs::is_directory(dir) && fs::is_empty(dir);
  if (empty) return;
  if (!fs::is_directory(dir) || !fs::exists(dir / "manifest.json")) {
    throw Failure("output.dir " + dir.string() + " exists and is not an etns bundle; not replacing it", 2);
  }
  // A bundle of the other target is another measurement, not a stale copy of
  // this one. Only its target is read: a summary that is otherwise broken
  // belongs to a broken bundle, which may be replaced.
  std::string held;
  try {
    const json summary = read_json_file((dir / "summary.json").string());
    held = summary.is_object() ? summary.value("target", "") : "";
  } catch (const std::exception&) {
    return;
  }
  if (!held.empty() && held != config.target) {
    throw Failure("output.dir " + dir.string() + " holds a " + held + " bundle and this run is on " + config.target +
                      ": give it its own folder (--out DIR or output.dir) rather than replace it",
                  2);
  }
}

void write_bundle(const ProfileConfig& config, const ProfileResult& result) {
  check_bundle_destination(config);
  const fs::path target = fs::path(config.output_dir).lexically_normal();
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  if (error) throw Failure("cannot create " + target.parent_path().string() + ": " + error.message());
  remove_stale_staging(target);
  const fs::path staging = staging_dir_of(target.string(), getpid());
  fs::remove_all(staging, error);
  fs::create_directories(staging / "detailed", error);
  if (error) throw Failure("cannot create " + staging.string() + ": " + error.message());

  const RunDocuments documents = documents_of_run(config, result, uuid_v4(), utc_timestamp());
  StagedFiles staged{staging, {}};
  staged.put("summary.json", to_json(documents.summary).dump(2) + "\n");
  staged.put("run_metadata.json", to_json(documents.metadata).dump(2) + "\n");
  staged.put("profile_results.json", to_json(documents.results).dump(2) + "\n");
  std::vector<std::string> all_counters;
  for (const CounterSpec& counter : result.counters) all_counters.push_back(counter.name);
  if (config.output_format == "csv") staged.put("profile_results.csv", results_csv(documents.results, all_counters));
  if (config.detailed) {
    for (const std::string& group : config.groups) {
      std::vector<std::string> columns;
      for (const CounterSpec& counter : result.counters) {
        if (counter.group == group) columns.push_back(counter.name);
      }
      staged.put("detailed/profile_" + group + ".csv", results_csv(documents.results, columns));
    }
  } else {
    fs::remove(staging / "detailed", error);
  }
  staged.put("report.md", report_markdown(documents));
  // Last, and not listed in itself: the manifest, so that a bundle with one is complete.
  write_file_atomic((staging / "manifest.json").string(),
                    to_json(manifest_of(staged, documents, config, result)).dump(2) + "\n");
  publish(staging, target);
}

Bundle read_bundle(const std::string& dir) {
  const fs::path root(dir);
  if (!fs::is_directory(root)) throw Failure(dir + ": not a folder (expected a profile bundle)");
  if (!fs::exists(root / "manifest.json")) throw Failure(dir + ": no manifest.json (not a complete etns bundle)");
  Bundle bundle;
  bundle.dir = dir;
  auto document = [&](const std::string& file, auto from_json) {
    const std::string path = (root / file).string();
    const json content = read_json_file(path);
    return from_json(JsonField(content, path));
  };
  bundle.manifest = document("manifest.json", manifest_from_json);
  verify_artifacts(dir, bundle.manifest);
  bundle.summary = document("summary.json", summary_from_json);
  bundle.metadata = document("run_metadata.json", metadata_from_json);
  bundle.results = document("profile_results.json", results_from_json);
  return bundle;
}

}  // namespace etns::tools
