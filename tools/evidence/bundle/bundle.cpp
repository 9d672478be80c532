#include "tools/evidence/bundle/bundle.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <random>

#include "protocol/bundle.h"
#include "tools/evidence/bundle/bundle_from_run.h"
#include "tools/evidence/bundle/bundle_text.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
namespace files = protocol::bundle;
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

std::string detailed_file(const std::string& group) {
  return std::string(files::kDetailedDir) + "/profile_" + group + ".csv";
}

std::string role_of(const std::string& path) {
  if (path == files::kSummaryFile || path == files::kMetadataFile || path == files::kResultsFile ||
      path == files::kResultsCsvFile) {
    return files::kRoleCore;
  }
  if (path.rfind(std::string(files::kDetailedDir) + "/", 0) == 0) return files::kRoleProjection;
  return files::kRoleReport;
}

ManifestDoc manifest_of(const StagedFiles& staged, const RunDocuments& documents, const ProfileConfig& config,
                        const ProfileResult& result) {
  ManifestDoc manifest;
  manifest.run_id = documents.metadata.run_id;
  manifest.timestamp = documents.metadata.timestamp;
  manifest.etns_version = kEtnsVersion;
  manifest.status = result.failure.empty() ? files::kStatusComplete : files::kStatusFailed;
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
    if (!fs::is_directory(target) || (!empty && !fs::exists(target / files::kManifestFile))) {
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
  const std::string manifest_file = files::kManifestFile;
  bool declared_summary = false, declared_metadata = false, declared_results = false;
  for (const ArtifactDoc& artifact : manifest.artifacts) {
    const fs::path relative(artifact.path);
    if (relative.is_absolute() || artifact.path.find("..") != std::string::npos) {
      throw Failure(dir + "/" + manifest_file + ": artifact path '" + artifact.path + "' leaves the bundle");
    }
    if (!fs::exists(root / relative)) {
      throw Failure(dir + ": " + artifact.path + " is declared in " + manifest_file + " but missing");
    }
    const std::vector<uint8_t> bytes = read_file((root / relative).string());
    if (bytes.size() != artifact.size_bytes || sha256_hex(bytes.data(), bytes.size()) != artifact.sha256) {
      throw Failure(dir + ": " + artifact.path + " does not match its SHA-256 in " + manifest_file +
                    " (modified after the run?)");
    }
    declared_summary = declared_summary || artifact.path == files::kSummaryFile;
    declared_metadata = declared_metadata || artifact.path == files::kMetadataFile;
    declared_results = declared_results || artifact.path == files::kResultsFile;
  }
  if (!declared_summary || !declared_metadata || !declared_results) {
    throw Failure(fmt::format("{}/{}: {}, {} and {} must be declared", dir, manifest_file, files::kSummaryFile,
                              files::kMetadataFile, files::kResultsFile));
  }
}

// The documents of one run agree on what ran: the target and the provider
// each of them names, the rows, whether there is a clean figure, and the
// validity. Each document is valid on its own by now; the first that
// disagrees with summary.json is named with its field.
void check_documents_agree(const Bundle& bundle) {
  const SummaryDoc& summary = bundle.summary;
  auto agree = [&](const char* file, const char* pointer, const std::string& value, const char* summary_pointer,
                   const std::string& expected) {
    if (value == expected) return;
    throw Failure(fmt::format("{}/{}: {}: {}, but {} {} is {}", bundle.dir, file, pointer, value, files::kSummaryFile,
                              summary_pointer, expected));
  };
  auto present = [](bool has) { return std::string(has ? "an object" : "null"); };
  auto rows = [](size_t count) { return std::to_string(count) + (count == 1 ? " row" : " rows"); };
  const std::string provider = protocol::to_string(summary.provider);
  agree(files::kMetadataFile, "/provider/backend", protocol::to_string(bundle.metadata.backend), "/provider", provider);
  agree(files::kManifestFile, "/comparability/provider", protocol::to_string(bundle.manifest.provider), "/provider",
        provider);
  agree(files::kMetadataFile, "/target/name", bundle.metadata.target, "/target", summary.target);
  agree(files::kResultsFile, "/target", bundle.results.target, "/target", summary.target);
  agree(files::kManifestFile, "/comparability/target", bundle.manifest.target, "/target", summary.target);
  agree(files::kResultsFile, "/layers", rows(bundle.results.layers.size()), "/layers", rows(summary.layers));
  agree(files::kResultsFile, "/clean_end_to_end", present(bundle.results.clean_end_to_end.has_value()),
        "/clean_end_to_end", present(summary.clean_end_to_end.has_value()));
  agree(files::kManifestFile, "/validity", bundle.manifest.validity, "/validity", summary.validity);
  // The cycle figures and the note of what estimated them come together.
  agree(files::kMetadataFile, "/cycles", present(bundle.metadata.cycles.has_value()), "/cycles",
        present(summary.cycles.has_value()));
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
  if (!fs::is_directory(dir) || !fs::exists(dir / files::kManifestFile)) {
    throw Failure("output.dir " + dir.string() + " exists and is not an etns bundle; not replacing it", 2);
  }
  // A bundle of the other target is another measurement, not a stale copy of
  // this one. Not a validated read (read_bundle is): only the target is
  // looked at, and only to refuse, so that a bundle that no longer validates
  // (damaged, or from another etns version) is protected all the same; one
  // without a readable target belongs to a broken bundle, which may be replaced.
  std::string held;
  try {
    const json summary = read_json_file((dir / files::kSummaryFile).string());
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
  fs::create_directories(staging / files::kDetailedDir, error);
  if (error) throw Failure("cannot create " + staging.string() + ": " + error.message());

  const RunDocuments documents = documents_of_run(config, result, uuid_v4(), utc_timestamp());
  StagedFiles staged{staging, {}};
  staged.put(files::kSummaryFile, to_json(documents.summary).dump(2) + "\n");
  staged.put(files::kMetadataFile, to_json(documents.metadata).dump(2) + "\n");
  staged.put(files::kResultsFile, to_json(documents.results).dump(2) + "\n");
  std::vector<std::string> all_counters;
  for (const CounterSpec& counter : result.counters) all_counters.push_back(counter.name);
  if (config.output_format == "csv") {
    staged.put(files::kResultsCsvFile, results_csv(documents.results, all_counters));
  }
  if (config.detailed) {
    for (const std::string& group : config.groups) {
      std::vector<std::string> columns;
      for (const CounterSpec& counter : result.counters) {
        if (counter.group == group) columns.push_back(counter.name);
      }
      staged.put(detailed_file(group), results_csv(documents.results, columns));
    }
  } else {
    fs::remove(staging / files::kDetailedDir, error);
  }
  staged.put(files::kReportFile, report_markdown(documents));
  // Last, and not listed in itself: the manifest, so that a bundle with one is complete.
  write_file_atomic((staging / files::kManifestFile).string(),
                    to_json(manifest_of(staged, documents, config, result)).dump(2) + "\n");
  publish(staging, target);
}

Bundle read_bundle(const std::string& dir) {
  const fs::path root(dir);
  if (!fs::is_directory(root)) throw Failure(dir + ": not a folder (expected a profile bundle)");
  if (!fs::exists(root / files::kManifestFile)) {
    throw Failure(dir + ": no " + files::kManifestFile + " (not a complete etns bundle)");
  }
  Bundle bundle;
  bundle.dir = dir;
  auto document = [&](const std::string& file, auto from_json) {
    const std::string path = (root / file).string();
    const json content = read_json_file(path);
    return from_json(JsonField(content, path));
  };
  bundle.manifest = document(files::kManifestFile, manifest_from_json);
  verify_artifacts(dir, bundle.manifest);
  bundle.summary = document(files::kSummaryFile, summary_from_json);
  bundle.metadata = document(files::kMetadataFile, metadata_from_json);
  bundle.results = document(files::kResultsFile, results_from_json);
  check_documents_agree(bundle);
  return bundle;
}

}  // namespace etns::tools
