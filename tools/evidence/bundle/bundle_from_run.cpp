#include "tools/evidence/bundle/bundle_from_run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>

#include "protocol/bundle.h"
#include "tools/evidence/bundle/bundle.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/sha256.h"
#include "tools/evidence/elf/elf_image.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;

StatsDoc stats_of(const std::vector<uint64_t>& samples, const std::string& aggregation) {
  const Stats stats = summarize(samples);
  return {aggregate(samples, aggregation), stats.median, stats.mean, stats.min, stats.max, stats.mad, samples.size()};
}

CounterDoc counter_doc(const CounterSpec& counter) {
  return {counter.name, counter.group, counter.unit, counter.description};
}

// A row's share of the per-layer sum of the primary metric, one decimal.
std::optional<double> share_pct(double value, double total) {
  if (total <= 0) return std::nullopt;
  return std::round(value / total * 1000.0) / 10.0;
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

uint64_t model_size(const ProfileConfig& config) {
  std::error_code error;
  const uint64_t size = fs::file_size(config.model_path, error);
  return error ? 0 : size;
}

MemoryDoc memory_of(const ProfileConfig& config, const ProfileResult& result) {
  MemoryDoc memory;
  for (size_t bytes : result.planned_bytes) {
    memory.planned_arena += bytes;
    memory.planned_buffers.push_back(bytes);
  }
  memory.method_arena = config.method_arena_size;
  memory.method_arena_used = result.method_arena_bytes;
  memory.temporary_arena = config.temporary_arena_size;
  memory.scratch_used = result.scratch_bytes;
  memory.model_size = model_size(config);
  memory.input_size = result.input_bytes;
  memory.output_size = result.output_bytes;
  return memory;
}

// Each memory region the run needs, as an embedded user sizes a board:
// capacity (what the config reserves; none when it reserves nothing fixed),
// used (what this program took), free and overflow.
std::vector<MemoryRegionDoc> memory_plan_of(const ProfileConfig& config, const ProfileResult& result,
                                            const MemoryDoc& memory) {
  auto region = [](const char* name, const char* consumer, std::optional<int64_t> capacity, uint64_t used) {
    MemoryRegionDoc r{name, consumer, std::nullopt, used, std::nullopt, false};
    if (capacity) {
      const uint64_t cap = static_cast<uint64_t>(*capacity);
      r.capacity = cap;
      r.free = cap > used ? cap - used : 0;
      r.overflow = used > cap;
    }
    return r;
  };
  return {region("pte_program", "the program file: weights and constants", std::nullopt, memory.model_size),
          region("planned_arena", "activations (the program's memory plan)", config.arena_size, memory.planned_arena),
          region("method_arena", "the runtime's method: values, kernel states", config.method_arena_size,
                 result.method_arena_bytes),
          region("temporary_arena", "kernel scratch", config.temporary_arena_size, result.scratch_bytes),
          region("input_buffer", "input 0", config.input_size, result.input_bytes),
          region("output_buffer", "output 0", config.output_size, result.output_bytes)};
}

// The firmware image's sizes (Berkeley `size`: text, data, bss) on a device
// target; none on the host, which runs no image.
std::optional<BinaryDoc> binary_of(const ProfileResult& result) {
  const auto firmware = result.target_details.find("firmware");
  if (firmware == result.target_details.end() || !firmware->is_string()) return std::nullopt;
  try {
    const ElfImage::Sizes sizes = ElfImage::load(firmware->get<std::string>()).sizes();
    return BinaryDoc{fs::path(firmware->get<std::string>()).filename().string(), sizes.text, sizes.data, sizes.bss,
                     sizes.total()};
  } catch (const Failure&) {
    return std::nullopt;  // the run already failed on the image, and says so
  }
}

// The position of CPU_CYCLES among the run's counters: the run asked for
// the cycle estimate. None on the host, or when the config leaves it out.
std::optional<size_t> cycle_counter_of(const ProfileResult& result) {
  for (size_t c = 0; c < result.counters.size(); ++c) {
    if (result.counters[c].name == kCycleCounter) return c;
  }
  return std::nullopt;
}

ResultsDoc results_of(const ProfileConfig& config, const ProfileResult& result) {
  ResultsDoc results;
  results.target = result.target;
  results.metric = counter_doc(result.primary);
  for (const CounterSpec& counter : result.counters) results.counters.push_back(counter_doc(counter));
  results.aggregation = config.aggregation;
  results.iterations = config.iterations;
  results.warmup = config.warmup;
  if (config.per_layer) results.passes.push_back(protocol::bundle::kPassPerInstruction);
  results.passes.push_back(protocol::bundle::kPassClean);
  for (size_t i = 0; i < result.layers.size(); ++i) {
    const LayerResult& layer = result.layers[i];
    LayerDoc row;
    row.index = i;
    row.id = layer.id;
    row.operator_name = layer.operator_name;
    row.primary = stats_of(result.layer_primary[i], config.aggregation);
    row.value = row.primary.value;
    for (size_t c = 0; c < result.counters.size(); ++c) {
      row.counters[result.counters[c].name] = stats_of(layer.samples[c], config.aggregation);
    }
    if (cycle_counter_of(result)) row.cycles = row.counters[kCycleCounter].value;
    results.per_layer_sum += row.value;
    results.layers.push_back(row);
  }
  double cycles_sum = 0;
  for (const LayerDoc& row : results.layers) cycles_sum += row.cycles.value_or(0.0);
  for (LayerDoc& row : results.layers) {
    row.pct = share_pct(row.value, results.per_layer_sum);
    if (row.cycles) row.cycles_pct = share_pct(*row.cycles, cycles_sum);
  }
  if (!result.clean.empty()) {
    CleanPassDoc clean{stats_of(result.clean, config.aggregation), {}};
    for (size_t c = 0; c < result.counters.size(); ++c) {
      clean.counters[result.counters[c].name] = stats_of(result.clean_counters[c], config.aggregation);
    }
    results.clean_end_to_end = clean;
  }
  results.load = result.load;
  for (uint32_t crc : result.output_crc32) results.output_crc32.push_back(fmt::format("{:08x}", crc));
  return results;
}

SummaryDoc summary_of(const ProfileConfig& config, const ProfileResult& result, const ResultsDoc& results) {
  SummaryDoc summary;
  summary.target = result.target;
  summary.provider = config.backend;
  summary.metric = results.metric;
  summary.aggregation = config.aggregation;
  summary.layers = results.layers.size();
  summary.per_layer_sum = results.per_layer_sum;
  if (results.clean_end_to_end) summary.clean_end_to_end = results.clean_end_to_end->primary;
  summary.load = result.load;
  if (const std::optional<size_t> c = cycle_counter_of(result)) {
    // The board profiler's cycle keys, from the estimate: its total_cycles is
    // the rows' sum, its clean-window average the clean pass's execute().
    CyclesDoc cycles{kCycleCounter, result.counters[*c].unit, std::nullopt, std::nullopt};
    if (config.per_layer) {
      cycles.per_layer_sum = 0.0;
      for (const LayerDoc& layer : results.layers) *cycles.per_layer_sum += layer.cycles.value_or(0.0);
    }
    if (results.clean_end_to_end) cycles.clean_end_to_end = results.clean_end_to_end->counters.at(kCycleCounter);
    summary.cycles = cycles;
  }
  // The five largest rows by the primary metric.
  std::vector<const LayerDoc*> order;
  for (const LayerDoc& layer : results.layers) order.push_back(&layer);
  std::stable_sort(order.begin(), order.end(), [](const LayerDoc* a, const LayerDoc* b) { return a->value > b->value; });
  for (size_t k = 0; k < order.size() && k < 5; ++k) {
    summary.top_layers.push_back({order[k]->id, order[k]->operator_name, order[k]->value, order[k]->pct});
  }
  summary.memory = memory_of(config, result);
  summary.memory_plan = memory_plan_of(config, result, summary.memory);
  summary.binary = binary_of(result);
  summary.validity = validity_of(result.issues);
  for (const Issue& issue : result.issues) {
    summary.issues.push_back({issue.code, issue.severity, issue.message, issue.context});
  }
  if (!result.failure.empty()) summary.failure = result.failure;
  summary.duration_s = std::round(result.duration_s * 1000.0) / 1000.0;
  return summary;
}

MetadataDoc metadata_of(const ProfileConfig& config, const ProfileResult& result, const std::string& run_id,
                        const std::string& timestamp) {
  MetadataDoc metadata;
  metadata.etns_version = kEtnsVersion;
  metadata.run_id = run_id;
  metadata.timestamp = timestamp;
  metadata.config = config.resolved;
  metadata.target = result.target;
  metadata.target_details = result.target_details;
  metadata.backend = config.backend;
  metadata.portable_ops = config.portable_ops;
  metadata.portable_ops_source = config.portable_ops_source;
  metadata.model_name = fs::path(config.model_path).filename().string();
  metadata.model_path = config.model_path;
  if (fs::exists(config.model_path)) {
    metadata.model_size_bytes = fs::file_size(config.model_path);
    metadata.model_sha256 = sha256_hex_file(config.model_path);
  }
  for (const InputRecord& input : result.inputs) metadata.inputs.push_back({input.file, input.size_bytes, input.sha256});
  metadata.toolchain = config.toolchain;
  metadata.host_compiler = std::string("g++ ") + __VERSION__;
  metadata.cmake_version = ETNS_CMAKE_VERSION;
  if (result.target == "qemu-m55") metadata.target_compiler = first_output_line({"arm-none-eabi-gcc", "--version"});
  metadata.arena = ArenaDoc{config.arena_size, config.arena_location, config.weights_location, config.method_arena_size,
                            config.temporary_arena_size};
  if (const std::optional<size_t> c = cycle_counter_of(result)) {
    CycleEstimateDoc estimate{kCycleCounter, std::nullopt, result.counters[*c].description};
    if (!result.cycle_model.empty()) estimate.model = result.cycle_model;
    metadata.cycles = estimate;
  }
  return metadata;
}

}  // namespace

RunDocuments documents_of_run(const ProfileConfig& config, const ProfileResult& result, const std::string& run_id,
                              const std::string& timestamp) {
  RunDocuments documents;
  documents.results = results_of(config, result);
  documents.summary = summary_of(config, result, documents.results);
  documents.metadata = metadata_of(config, result, run_id, timestamp);
  return documents;
}

}  // namespace etns::tools
