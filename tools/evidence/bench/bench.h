#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// `etns bench`: what each kernel variant and each program costs on the
// Cortex-M55 under QEMU: the executed instructions the plugin counts (exact)
// and the core cycles it estimates from them with LLVM 19's Cortex-M55
// scheduling model (qemu_plugin/cycle_model.h; an estimate, not a
// measurement), and the regression gate against a committed baseline of both.
namespace etns::tools {

// The counts the bench reports, by the plugin's names: "total" executed
// instructions, "weighted" (each MVE gather or scatter once per lane), "mve"
// (Helium instructions) and "cycles" (estimated).
inline const std::vector<std::string> kBenchCounts = {"total", "weighted", "mve", "cycles"};

// The Cortex-M55's multiply limit: 8 int8 multiply-accumulates per cycle
// (a 16-lane VMLADAV over 2 beats of its 64-bit datapath).
inline constexpr uint64_t kM55Int8MacsPerCycle = 8;

// One variant of one kernel case: a single call, counted in its own region.
struct KernelBenchRow {
  std::string op;       // "quantized_relu"
  std::string shape;    // "tier1"
  std::string variant;  // "ref", "lut", "mve"
  std::map<std::string, uint64_t> counts;
  // What one call does, as the case declares it (kernels/testing/kernel_bench.h):
  // "macs" or "elements" and how many; "" and 0 when it declares none.
  std::string work_unit;
  uint64_t work = 0;
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
  std::string cycle_model;  // what estimated the cycles, as the plugin names it, and the CPU
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

// One line the kernel bench image prints, without the console prefix:
//   bench <region> <op> <shape> <variant> <unit> <n>
// with <unit> "macs", "elements" or "none" (then <n> is 0). Throws Failure
// naming `where` and the line when it is not one.
struct KernelBenchLine {
  uint32_t region = 0;
  KernelBenchRow row;  // without counts
};
KernelBenchLine parse_kernel_bench_line(const std::string& line, const std::string& where);

// Estimated cycles per unit of the row's declared work (per MAC, per
// element); nullopt when it declares none.
std::optional<double> cycles_per_work(const KernelBenchRow& row);
// MACs ÷ (kM55Int8MacsPerCycle × estimated cycles), as a fraction: how much
// of the M55's int8 multiply limit the call uses. nullopt unless the row
// declares MACs and has cycles.
std::optional<double> mac_pipe_use(const KernelBenchRow& row);

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
// What the terminal shows, a few lines: where the full tables went
// (`markdown_path`, `json_path`), then the program table, compacted (the
// notes when no program was measured). The gate's verdict is the caller's.
std::string bench_summary_text(const BenchResults& results, const std::string& markdown_path,
                               const std::string& json_path);

// The baseline: {"schema": "etns.bench_baseline", "schema_version": 2,
// "counts_are": ..., "counts": {key: {"total": n, "weighted": n, "cycles": n}}}.
// Instructions, weighted and estimated cycles are gated (the estimate is
// deterministic for a build); MVE share is information.
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
