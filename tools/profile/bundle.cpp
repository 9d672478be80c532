#include "tools/profile/bundle.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/sha256.h"
#include "tools/elf/elf_image.h"
#include "tools/profile/compare.h"

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
  char text[37];
  std::snprintf(text, sizeof(text), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
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

// Integers stay integers in JSON and CSV; medians of an even count may not.
json number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 9.0e15) return static_cast<int64_t>(value);
  return value;
}

std::string csv_number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 9.0e15) return std::to_string(static_cast<int64_t>(value));
  char text[40];
  std::snprintf(text, sizeof(text), "%.3f", value);
  return text;
}

std::string pct_text(const json& pct) {
  if (pct.is_null()) return "";
  char text[16];
  std::snprintf(text, sizeof(text), "%.1f", pct.get<double>());
  return text;
}

std::string crc_hex(uint32_t crc) {
  char text[12];
  std::snprintf(text, sizeof(text), "%08x", crc);
  return text;
}

json stats_json(const std::vector<uint64_t>& samples, const std::string& aggregation) {
  const Stats stats = summarize(samples);
  return {{"value", number(aggregate(samples, aggregation))},
          {"median", number(stats.median)},
          {"mean", number(stats.mean)},
          {"min", number(stats.min)},
          {"max", number(stats.max)},
          {"mad", number(stats.mad)},
          {"samples", samples.size()}};
}

json counter_json(const CounterSpec& counter) {
  return {{"name", counter.name}, {"group", counter.group}, {"unit", counter.unit}, {"description", counter.description}};
}

// A row's share of the per-layer sum of the primary metric, one decimal.
json share_pct(double value, double total) {
  if (total <= 0) return nullptr;
  return std::round(value / total * 1000.0) / 10.0;
}

struct Rows {
  std::vector<double> primary;  // aggregated, per layer
  double sum = 0;
};

Rows primary_rows(const ProfileConfig& config, const ProfileResult& result) {
  Rows rows;
  for (const std::vector<uint64_t>& samples : result.layer_primary) {
    rows.primary.push_back(aggregate(samples, config.aggregation));
    rows.sum += rows.primary.back();
  }
  return rows;
}

json issues_json(const std::vector<Issue>& issues) {
  json list = json::array();
  for (const Issue& issue : issues) {
    list.push_back({{"code", issue.code}, {"severity", issue.severity}, {"message", issue.message}, {"context", issue.context}});
  }
  return list;
}

std::string first_output_line(const std::vector<std::string>& argv) {
  try {
    TemporaryDirectory scratch("etns-version");
    const ProcessResult result = run_process(argv, scratch.path(), 30);
    return result.stdout_text.substr(0, result.stdout_text.find('\n'));
  } catch (const Failure&) {
    return "";
  }
}

json memory_json(const ProfileConfig& config, const ProfileResult& result) {
  size_t planned = 0;
  for (size_t bytes : result.planned_bytes) planned += bytes;
  return {{"planned_arena", planned},
          {"planned_buffers", result.planned_bytes},
          {"method_arena", config.method_arena_size},
          {"method_arena_used", result.method_arena_bytes},
          {"temporary_arena", config.temporary_arena_size},
          {"scratch_used", result.scratch_bytes},
          {"model_size", fs::exists(config.model_path) ? fs::file_size(config.model_path) : 0},
          {"input_size", result.input_bytes},
          {"output_size", result.output_bytes}};
}

// Each memory region the run needs, as an embedded user sizes a board:
// capacity (what the config reserves; null when it reserves nothing fixed),
// used (what this program took), free and overflow.
json memory_plan_json(const ProfileConfig& config, const ProfileResult& result) {
  size_t planned = 0;
  for (size_t bytes : result.planned_bytes) planned += bytes;
  const uint64_t model_size = fs::exists(config.model_path) ? fs::file_size(config.model_path) : 0;
  auto region = [](const char* name, const char* consumer, std::optional<int64_t> capacity, uint64_t used) {
    json r = {{"region", name}, {"consumer", consumer}, {"used", used}};
    if (capacity) {
      const uint64_t cap = static_cast<uint64_t>(*capacity);
      r["capacity"] = cap;
      r["free"] = cap > used ? cap - used : 0;
      r["overflow"] = used > cap;
    } else {
      r["capacity"] = nullptr;
      r["free"] = nullptr;
      r["overflow"] = false;
    }
    return r;
  };
  json plan = json::array();
  plan.push_back(region("pte_program", "the program file: weights and constants", std::nullopt, model_size));
  plan.push_back(region("planned_arena", "activations (the program's memory plan)", config.arena_size, planned));
  plan.push_back(region("method_arena", "the runtime's method: values, kernel states", config.method_arena_size,
                        result.method_arena_bytes));
  plan.push_back(region("temporary_arena", "kernel scratch", config.temporary_arena_size, result.scratch_bytes));
  plan.push_back(region("input_buffer", "input 0", config.input_size, result.input_bytes));
  plan.push_back(region("output_buffer", "output 0", config.output_size, result.output_bytes));
  return plan;
}

