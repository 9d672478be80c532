#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// `etns bench`: what each kernel variant and each program costs on the
// Cortex-M55, counted by the QEMU plugin (executed instructions, not cycles),
// and the regression gate against a committed baseline of those counts.
namespace etns::tools {

// The counts the bench reports, by the plugin's names.
inline const std::vector<std::string> kBenchCounts = {"total", "weighted", "mve"};

// One variant of one kernel case: a single call, counted in its own region.
struct KernelBenchRow {
  std::string op;       // "quantized_relu"
  std::string shape;    // "tier1"
  std::string variant;  // "ref", "lut", "mve"
  std::map<std::string, uint64_t> counts;
};

// One program's clean execute() with one kernel build: "reference" (every
// kernel's reference variant) or "fast" (the build's choice).
struct ProgramBenchRow {
  std::string program;  // file name, "tier1_ns.pte", or the caller's label (BenchOptions::program_labels)
  std::string provider;
  std::string kernels;  // "reference" or "fast"
  std::map<std::string, uint64_t> counts;
};

struct BenchResults {
  std::string qemu_version;
  std::vector<KernelBenchRow> kernels;
  std::vector<ProgramBenchRow> programs;
  std::vector<std::string> notes;  // what was skipped and why
};

struct BenchOptions {
  std::string qemu;             // default: $ETNS_QEMU or qemu-system-arm
  std::string kernel_image;     // default: <build>/firmware/etns_m55_kernel_bench.elf
  std::string firmware_dir;     // default: <build>/firmware
  std::string reference_dir;    // default: <build>/firmware-ref
  std::vector<std::string> programs;  // .pte files; arm or ns from the name (_arm/_ns)
  // Empty, or one name per program for its rows (ProgramBenchRow::program and
  // so its key), for callers whose programs share a file name; empty keeps the
  // file names.
  std::vector<std::string> program_labels;
  double timeout_seconds = 600;
};

// Runs the kernel bench image and every program on both firmware builds.
// `progress` gets one line per step. Throws Failure naming what is missing.
BenchResults run_bench(const BenchOptions& options,
                       const std::function<void(const std::string&)>& progress);

// "quantized_relu/tier1/mve", "program/tier1_ns.pte/fast": the keys of the
// JSON document and of the baseline.
std::string bench_key(const KernelBenchRow& row);
std::string bench_key(const ProgramBenchRow& row);

nlohmann::json bench_to_json(const BenchResults& results);
// The whole page: a title, what the counts are, then the tables.
std::string bench_to_markdown(const BenchResults& results);
// The kernel and program tables alone, each under a heading of `level`
// ("###"), for pages that embed them (etns reproduce).
std::string bench_tables_markdown(const BenchResults& results, const std::string& level);
// The same results compacted for a page: one kernel row per operator and
// shape (the reference, the build's choice, i.e. the last variant listed, its
// MVE share and the reference ÷ choice factor, the other variants inline),
// then the program table, each under a heading of `level`.
std::string bench_compact_tables_markdown(const BenchResults& results, const std::string& level);
// What the counts are, one paragraph.
std::string bench_counts_explained(const BenchResults& results);

// The baseline: {"schema": "etns.bench_baseline", "schema_version": 1,
// "counts": {key: {"total": n, "weighted": n}}}. Only total and weighted
// are gated; MVE share is information.
nlohmann::json baseline_from(const BenchResults& results);

// Throws Failure (exit code 2) naming the file, and the entry when one is
// wrong, unless `baseline` has the baseline schema with a count for every
// gated name of every entry.
void validate_baseline(const nlohmann::json& baseline, const std::string& baseline_path);

// Every gated count above its baseline value, every baseline key not
// measured, one line each; empty when the run passes. `improvements` gets a
// line for each count below the baseline (lower the baseline to keep them).
std::vector<std::string> check_baseline(const BenchResults& results, const nlohmann::json& baseline,
                                        const std::string& baseline_path,
                                        std::vector<std::string>* improvements);

}  // namespace etns::tools
