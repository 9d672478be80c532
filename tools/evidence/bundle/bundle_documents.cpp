#include "tools/evidence/bundle/bundle_documents.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "protocol/bundle.h"

namespace etns::tools {

using json = nlohmann::json;
namespace bundle = protocol::bundle;

json json_number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 9.0e15) return static_cast<int64_t>(value);
  return value;
}

namespace {

void expect_schema(const JsonField& document, const char* schema) {
  document["schema"].expect(schema);
  document["schema_version"].expect(bundle::kSchemaVersion);
}

protocol::Provider provider_from(const JsonField& field) {
  protocol::Provider provider = protocol::Provider::Arm;
  const std::string name =
      field.text_in({protocol::to_string(protocol::Provider::Arm), protocol::to_string(protocol::Provider::Ns)});
  protocol::parse_provider_name(name.c_str(), &provider);
  return provider;
}

std::string validity_from(const JsonField& field) {
  return field.text_in({bundle::kValid, bundle::kDegraded, bundle::kInvalid});
}

json counter_json(const CounterDoc& counter) {
  return {{"name", counter.name}, {"group", counter.group}, {"unit", counter.unit}, {"description", counter.description}};
}

CounterDoc counter_from(const JsonField& field) {
  return {field["name"].text(), field["group"].text(), field["unit"].text(), field["description"].text()};
}

StatsDoc stats_from(const JsonField& field) {
  StatsDoc stats;
  stats.value = field["value"].number();
  stats.median = field["median"].number();
  stats.mean = field["mean"].number();
  stats.min = field["min"].number();
  stats.max = field["max"].number();
  stats.mad = field["mad"].number();
  stats.samples = field["samples"].count();
  return stats;
}

json stats_map_json(const std::map<std::string, StatsDoc>& counters) {
  json values = json::object();
  for (const auto& [name, stats] : counters) values[name] = to_json(stats);
  return values;
}

std::map<std::string, StatsDoc> stats_map_from(const JsonField& field) {
  std::map<std::string, StatsDoc> counters;
  for (const auto& [name, stats] : field.members()) counters[name] = stats_from(stats);
  return counters;
}

json issues_json(const std::vector<IssueDoc>& issues) {
  json list = json::array();
  for (const IssueDoc& issue : issues) {
    list.push_back({{"code", issue.code}, {"severity", issue.severity}, {"message", issue.message}, {"context", issue.context}});
  }
  return list;
}

std::vector<IssueDoc> issues_from(const JsonField& field) {
  std::vector<IssueDoc> issues;
  for (const JsonField& issue : field.elements()) {
    issues.push_back({issue["code"].text(), issue["severity"].text_in({bundle::kSeverityError, bundle::kSeverityWarning}),
                      issue["message"].text(), issue["context"].object()});
  }
  return issues;
}

json memory_json(const MemoryDoc& memory) {
  return {{"planned_arena", memory.planned_arena},   {"planned_buffers", memory.planned_buffers},
          {"method_arena", memory.method_arena},     {"method_arena_used", memory.method_arena_used},
          {"temporary_arena", memory.temporary_arena}, {"scratch_used", memory.scratch_used},
          {"model_size", memory.model_size},         {"input_size", memory.input_size},
          {"output_size", memory.output_size}};
}

MemoryDoc memory_from(const JsonField& field) {
  MemoryDoc memory;
  memory.planned_arena = field["planned_arena"].count();
  for (const JsonField& bytes : field["planned_buffers"].elements()) memory.planned_buffers.push_back(bytes.count());
  memory.method_arena = field["method_arena"].integer();
  memory.method_arena_used = field["method_arena_used"].count();
  memory.temporary_arena = field["temporary_arena"].integer();
  memory.scratch_used = field["scratch_used"].count();
  memory.model_size = field["model_size"].count();
  memory.input_size = field["input_size"].count();
  memory.output_size = field["output_size"].count();
  return memory;
}

json region_json(const MemoryRegionDoc& region) {
  return {{"region", region.region},           {"consumer", region.consumer},
          {"capacity", json_or_null(region.capacity)}, {"used", region.used},
          {"free", json_or_null(region.free)}, {"overflow", region.overflow}};
}

MemoryRegionDoc region_from(const JsonField& field) {
  return {field["region"].text(),         field["consumer"].text(), field["capacity"].count_or_null(),
          field["used"].count(),          field["free"].count_or_null(), field["overflow"].flag()};
}

// A file's SHA-256, or "zeros" with no file.
InputDoc input_from(const JsonField& field) {
  InputDoc input;
  input.file = field["file"].text_or_null();
  input.size_bytes = field["size_bytes"].count();
  input.sha256 = field["sha256"].text();
  const bool hex = input.sha256.size() == 64 &&
                   std::all_of(input.sha256.begin(), input.sha256.end(),
                               [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
  if (input.file && !hex) field["sha256"].fail("expected 64 lowercase hex digits (the file's SHA-256), found '" + input.sha256 + "'");
  if (!input.file && input.sha256 != "zeros") {
    field["sha256"].fail("expected 'zeros' (/file is null), found '" + input.sha256 + "'");
  }
  return input;
}

json cycles_json(const std::optional<CyclesDoc>& cycles) {
  if (!cycles) return json();
  return {{"counter", cycles->counter},
          {"unit", cycles->unit},
          {"estimated", true},
          {"per_layer_sum", cycles->per_layer_sum ? json_number(*cycles->per_layer_sum) : json()},
          {"clean_end_to_end", cycles->clean_end_to_end ? to_json(*cycles->clean_end_to_end) : json()}};
}

std::optional<CyclesDoc> cycles_from(const JsonField& field) {
  const std::optional<JsonField> cycles = field.or_null("an object");
  if (!cycles) return std::nullopt;
  (*cycles)["estimated"].expect(true);
  CyclesDoc doc;
  doc.counter = (*cycles)["counter"].text();
  doc.unit = (*cycles)["unit"].text();
  doc.per_layer_sum = (*cycles)["per_layer_sum"].number_or_null();
  if (const auto clean = (*cycles)["clean_end_to_end"].or_null("an object")) doc.clean_end_to_end = stats_from(*clean);
  return doc;
}

json estimate_json(const std::optional<CycleEstimateDoc>& estimate) {
  if (!estimate) return json();
  return {{"counter", estimate->counter},
          {"estimated", true},
          {"model", json_or_null(estimate->model)},
          {"description", estimate->description}};
}

std::optional<CycleEstimateDoc> estimate_from(const JsonField& field) {
  const std::optional<JsonField> estimate = field.or_null("an object");
  if (!estimate) return std::nullopt;
  (*estimate)["estimated"].expect(true);
  return CycleEstimateDoc{(*estimate)["counter"].text(), (*estimate)["model"].text_or_null(),
                          (*estimate)["description"].text()};
}

}  // namespace

std::optional<std::string> MetadataDoc::detail(const std::string& key) const {
  const auto found = target_details.find(key);
  if (found == target_details.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

bool ResultsDoc::ran_per_instruction_pass() const {
  return std::find(passes.begin(), passes.end(), bundle::kPassPerInstruction) != passes.end();
}

json to_json(const StatsDoc& stats) {
  json out = {{"value", json_number(stats.value)}, {"median", json_number(stats.median)},
              {"mean", json_number(stats.mean)},   {"min", json_number(stats.min)},
              {"max", json_number(stats.max)},     {"mad", json_number(stats.mad)},
              {"samples", stats.samples}};
  return out;
}

json to_json(const SummaryDoc& summary) {
  json metric = counter_json(summary.metric);
  metric["aggregation"] = summary.aggregation;
  json top = json::array();
  for (const TopLayerDoc& layer : summary.top_layers) {
    top.push_back({{"id", layer.id}, {"operator", layer.operator_name}, {"value", json_number(layer.value)},
                   {"pct", json_or_null(layer.pct)}});
  }
  json plan = json::array();
  for (const MemoryRegionDoc& region : summary.memory_plan) plan.push_back(region_json(region));
  json binary;
  if (summary.binary) {
    binary = {{"image", summary.binary->image}, {"text", summary.binary->text}, {"data", summary.binary->data},
              {"bss", summary.binary->bss},     {"total", summary.binary->total}};
  }
  return {{"schema", bundle::kSummarySchema},
          {"schema_version", bundle::kSchemaVersion},
          {"engine", "executorch"},
          {"target", summary.target},
          {"provider", protocol::to_string(summary.provider)},
          {"metric", metric},
          {"layers", summary.layers},
          {"per_layer_sum", json_number(summary.per_layer_sum)},
          {"clean_end_to_end", summary.clean_end_to_end ? to_json(*summary.clean_end_to_end) : json()},
          {"load", summary.load},
          {"cycles", cycles_json(summary.cycles)},
          {"top_layers", top},
          {"memory", memory_json(summary.memory)},
          {"memory_plan", plan},
          {"binary", binary},
          {"validity", summary.validity},
          {"issues", issues_json(summary.issues)},
          {"failure", json_or_null(summary.failure)},
          {"duration_s", summary.duration_s}};
}

SummaryDoc summary_from_json(const JsonField& document) {
  expect_schema(document, bundle::kSummarySchema);
  document["engine"].expect("executorch");
  SummaryDoc summary;
  summary.target = document["target"].text();
  summary.provider = provider_from(document["provider"]);
  summary.metric = counter_from(document["metric"]);
  summary.aggregation = document["metric"]["aggregation"].text();
  summary.layers = document["layers"].count();
  summary.per_layer_sum = document["per_layer_sum"].number();
  if (const auto clean = document["clean_end_to_end"].or_null("an object")) summary.clean_end_to_end = stats_from(*clean);
  summary.load = document["load"].count();
  summary.cycles = cycles_from(document["cycles"]);
  for (const JsonField& layer : document["top_layers"].elements()) {
    summary.top_layers.push_back(
        {layer["id"].text(), layer["operator"].text(), layer["value"].number(), layer["pct"].number_or_null()});
  }
  summary.memory = memory_from(document["memory"]);
  for (const JsonField& region : document["memory_plan"].elements()) summary.memory_plan.push_back(region_from(region));
  if (const auto binary = document["binary"].or_null("an object")) {
    summary.binary = BinaryDoc{(*binary)["image"].text(), (*binary)["text"].count(), (*binary)["data"].count(),
                               (*binary)["bss"].count(), (*binary)["total"].count()};
  }
  summary.validity = validity_from(document["validity"]);
  summary.issues = issues_from(document["issues"]);
  summary.failure = document["failure"].text_or_null();
  summary.duration_s = document["duration_s"].number();
  return summary;
}

nlohmann::ordered_json to_json(const MetadataDoc& metadata) {
  const json toolchain = {{"name", metadata.toolchain},
                          {"host_compiler", metadata.host_compiler},
                          {"cmake", metadata.cmake_version},
                          {"target_compiler", json_or_null(metadata.target_compiler)}};
  const json model = {{"name", metadata.model_name},
                      {"path", metadata.model_path},
                      {"size_bytes", json_or_null(metadata.model_size_bytes)},
                      {"sha256", json_or_null(metadata.model_sha256)}};
  json inputs = json::array();
  for (const InputDoc& input : metadata.inputs) {
    inputs.push_back({{"file", json_or_null(input.file)}, {"size_bytes", input.size_bytes}, {"sha256", input.sha256}});
  }
  const ArenaDoc& arena = metadata.arena;
  return nlohmann::ordered_json{
      {"schema", bundle::kMetadataSchema},
      {"schema_version", bundle::kSchemaVersion},
      {"etns_version", metadata.etns_version},
      {"run_id", metadata.run_id},
      {"timestamp", metadata.timestamp},
      {"config", metadata.config},
      {"target", {{"name", metadata.target}, {"details", metadata.target_details}}},
      {"provider",
       {{"backend", protocol::to_string(metadata.backend)},
        {"ns_ops", metadata.ns_ops()},
        {"portable_ops", metadata.portable_ops},
        {"portable_ops_source", metadata.portable_ops_source}}},
      {"model", model},
      {"inputs", inputs},
      {"toolchain", toolchain},
      {"arena",
       {{"size", json_or_null(arena.size)},
        {"location", json_or_null(arena.location)},
        {"weights_location", json_or_null(arena.weights_location)},
        {"method_arena_size", arena.method_arena_size},
        {"temporary_arena_size", arena.temporary_arena_size}}},
      {"cycles", estimate_json(metadata.cycles)}};
}

MetadataDoc metadata_from_json(const JsonField& document) {
  expect_schema(document, bundle::kMetadataSchema);
  MetadataDoc metadata;
  metadata.etns_version = document["etns_version"].text();
  metadata.run_id = document["run_id"].text();
  metadata.timestamp = document["timestamp"].text();
  metadata.config = document["config"].object();
  metadata.target = document["target"]["name"].text();
  metadata.target_details = document["target"]["details"].object();
  const JsonField provider = document["provider"];
  metadata.backend = provider_from(provider["backend"]);
  if (provider["ns_ops"].flag() != metadata.ns_ops()) {
    provider["ns_ops"].fail(std::string(metadata.ns_ops() ? "false" : "true") + ", but /provider/backend is " +
                            protocol::to_string(metadata.backend) + " (ns_ops follows the backend)");
  }
  metadata.portable_ops = provider["portable_ops"].texts();
  metadata.portable_ops_source = provider["portable_ops_source"].text_in({"program", "config"});
  const JsonField model = document["model"];
  metadata.model_name = model["name"].text();
  metadata.model_path = model["path"].text();
  metadata.model_size_bytes = model["size_bytes"].count_or_null();
  metadata.model_sha256 = model["sha256"].text_or_null();
  for (const JsonField& input : document["inputs"].elements()) metadata.inputs.push_back(input_from(input));
  const JsonField toolchain = document["toolchain"];
  metadata.toolchain = toolchain["name"].text();
  metadata.host_compiler = toolchain["host_compiler"].text();
  metadata.cmake_version = toolchain["cmake"].text();
  metadata.target_compiler = toolchain["target_compiler"].text_or_null();
  const JsonField arena = document["arena"];
  metadata.arena = ArenaDoc{arena["size"].integer_or_null(), arena["location"].text_or_null(),
                            arena["weights_location"].text_or_null(), arena["method_arena_size"].integer(),
                            arena["temporary_arena_size"].integer()};
  metadata.cycles = estimate_from(document["cycles"]);
  return metadata;
}

json to_json(const ResultsDoc& results) {
  json counters = json::array();
  for (const CounterDoc& counter : results.counters) counters.push_back(counter_json(counter));
  json layers = json::array();
  for (const LayerDoc& layer : results.layers) {
    layers.push_back({{"index", layer.index},
                      {"id", layer.id},
                      {"op", "OPERATOR_CALL:" + layer.id},
                      {"operator", layer.operator_name},
                      {"value", json_number(layer.value)},
                      {"pct", json_or_null(layer.pct)},
                      {"cycles", layer.cycles ? json_number(*layer.cycles) : json()},
                      {"cycles_pct", json_or_null(layer.cycles_pct)},
                      {"primary", to_json(layer.primary)},
                      {"counters", stats_map_json(layer.counters)}});
  }
  json clean;
  if (results.clean_end_to_end) {
    clean = {{"primary", to_json(results.clean_end_to_end->primary)},
             {"counters", stats_map_json(results.clean_end_to_end->counters)}};
  }
  return {{"schema", bundle::kResultsSchema},
          {"schema_version", bundle::kSchemaVersion},
          {"target", results.target},
          {"metric", counter_json(results.metric)},
          {"counters", counters},
          {"aggregation", results.aggregation},
          {"iterations", results.iterations},
          {"warmup", results.warmup},
          {"passes", results.passes},
          {"layers", layers},
          {"per_layer_sum", json_number(results.per_layer_sum)},
          {"clean_end_to_end", clean},
          {"load", results.load},
          {"output_crc32", results.output_crc32}};
}

namespace {

LayerDoc layer_from(const JsonField& layer, size_t position) {
  LayerDoc row;
  row.index = layer["index"].count();
  if (row.index != position) layer["index"].fail(fmt::format("expected {} (the row's position), found {}", position, row.index));
  row.id = layer["id"].text();
  layer["op"].expect("OPERATOR_CALL:" + row.id);
  row.operator_name = layer["operator"].text();
  row.value = layer["value"].number();
  row.pct = layer["pct"].number_or_null();
  row.cycles = layer["cycles"].number_or_null();
  row.cycles_pct = layer["cycles_pct"].number_or_null();
  row.primary = stats_from(layer["primary"]);
  row.counters = stats_map_from(layer["counters"]);
  return row;
}

}  // namespace

ResultsDoc results_from_json(const JsonField& document) {
  expect_schema(document, bundle::kResultsSchema);
  ResultsDoc results;
  results.target = document["target"].text();
  results.metric = counter_from(document["metric"]);
  for (const JsonField& counter : document["counters"].elements()) results.counters.push_back(counter_from(counter));
  results.aggregation = document["aggregation"].text();
  results.iterations = document["iterations"].integer();
  results.warmup = document["warmup"].integer();
  for (const JsonField& pass : document["passes"].elements()) {
    results.passes.push_back(pass.text_in({bundle::kPassPerInstruction, bundle::kPassClean}));
  }
  const std::vector<JsonField> layers = document["layers"].elements();
  for (size_t i = 0; i < layers.size(); ++i) results.layers.push_back(layer_from(layers[i], i));
  results.per_layer_sum = document["per_layer_sum"].number();
  if (const auto clean = document["clean_end_to_end"].or_null("an object")) {
    results.clean_end_to_end = CleanPassDoc{stats_from((*clean)["primary"]), stats_map_from((*clean)["counters"])};
  }
  results.load = document["load"].count();
  results.output_crc32 = document["output_crc32"].texts();
  return results;
}

json to_json(const ManifestDoc& manifest) {
  json artifacts = json::array();
  for (const ArtifactDoc& artifact : manifest.artifacts) {
    artifacts.push_back({{"path", artifact.path},
                         {"size_bytes", artifact.size_bytes},
                         {"sha256", artifact.sha256},
                         {"role", artifact.role}});
  }
  return {{"schema", bundle::kManifestSchema},
          {"schema_version", bundle::kSchemaVersion},
          {"run_id", manifest.run_id},
          {"timestamp", manifest.timestamp},
          {"etns_version", manifest.etns_version},
          {"status", manifest.status},
          {"bundle_type", bundle::kBundleType},
          {"validity", manifest.validity},
          {"issues", issues_json(manifest.issues)},
          {"provenance", {{"config_sha256", manifest.config_sha256}, {"model_sha256", manifest.model_sha256}}},
          {"comparability",
           {{"model_sha256", manifest.model_sha256},
            {"target", manifest.target},
            {"board", manifest.board},
            {"provider", protocol::to_string(manifest.provider)},
            {"etns_version", manifest.etns_version},
            {"metric", manifest.metric},
            {"counters", manifest.counters},
            {"aggregation", manifest.aggregation}}},
          {"artifacts", artifacts}};
}

ManifestDoc manifest_from_json(const JsonField& document) {
  expect_schema(document, bundle::kManifestSchema);
  document["bundle_type"].expect(bundle::kBundleType);
  ManifestDoc manifest;
  manifest.run_id = document["run_id"].text();
  manifest.timestamp = document["timestamp"].text();
  manifest.etns_version = document["etns_version"].text();
  manifest.status = document["status"].text_in({bundle::kStatusComplete, bundle::kStatusFailed});
  manifest.validity = validity_from(document["validity"]);
  manifest.issues = issues_from(document["issues"]);
  manifest.config_sha256 = document["provenance"]["config_sha256"].text();
  const JsonField comparability = document["comparability"];
  manifest.model_sha256 = comparability["model_sha256"].text();
  manifest.target = comparability["target"].text();
  manifest.board = comparability["board"].text();
  manifest.provider = provider_from(comparability["provider"]);
  manifest.metric = comparability["metric"].text();
  manifest.counters = comparability["counters"].texts();
  manifest.aggregation = comparability["aggregation"].text();
  for (const JsonField& artifact : document["artifacts"].elements()) {
    manifest.artifacts.push_back({artifact["path"].text(), artifact["size_bytes"].count(), artifact["sha256"].text(),
                                  artifact["role"].text_in({bundle::kRoleCore, bundle::kRoleProjection, bundle::kRoleReport})});
  }
  return manifest;
}

}  // namespace etns::tools