// The firmware image's sizes (Berkeley `size`: text, data, bss) on a device
// target; null on the host, which runs no image.
json binary_json(const ProfileResult& result) {
  const auto firmware = result.target_details.find("firmware");
  if (firmware == result.target_details.end() || !firmware->is_string()) return nullptr;
  try {
    const ElfImage::Sizes sizes = ElfImage::load(firmware->get<std::string>()).sizes();
    return {{"image", fs::path(firmware->get<std::string>()).filename().string()},
            {"text", sizes.text},
            {"data", sizes.data},
            {"bss", sizes.bss},
            {"total", sizes.total()}};
  } catch (const Failure&) {
    return nullptr;  // the run already failed on the image, and says so
  }
}

json summary_json(const ProfileConfig& config, const ProfileResult& result, const Rows& rows) {
  json summary;
  summary["schema"] = "etns.run-summary";
  summary["schema_version"] = 1;
  summary["engine"] = "executorch";
  summary["target"] = result.target;
  summary["provider"] = config.backend;
  summary["metric"] = counter_json(result.primary);
  summary["metric"]["aggregation"] = config.aggregation;
  summary["layers"] = result.layers.size();
  summary["per_layer_sum"] = number(rows.sum);
  summary["clean_end_to_end"] = result.clean.empty() ? json() : stats_json(result.clean, config.aggregation);
  summary["load"] = result.load;
  // The five largest rows by the primary metric.
  std::vector<size_t> order(rows.primary.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rows.primary[a] > rows.primary[b]; });
  json top = json::array();
  for (size_t k = 0; k < order.size() && k < 5; ++k) {
    const size_t i = order[k];
    top.push_back({{"id", result.layers[i].id},
                   {"operator", result.layers[i].operator_name},
                   {"value", number(rows.primary[i])},
                   {"pct", share_pct(rows.primary[i], rows.sum)}});
  }
  summary["top_layers"] = top;
  summary["memory"] = memory_json(config, result);
  summary["memory_plan"] = memory_plan_json(config, result);
  summary["binary"] = binary_json(result);
  summary["validity"] = validity_of(result.issues);
  summary["issues"] = issues_json(result.issues);
  summary["failure"] = result.failure.empty() ? json() : json(result.failure);
  summary["duration_s"] = std::round(result.duration_s * 1000.0) / 1000.0;
  return summary;
}

// Ordered: the frozen config keeps its schema order (pmu_counters' group order is the pass order).
nlohmann::ordered_json metadata_json(const ProfileConfig& config, const ProfileResult& result,
                                     const std::string& run_id, const std::string& timestamp) {
  json toolchain = {{"host_compiler", std::string("g++ ") + __VERSION__}, {"cmake", ETNS_CMAKE_VERSION}};
  if (result.target == "qemu-m55") toolchain["target_compiler"] = first_output_line({"arm-none-eabi-gcc", "--version"});
  json model = {{"name", fs::path(config.model_path).filename().string()}, {"path", config.model_path}};
  if (fs::exists(config.model_path)) {
    model["size_bytes"] = fs::file_size(config.model_path);
    model["sha256"] = sha256_hex_file(config.model_path);
  }
  return nlohmann::ordered_json{{"schema", "etns.run-metadata"},
          {"schema_version", 1},
          {"etns_version", kEtnsVersion},
          {"run_id", run_id},
          {"timestamp", timestamp},
          {"config", config.resolved},
          {"target", {{"name", result.target}, {"details", result.target_details}}},
          {"provider", {{"backend", config.backend}, {"ns_ops", config.ns_ops}, {"portable_ops", config.portable_ops}}},
          {"model", model},
          {"toolchain", toolchain}};
}

json results_json(const ProfileConfig& config, const ProfileResult& result, const Rows& rows) {
  json counters = json::array();
  for (const CounterSpec& counter : result.counters) counters.push_back(counter_json(counter));
  json layers = json::array();
  for (size_t i = 0; i < result.layers.size(); ++i) {
    const LayerResult& layer = result.layers[i];
    json row = {{"index", i},
                {"id", layer.id},
                {"op", "OPERATOR_CALL:" + layer.id},
                {"operator", layer.operator_name},
                {"value", number(rows.primary[i])},
                {"pct", share_pct(rows.primary[i], rows.sum)},
                {"primary", stats_json(result.layer_primary[i], config.aggregation)}};
    json values = json::object();
    for (size_t c = 0; c < result.counters.size(); ++c) {
      values[result.counters[c].name] = stats_json(layer.samples[c], config.aggregation);
    }
    row["counters"] = values;
    layers.push_back(row);
  }
  json clean = nullptr;
  if (!result.clean.empty()) {
    clean = {{"primary", stats_json(result.clean, config.aggregation)}};
    json values = json::object();
    for (size_t c = 0; c < result.counters.size(); ++c) {
      values[result.counters[c].name] = stats_json(result.clean_counters[c], config.aggregation);
    }
    clean["counters"] = values;
  }
  json crcs = json::array();
  for (uint32_t crc : result.output_crc32) crcs.push_back(crc_hex(crc));
  return {{"schema", "etns.profile-results"},
          {"schema_version", 1},
          {"target", result.target},
          {"metric", counter_json(result.primary)},
          {"counters", counters},
          {"aggregation", config.aggregation},
          {"iterations", config.iterations},
          {"warmup", config.warmup},
          {"passes", config.per_layer ? json::array({"per_instruction", "clean"}) : json::array({"clean"})},
          {"layers", layers},
          {"per_layer_sum", number(rows.sum)},
          {"clean_end_to_end", clean},
          {"load", result.load},
          {"output_crc32", crcs}};
}

// One CSV table: id, op, operator, the counters' aggregated values, then the
// share of the first counter's column sum.
std::string csv_table(const ProfileConfig& config, const ProfileResult& result, const std::vector<size_t>& columns) {
  std::ostringstream csv;
  csv << "id,op,operator";
  for (size_t c : columns) csv << "," << result.counters[c].name;
  csv << ",pct\n";
  std::vector<std::vector<double>> values(result.layers.size());
  double total = 0;
  for (size_t i = 0; i < result.layers.size(); ++i) {
    for (size_t c : columns) values[i].push_back(aggregate(result.layers[i].samples[c], config.aggregation));
    if (!values[i].empty()) total += values[i][0];
  }
  for (size_t i = 0; i < result.layers.size(); ++i) {
    csv << i << ",OPERATOR_CALL:" << result.layers[i].id << "," << result.layers[i].operator_name;
    for (double value : values[i]) csv << "," << csv_number(value);
    const json pct = values[i].empty() ? json() : share_pct(values[i][0], total);
    csv << "," << pct_text(pct) << "\n";
  }
  return csv.str();
}

std::string report_markdown(const ProfileConfig& config, const ProfileResult& result, const Rows& rows,
                            const json& summary) {
  std::ostringstream md;
  const std::string unit = result.primary.unit;
  md << "# Profile: " << fs::path(config.model_path).filename().string() << " (" << config.backend << ", "
     << result.target << ")\n\n";
  md << "Validity: **" << summary["validity"].get<std::string>() << "**";
  if (!result.issues.empty()) {
    md << "\n\n";
    for (const Issue& issue : result.issues) md << "- `" << issue.code << "` (" << issue.severity << "): " << issue.message << "\n";
  } else {
    md << "\n";
  }
  md << "\nEach value is the " << config.aggregation << " of " << config.iterations << " iterations after "
     << config.warmup << " warm-up runs, with an all-zero input. " << result.primary.name << ": "
     << result.primary.description << ".\n";
  if (!result.layers.empty()) {
    md << "\n| # | instruction | operator | " << result.primary.name << " (" << unit << ") | min | max | share |";
    std::vector<size_t> extra;
    for (size_t c = 0; c < result.counters.size(); ++c) {
      if (result.counters[c].name != result.primary.name) {
        extra.push_back(c);
        md << " " << result.counters[c].name << " |";
      }
    }
    md << "\n|---|---|---|---:|---:|---:|---:|";
    for (size_t k = 0; k < extra.size(); ++k) md << "---:|";
    md << "\n";
    for (size_t i = 0; i < result.layers.size(); ++i) {
      const Stats stats = summarize(result.layer_primary[i]);
      const json pct = share_pct(rows.primary[i], rows.sum);
      md << "| " << i << " | " << result.layers[i].id << " | `" << result.layers[i].operator_name << "` | "
         << format_count(rows.primary[i]) << " | " << format_count(stats.min) << " | " << format_count(stats.max) << " | "
         << (pct.is_null() ? std::string() : pct_text(pct) + " %") << " |";
      for (size_t c : extra) md << " " << format_count(aggregate(result.layers[i].samples[c], config.aggregation)) << " |";
      md << "\n";
    }
    md << "\nPer-instruction sum: " << format_count(rows.sum) << " " << unit << ".\n";
  }
  if (!result.clean.empty()) {
    const Stats stats = summarize(result.clean);
    md << "Clean end to end (execute() without per-instruction instrumentation): "
       << format_count(aggregate(result.clean, config.aggregation)) << " " << unit << " (min " << format_count(stats.min)
       << ", max " << format_count(stats.max) << ").\n";
  }
  const json& memory = summary["memory"];
  md << "\nMemory: planned arena " << memory["planned_arena"].get<size_t>() << " B, method arena used "
     << memory["method_arena_used"].get<size_t>() << " B of " << memory["method_arena"].get<int64_t>()
     << ", scratch " << memory["scratch_used"].get<size_t>() << " B, program " << memory["model_size"].get<size_t>()
     << " B.\n";
  if (!result.failure.empty()) md << "\nThe run did not complete:\n\n```\n" << result.failure << "\n```\n";
  return md.str();
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

json manifest_json(const StagedFiles& staged, const json& summary, const nlohmann::ordered_json& metadata,
                   const ProfileConfig& config, const ProfileResult& result) {
  json artifacts = json::array();
  for (const auto& [file, text] : staged.files) {
    artifacts.push_back({{"path", file},
                         {"size_bytes", text.size()},
                         {"sha256", sha256_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size())},
                         {"role", role_of(file)}});
  }
  const std::string config_text = config.resolved.dump();
  std::vector<std::string> counter_names;
  for (const CounterSpec& counter : result.counters) counter_names.push_back(counter.name);
  return {{"schema", "etns.result-manifest"},
          {"schema_version", 1},
          {"run_id", metadata["run_id"]},
          {"timestamp", metadata["timestamp"]},
          {"etns_version", kEtnsVersion},
          {"status", result.failure.empty() ? "complete" : "failed"},
          {"bundle_type", "profile"},
          {"validity", summary["validity"]},
          {"issues", summary["issues"]},
          {"provenance",
           {{"config_sha256", sha256_hex(reinterpret_cast<const uint8_t*>(config_text.data()), config_text.size())},
            {"model_sha256", metadata["model"].value("sha256", "")}}},
          {"comparability",
           {{"model_sha256", metadata["model"].value("sha256", "")},
            {"target", result.target},
            {"board", result.target_details.value("board", "")},
            {"provider", config.backend},
            {"etns_version", kEtnsVersion},
            {"metric", result.primary.name},
            {"counters", counter_names},
            {"aggregation", config.aggregation}}},
          {"artifacts", artifacts}};
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
    const fs::path old = target.string() + ".old-" + std::to_string(getpid());
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

}  // namespace

void check_bundle_destination(const ProfileConfig& config) {
  const fs::path dir = fs::path(config.output_dir).lexically_normal();
  std::error_code error;
  if (!fs::exists(dir, error)) return;
  const bool empty = fs::is_directory(dir) && fs::is_empty(dir);
  if (empty) return;
  if (!fs::is_directory(dir) || !fs::exists(dir / "manifest.json")) {
    throw Failure("output.dir " + dir.string() + " exists and is not an etns bundle; not replacing it", 2);
  }
  // A bundle of the other target is another measurement, not a stale copy of this one.
  std::string held;
  try {
    held = read_json_file((dir / "summary.json").string()).value("target", "");
  } catch (const std::exception&) {
    return;  // an unreadable summary is a broken bundle: replacing it is fine
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
  const fs::path staging = target.string() + ".tmp-" + std::to_string(getpid());
  fs::remove_all(staging, error);
  fs::create_directories(staging / "detailed", error);
  if (error) throw Failure("cannot create " + staging.string() + ": " + error.message());

  const std::string run_id = uuid_v4();
  const std::string timestamp = utc_timestamp();
  const Rows rows = primary_rows(config, result);
  const json summary = summary_json(config, result, rows);
  const nlohmann::ordered_json metadata = metadata_json(config, result, run_id, timestamp);
  StagedFiles staged{staging, {}};
  staged.put("summary.json", summary.dump(2) + "\n");
  staged.put("run_metadata.json", metadata.dump(2) + "\n");
  staged.put("profile_results.json", results_json(config, result, rows).dump(2) + "\n");
  std::vector<size_t> all_columns(result.counters.size());
  for (size_t c = 0; c < all_columns.size(); ++c) all_columns[c] = c;
  if (config.output_format == "csv") staged.put("profile_results.csv", csv_table(config, result, all_columns));
  if (config.detailed) {
    for (const std::string& group : config.groups) {
      std::vector<size_t> columns;
      for (size_t c = 0; c < result.counters.size(); ++c) {
        if (result.counters[c].group == group) columns.push_back(c);
      }
      staged.put("detailed/profile_" + group + ".csv", csv_table(config, result, columns));
    }
  } else {
    fs::remove(staging / "detailed", error);
  }
  staged.put("report.md", report_markdown(config, result, rows, summary));
  // Last, and not listed in itself: the manifest, so that a bundle with one is complete.
  write_file_atomic((staging / "manifest.json").string(),
                    manifest_json(staged, summary, metadata, config, result).dump(2) + "\n");
  publish(staging, target);
}

Bundle read_bundle(const std::string& dir) {
  const fs::path root(dir);
  if (!fs::is_directory(root)) throw Failure(dir + ": not a folder (expected a profile bundle)");
  if (!fs::exists(root / "manifest.json")) throw Failure(dir + ": no manifest.json (not a complete etns bundle)");
  Bundle bundle;
  bundle.dir = dir;
  bundle.manifest = read_json_file((root / "manifest.json").string());
  if (bundle.manifest.value("schema", "") != "etns.result-manifest" || bundle.manifest.value("schema_version", 0) != 1) {
    throw Failure(dir + "/manifest.json: not an etns.result-manifest v1");
  }
  bool declared_summary = false, declared_metadata = false, declared_results = false;
  for (const json& artifact : bundle.manifest.at("artifacts")) {
    const std::string path = artifact.at("path").get<std::string>();
    const fs::path relative(path);
    if (relative.is_absolute() || path.find("..") != std::string::npos) {
      throw Failure(dir + "/manifest.json: artifact path '" + path + "' leaves the bundle");
    }
    if (!fs::exists(root / relative)) throw Failure(dir + ": " + path + " is declared in manifest.json but missing");
    const std::vector<uint8_t> bytes = read_file((root / relative).string());
    if (bytes.size() != artifact.at("size_bytes").get<size_t>() ||
        sha256_hex(bytes.data(), bytes.size()) != artifact.at("sha256").get<std::string>()) {
      throw Failure(dir + ": " + path + " does not match its SHA-256 in manifest.json (modified after the run?)");
    }
    declared_summary = declared_summary || path == "summary.json";
    declared_metadata = declared_metadata || path == "run_metadata.json";
    declared_results = declared_results || path == "profile_results.json";
  }
  if (!declared_summary || !declared_metadata || !declared_results) {
    throw Failure(dir + "/manifest.json: summary.json, run_metadata.json and profile_results.json must be declared");
  }
  bundle.summary = read_json_file((root / "summary.json").string());
  bundle.metadata = read_json_file((root / "run_metadata.json").string());
  bundle.results = read_json_file((root / "profile_results.json").string());
  return bundle;
}

}  // namespace etns::tools
