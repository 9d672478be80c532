#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kernels/registry.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/runtime_errors.h"
#include "tools/common/sha256.h"
#include "tools/common/text.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/runner/batch.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/evidence/runner/qemu_session.h"

namespace etns::tools {
namespace {

struct RunOptions {
  std::string program;
  protocol::Provider provider = protocol::Provider::Arm;
  std::vector<std::string> inputs;   // one file per method input, in the method's order
  std::vector<std::string> outputs;  // one file per method output, in the method's order
  std::string dump_dir;
  std::string target = "host";
  std::string counts;
  std::string blocks;  // qemu-m55: where the estimated cycles went, per function and block (Markdown)
  std::string board;  // qemu-m55: the board profile of the cycle estimate (default an547)
  QemuTools qemu;
  double timeout_seconds = 900;
  bool self_test_fault = false;
  std::string summary = "auto";  // auto (when stdout is a terminal), always, never
  // Many inputs (docs/running.md): --inputs DIR_OR_LIST instead of --input.
  std::string batch_inputs;
  std::string batch_outputs;
  int threads = 1;
  std::string labels;
  std::string predictions;
};

// What the summary line reports besides the files.
struct RunFacts {
  std::vector<size_t> output_bytes;  // per --output
  size_t dumps = 0;
  std::string cost;  // "0.41 ms on the host" or "1,234,567 instructions for one execute() on qemu-m55 (...)"
};

// Scripts read stdout, so by default the summary appears only on a terminal.
bool summary_wanted(const RunOptions& options) {
  return options.summary == "always" || (options.summary == "auto" && isatty(STDOUT_FILENO) == 1);
}

// One line on stdout after a successful run: what was written, how big, what it cost.
void print_summary(const RunOptions& options, const RunFacts& facts) {
  if (!summary_wanted(options)) return;
  std::string line = "etns run: wrote ";
  for (size_t i = 0; i < options.outputs.size(); ++i) {
    line += (i == 0 ? "" : ", ") + options.outputs[i] + " (" + grouped(facts.output_bytes.at(i)) + " B)";
  }
  if (!options.dump_dir.empty()) {
    line += " and " + std::to_string(facts.dumps) + " instruction outputs in " + options.dump_dir;
  }
  if (!options.counts.empty()) line += " and the counts in " + options.counts;
  if (!options.blocks.empty()) line += " and the cycle profile in " + options.blocks;
  line += std::string("; provider ") + protocol::to_string(options.provider);
  if (!facts.cost.empty()) line += ", " + facts.cost;
  std::printf("%s\n", line.c_str());
}

// "2 inputs", "1 output".
std::string count_of(size_t count, const char* what) {
  return grouped(count) + " " + what + (count == 1 ? "" : "s");
}

// One file per method input (output), in order. The line is the firmware
// runner's own for inputs (firmware/runner.cpp), so both targets refuse alike.
void check_count(const RunOptions& options, size_t method_count, size_t given, const char* what) {
  if (given == method_count) return;
  throw Failure(options.program + ": the method has " + count_of(method_count, what) + ", " + std::to_string(given) +
                " given (one per method " + what + ", in order)");
}

// Writes each output to its --output file, after every count has been checked.
void write_outputs(const RunOptions& options, const std::vector<std::vector<uint8_t>>& outputs, RunFacts& facts) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    write_file_atomic(options.outputs[i], outputs[i].data(), outputs[i].size());
    facts.output_bytes.push_back(outputs[i].size());
  }
}

void write_dumps(const std::string& dump_dir, const std::vector<std::string>& ids,
                 const std::vector<std::vector<uint8_t>>& outputs) {
  std::error_code error;
  std::filesystem::create_directories(dump_dir, error);
  if (error) throw Failure("cannot create --dump-dir " + dump_dir + ": " + error.message());
  for (size_t i = 0; i < outputs.size(); ++i) {
    write_file_atomic(dump_dir + "/" + ids[i] + ".bin", outputs[i].data(), outputs[i].size());
  }
}

nlohmann::json counts_json(const ClassCounts& counts, const std::vector<std::string>& classes) {
  nlohmann::json object = nlohmann::json::object();
  for (size_t i = 0; i < classes.size(); ++i) object[classes[i]] = counts.values.at(i);
  return object;
}

// The per-instruction counts of one QEMU run (schema etns.qemu_run_counts v2:
// v2 added the estimated "cycles" beside the instruction classes and
// "cycles_estimated_by").
std::string render_counts(const RunOptions& options, const std::string& sha256, const QemuRun& run) {
  nlohmann::json doc;
  doc["schema"] = "etns.qemu_run_counts";
  doc["schema_version"] = 2;
  doc["what"] =
      "instructions executed by the Cortex-M55 guest under QEMU, counted by the etns plugin (exact), and "
      "\"cycles\": the Cortex-M55 core cycles estimated from them (an estimate, not a measurement)";
  doc["cycles_estimated_by"] = run.cycle_model;
  doc["program"] = {{"path", options.program}, {"sha256", sha256}};
  doc["provider"] = protocol::to_string(run.provider);
  doc["board"] = run.board;
  doc["firmware"] = options.qemu.firmware;
  doc["classes"] = run.classes;
  doc["method_arena_bytes"] = run.method_arena_bytes;
  doc["scratch_bytes"] = run.scratch_bytes;
  doc["planned_bytes"] = run.planned_bytes;
  doc["load"] = counts_json(run.load, run.classes);
  nlohmann::json instructions = nlohmann::json::array();
  for (size_t i = 0; i < run.instructions.size(); ++i) {
    const QemuInstruction& instruction = run.instructions[i];
    nlohmann::json row = {{"index", i}, {"id", instruction.id}, {"operator", instruction.operator_name}};
    row["counts"] = instruction.visits.empty() ? nlohmann::json() : counts_json(instruction.visits.front(), run.classes);
    instructions.push_back(row);
  }
  doc["instructions"] = instructions;
  doc["clean_execute"] = run.clean_visits.empty() ? nlohmann::json() : counts_json(run.clean_visits.front(), run.classes);
  doc["whole_run"] = counts_json(run.whole_run, run.classes);
  return doc.dump(2) + "\n";
}

// A function of the firmware image, its Thumb bit cleared.
struct FunctionSpan {
  uint64_t start = 0;
  uint64_t end = 0;  // excluded
  std::string name;  // demangled
};

// The image's defined functions by start address; an alias of a start
// already seen is left out.
std::vector<FunctionSpan> function_spans(const ElfImage& image) {
  std::vector<FunctionSpan> spans;
  for (const ElfSymbol& symbol : image.symbols()) {
    if (symbol.kind != ElfSymbol::Kind::Function || !symbol.defined || symbol.size == 0) continue;
    const uint64_t start = symbol.address & ~uint64_t{1};
    spans.push_back({start, start + symbol.size, without_anonymous_namespaces(demangle(symbol.name))});
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const FunctionSpan& a, const FunctionSpan& b) { return a.start < b.start; });
  spans.erase(std::unique(spans.begin(), spans.end(),
                          [](const FunctionSpan& a, const FunctionSpan& b) { return a.start == b.start; }),
              spans.end());
  return spans;
}

// The function holding `address`, or null.
const FunctionSpan* function_at(const std::vector<FunctionSpan>& spans, uint64_t address) {
  auto after = std::upper_bound(spans.begin(), spans.end(), address,
                                [](uint64_t value, const FunctionSpan& span) { return value < span.start; });
  if (after == spans.begin()) return nullptr;
  const FunctionSpan& span = *std::prev(after);
  return address < span.end ? &span : nullptr;
}

// A Markdown table cell: C++ names may hold '|' (operator|).
std::string table_cell(const std::string& text) {
  std::string cell;
  for (const char c : text) cell += c == '|' ? std::string("\\|") : std::string(1, c);
  return cell;
}

std::string share_text(uint64_t part, uint64_t whole) {
  return fmt::format("{:.1f} %", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

constexpr size_t kHottestBlocks = 40;

// --blocks: the whole run's estimated cycles per function and per hot block.
// Each block counts toward the function its first instruction is in.
std::string render_block_profile(const RunOptions& options, const QemuRun& run) {
  // One row per block: a block QEMU translated again appears once per translation.
  std::map<std::pair<uint64_t, uint64_t>, ExecutedBlock> merged;
  for (const ExecutedBlock& block : run.blocks) {
    ExecutedBlock& row = merged[{block.address, block.instructions}];
    row.address = block.address;
    row.instructions = block.instructions;
    row.executions += block.executions;
    row.cycles += block.cycles;
  }
  std::vector<ExecutedBlock> blocks;
  for (const auto& [key, block] : merged) blocks.push_back(block);

  const std::vector<FunctionSpan> spans = function_spans(ElfImage::load(options.qemu.firmware));
  struct FunctionCost {
    std::string name;
    uint64_t cycles = 0;
    uint64_t instructions = 0;
  };
  const std::string kNoSymbol = "(no function symbol)";
  std::map<std::string, FunctionCost> by_name;
  uint64_t total_cycles = 0;
  uint64_t total_instructions = 0;
  for (const ExecutedBlock& block : blocks) {
    const FunctionSpan* span = function_at(spans, block.address);
    FunctionCost& cost = by_name[span != nullptr ? span->name : kNoSymbol];
    cost.name = span != nullptr ? span->name : kNoSymbol;
    cost.cycles += block.cycles;
    cost.instructions += block.instructions * block.executions;
    total_cycles += block.cycles;
    total_instructions += block.instructions * block.executions;
  }
  std::vector<FunctionCost> functions;
  for (const auto& [name, cost] : by_name) functions.push_back(cost);
  std::stable_sort(functions.begin(), functions.end(), [](const FunctionCost& a, const FunctionCost& b) {
    return a.cycles != b.cycles ? a.cycles > b.cycles : a.instructions > b.instructions;
  });

  std::string text = "# Where the estimated cycles go: " + printable(options.program) + " on qemu-m55\n\n";
  text += std::string("Provider ") + protocol::to_string(run.provider) + ", firmware " + options.qemu.firmware + ".\n\n";
  text += "Cycles are **estimated**, never measured: LLVM 19 MCA's Cortex-M55 scheduling model times each executed "
          "block in the context of the block before it (" + run.cycle_model + "; docs/cycles.md). Instructions and "
          "executions are counted exactly by the etns QEMU plugin.\n\n";
  text += "The profile covers the **whole QEMU run** (boot, program load and checks, any warm-up and every measured "
          "pass), not one execute(): " + grouped(total_instructions) + " instructions, " + grouped(total_cycles) +
          " estimated cycles, " + grouped(blocks.size()) + " blocks.";
  if (!run.clean_visits.empty()) {
    text += " One execute() alone: " + grouped(run.clean_visits.front().get(run.classes, "total")) +
            " instructions, " + grouped(run.clean_visits.front().get(run.classes, "cycles")) + " estimated cycles.";
  }
  text += "\nA block counts toward the function its first instruction is in.\n\n";

  text += "## Functions by estimated cycles\n\n";
  text += "| function | est. cycles | share | instructions | cycles/instruction |\n";
  text += "|---|---:|---:|---:|---:|\n";
  for (const FunctionCost& function : functions) {
    const double per_instruction =
        function.instructions == 0 ? 0.0
                                   : static_cast<double>(function.cycles) / static_cast<double>(function.instructions);
    text += "| `" + table_cell(function.name) + "` | " + grouped(function.cycles) + " | " +
            share_text(function.cycles, total_cycles) + " | " + grouped(function.instructions) + " | " +
            fmt::format("{:.2f}", per_instruction) + " |\n";
  }
  text += "| **all** | " + grouped(total_cycles) + " | 100.0 % | " + grouped(total_instructions) + " | " +
          fmt::format("{:.2f}", total_instructions == 0 ? 0.0
                                                        : static_cast<double>(total_cycles) /
                                                              static_cast<double>(total_instructions)) +
          " |\n\n";

  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const ExecutedBlock& a, const ExecutedBlock& b) { return a.cycles > b.cycles; });
  const size_t hottest = std::min(blocks.size(), kHottestBlocks);
  text += "## The " + std::to_string(hottest) + " hottest blocks\n\n";
  text += "| address | function+offset | instructions | executions | est. cycles | share |\n";
  text += "|---|---|---:|---:|---:|---:|\n";
  for (size_t i = 0; i < hottest; ++i) {
    const ExecutedBlock& block = blocks[i];
    const FunctionSpan* span = function_at(spans, block.address);
    const std::string where =
        span != nullptr ? fmt::format("{}+0x{:x}", span->name, block.address - span->start) : kNoSymbol;
    text += "| " + hex_address(block.address) + " | `" + table_cell(where) + "` | " + grouped(block.instructions) +
            " | " + grouped(block.executions) + " | " + grouped(block.cycles) + " | " +
            share_text(block.cycles, total_cycles) + " |\n";
  }
  return text;
}

// --blocks FILE is written after the run: a place it cannot go is refused
// before QEMU starts.
void require_writable_report(const std::string& path) {
  const std::filesystem::path file(path);
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) {
    throw Failure("run: --blocks " + path + ": a folder, expected a file name", 2);
  }
  if (!std::filesystem::is_directory(folder, error)) {
    throw Failure("run: --blocks " + path + ": cannot write: no folder " + folder.string(), 2);
  }
  if (access(folder.c_str(), W_OK) != 0) {
    throw Failure("run: --blocks " + path + ": cannot write: " + std::strerror(errno), 2);
  }
}

int run_on_qemu_target(RunOptions options) {
  QemuJob job;
  job.program = read_file(options.program);
  refuse_tflite_model(job.program.data(), job.program.size(), options.program);
  options.qemu = resolve_qemu_tools(options.provider, options.qemu);
  // The firmware checks the count against the method's, after its load.
  for (const std::string& input : options.inputs) job.inputs.push_back(read_file(input));
  job.dump_instructions = !options.dump_dir.empty();
  // The per-instruction pass only when its counts are wanted; the clean pass
  // always, since one execute() is the figure the summary leads with.
  job.per_instruction_pass = !options.counts.empty();
  job.clean_pass = true;
  job.timeout_seconds = options.timeout_seconds;
  job.self_test_fault = options.self_test_fault;
  job.block_profile = !options.blocks.empty();
  const BoardProfile board = load_board_profile(options.board.empty() ? "an547" : options.board);
  job.board = &board;
  const QemuRun run = run_on_qemu(options.qemu, job, options.program);
  check_count(options, run.outputs.size(), options.outputs.size(), "output");
  if (!options.dump_dir.empty()) {
    std::vector<std::string> ids;
    for (const QemuInstruction& instruction : run.instructions) ids.push_back(instruction.id);
    write_dumps(options.dump_dir, ids, run.dumps);
  }
  if (!options.counts.empty()) {
    write_file_atomic(options.counts, render_counts(options, sha256_hex(job.program.data(), job.program.size()), run));
  }
  if (!options.blocks.empty()) write_file_atomic(options.blocks, render_block_profile(options, run));
  RunFacts facts;
  write_outputs(options, run.outputs, facts);
  facts.dumps = run.dumps.size();
  // One inference first; the whole QEMU run (boot, load, checks, every pass)
  // is said to be what it is.
  const auto total = std::find(run.classes.begin(), run.classes.end(), "total");
  if (total != run.classes.end() && !run.clean_visits.empty()) {
    const ClassCounts& one = run.clean_visits.front();
    facts.cost = grouped(one.get(run.classes, "total")) + " instructions and " + grouped(one.get(run.classes, "cycles")) +
                 " estimated cycles (" + run.cycle_model + ") for one execute() on qemu-m55 (weighted " +
                 grouped(one.get(run.classes, "weighted")) + " instructions; the whole QEMU run, with boot, load, " +
                 "checks and every pass: " + grouped(run.whole_run.get(run.classes, "total")) + ")";
  }
  print_summary(options, facts);
  return 0;
}

// Copies each instruction's output right after it runs: later instructions
// may reuse its planned bytes.
struct DumpCapture {
  const runtime::Method* method = nullptr;
  std::vector<std::vector<uint8_t>> outputs;

  static void after(void* user, size_t index) {
    auto* self = static_cast<DumpCapture*>(user);
    const runtime::Tensor* out = self->method->instruction_output(index);
    self->outputs[index] = out != nullptr ? tensor_bytes(*out) : std::vector<uint8_t>();
  }
};

// "2.3 s", "0.41 s", "12 s".
std::string seconds_text(double ms) {
  const double seconds = ms / 1000;
  return fmt::format(seconds >= 10 ? "{:.0f} s" : seconds >= 1 ? "{:.1f} s" : "{:.2f} s", seconds);
}

// "3.1 ms", "0.412 ms".
std::string ms_text(double ms) { return fmt::format(ms >= 1 ? "{:.1f} ms" : "{:.3f} ms", ms); }

// The options of many inputs and of one input do not mix; each line names
// the option and what to use instead.
void check_batch_options(const RunOptions& options) {
  if (options.batch_inputs.empty()) {
    const std::pair<bool, const char*> batch_only[] = {{!options.batch_outputs.empty(), "--outputs"},
                                                       {options.threads != 1, "--threads"},
                                                       {!options.labels.empty(), "--labels"},
                                                       {!options.predictions.empty(), "--predictions"}};
    for (const auto& [given, name] : batch_only) {
      if (given) throw Failure(std::string("run: ") + name + " needs --inputs (many inputs)", 2);
    }
    if (options.inputs.empty()) throw Failure("run: --input is required (or --inputs for many inputs)", 2);
    if (options.outputs.empty()) throw Failure("run: --output is required (once per method output)", 2);
    return;
  }
  if (!options.inputs.empty() || !options.outputs.empty()) {
    throw Failure(std::string("run: --inputs cannot be combined with ") +
                      (options.inputs.empty() ? "--output" : "--input") + " (many inputs write to --outputs DIR)",
                  2);
  }
  if (options.target != "host") {
    throw Failure("run: --inputs runs on the host only; --target " + options.target + " takes one --input", 2);
  }
  if (!options.dump_dir.empty()) throw Failure("run: --dump-dir takes one input, not --inputs", 2);
  if (!options.counts.empty()) throw Failure("--counts needs --target qemu-m55", 2);
  if (!options.blocks.empty()) throw Failure("--blocks needs --target qemu-m55", 2);
  if (options.threads < 1) {
    throw Failure("run: --threads " + std::to_string(options.threads) + ": expected 1 or more", 2);
  }
  if (options.batch_outputs.empty() && options.labels.empty()) {
    throw Failure("run: --inputs needs --outputs DIR (or --labels FILE for the accuracy alone)", 2);
  }
  if (!options.predictions.empty() && options.labels.empty()) throw Failure("run: --predictions needs --labels", 2);
}

// Many inputs, one run each: outputs in --outputs, top-1 with --labels.
int run_batch_command(const RunOptions& options) {
  BatchJob job;
  job.program = options.program;
  job.registry = &kernels::registry_of(options.provider);
  job.inputs_from = options.batch_inputs;  // listed while the threads load the program
  job.labels_from = options.labels;
  job.output_dir = options.batch_outputs;
  job.threads = static_cast<size_t>(options.threads);
  ProgressLine progress;
  job.progress = [&progress, &job](size_t done, double elapsed_ms) {
    progress.show(fmt::format("[{}/{}]", done, job.inputs.size()) +
                  (done == 0 ? std::string() : " " + ms_text(elapsed_ms / static_cast<double>(done)) + " per input"));
  };
  const BatchResult result = run_batch(job);
  progress.clear();
  const size_t total = job.inputs.size();

  if (!options.labels.empty()) {
    size_t right = 0;
    for (size_t i = 0; i < total; ++i) right += result.predicted[i] == job.labels[i] ? 1 : 0;
    if (!options.predictions.empty()) {
      write_file_atomic(options.predictions, render_predictions(job.inputs, job.labels, result.predicted));
    }
    std::printf("top-1: %.1f %% (%s of %s) over %s inputs\n",
                100.0 * static_cast<double>(right) / static_cast<double>(total), grouped(right).c_str(),
                grouped(total).c_str(), grouped(total).c_str());
  }
  if (summary_wanted(options)) {
    const std::string where = options.batch_outputs.empty() ? std::string("no output files") : options.batch_outputs;
    std::printf("etns run: %s -> %s (%s): %s, %s per input\n", count_of(total, "input").c_str(), where.c_str(),
                count_of(result.threads, "thread").c_str(), seconds_text(result.wall_ms).c_str(),
                ms_text(result.wall_ms / static_cast<double>(total)).c_str());
  }
  return 0;
}

// The files a run reads, the program first, so that a missing program is
// named whatever else is missing (exit 2); after the checks of the options.
void require_files(const RunOptions& options) {
  require_readable(options.program);
  require_readable(options.inputs);
  if (!options.labels.empty()) require_readable(options.labels);
  if (options.target == "qemu-m55" && !options.qemu.firmware.empty()) require_readable(options.qemu.firmware);
}

int run(const RunOptions& options) {
  check_batch_options(options);
  if (!options.batch_inputs.empty()) {
    require_files(options);
    return run_batch_command(options);
  }
  if (options.target == "qemu-m55") {
    require_files(options);
    if (!options.blocks.empty()) require_writable_report(options.blocks);
    return run_on_qemu_target(options);
  }
  if (!options.counts.empty()) throw Failure("--counts needs --target qemu-m55", 2);
  if (!options.blocks.empty()) throw Failure("--blocks needs --target qemu-m55", 2);
  if (!options.board.empty()) throw Failure("--board needs --target qemu-m55 (it shapes the cycle estimate)", 2);
  require_files(options);
  const runtime::KernelRegistry* registry = &kernels::registry_of(options.provider);
  std::vector<std::vector<uint8_t>> inputs;
  for (const std::string& input : options.inputs) inputs.push_back(read_file(input));
  HostSession session(options.program, registry);
  check_count(options, session.method().input_count(), inputs.size(), "input");
  check_count(options, session.method().output_count(), options.outputs.size(), "output");
  for (size_t i = 0; i < inputs.size(); ++i) {
    try {
      session.set_input(i, inputs[i]);
    } catch (const Failure& failure) {
      throw Failure(std::string(failure.what()) + " (--input " + options.inputs[i] + ")");
    }
  }

  DumpCapture capture;
  capture.method = &session.method();
  capture.outputs.resize(session.method().instruction_count());
  runtime::ExecuteHooks hooks;
  hooks.user = &capture;
  hooks.after_instruction = &DumpCapture::after;
  const auto started = std::chrono::steady_clock::now();
  session.execute(options.dump_dir.empty() ? nullptr : &hooks);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;

  if (!options.dump_dir.empty()) {
    std::vector<std::string> ids;
    for (size_t i = 0; i < session.method().instruction_count(); ++i) ids.push_back(session.method().instruction(i).id);
    write_dumps(options.dump_dir, ids, capture.outputs);
  }
  std::vector<std::vector<uint8_t>> outputs;
  for (size_t i = 0; i < session.method().output_count(); ++i) outputs.push_back(session.output_bytes(i));
  RunFacts facts;
  write_outputs(options, outputs, facts);
  facts.dumps = options.dump_dir.empty() ? 0 : capture.outputs.size();
  facts.cost = fmt::format("{:.3f} ms on the host{}", elapsed.count(),
                           options.dump_dir.empty() ? "" : " (with the dump copies)");
  print_summary(options, facts);
  return 0;
}

}  // namespace

CommandAction add_run_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("run", "run a .pte with the arm or ns kernels, on the host or on QEMU");
  command->footer(
      "Input and output are raw little-endian bytes in the tensor's memory layout.\n"
      "A method with several inputs takes --input once per input, in the method's\n"
      "order, and --output once per output; the counts must match the method's.\n"
      "--target qemu-m55 runs the Cortex-M55 firmware image of the provider under\n"
      "qemu-system-arm -M mps3-an547; --counts then writes the instructions each\n"
      "program instruction executed (counted by the etns QEMU plugin) and the\n"
      "Cortex-M55 cycles estimated from them (LLVM 19's scheduling model; an\n"
      "estimate, not a measurement: docs/profiling.md). --blocks FILE writes where\n"
      "the whole QEMU run's estimated cycles went (Markdown): per function of the\n"
      "firmware, then its 40 hottest blocks (docs/cycles.md).\n"
      "On success, one summary line goes to stdout when it is a terminal (the\n"
      "output file and its size, the host time of execute() or, on QEMU, the\n"
      "instructions of one execute() and then the whole QEMU run's); nothing when\n"
      "stdout is a file or a pipe.\n"
      "--summary always|never overrides that.\n"
      "Many inputs (host only; a method of one input): --inputs takes a folder\n"
      "(every regular file, sorted by name) or a list file (one path a line,\n"
      "relative to the list's folder; blank lines and '#' lines skipped) and\n"
      "writes one output per input to --outputs DIR: <stem>.out.bin, or\n"
      "<stem>.out<k>.bin for a method with several outputs. Every file's size is\n"
      "checked before anything runs. --threads N runs N methods in parallel, each\n"
      "with its own memory; the output bytes are the same for every N.\n"
      "--labels FILE ('<input file name> <class index>' per line, every input\n"
      "once) prints the top-1 accuracy of output 0 (int8 or float32; a tie goes\n"
      "to the lowest index); --predictions FILE writes input,label,predicted.\n"
      "A progress line goes to stderr when it is a terminal. See docs/running.md.\n"
      "Examples:\n"
      "  etns run tier1_arm.pte --provider arm --input in.bin --output out.bin\n"
      "  etns run tier1_ns.pte --provider ns --input in.bin --output out.bin --dump-dir dump/\n"
      "  etns run add.pte --provider arm --input a.bin --input b.bin --output sum.bin\n"
      "  etns run tier1_ns.pte --target qemu-m55 --provider ns --input in.bin --output out.bin --counts counts.json\n"
      "  etns run kws.pte --target qemu-m55 --provider arm --input in.bin --output out.bin --blocks cycles.md\n"
      "  etns run dscnn_arm.pte --provider arm --inputs clips/ --outputs scores/ --threads 2\n"
      "  etns run dscnn_arm.pte --provider arm --inputs clips.txt --labels labels.txt --predictions pred.csv");
  auto options = std::make_shared<RunOptions>();
  command->add_option("program", options->program, "the .pte file")->required();
  add_provider_option(command, options->provider, "kernel provider: arm or ns")->required();
  // One file per occurrence, so that a file name is never taken for the program.
  command->add_option("--input", options->inputs, "input tensor bytes; once per method input, in order")
      ->allow_extra_args(false);
  command->add_option("--output", options->outputs, "where to write the output tensor bytes; once per method output")
      ->allow_extra_args(false);
  command->add_option("--inputs", options->batch_inputs,
                      "many inputs: a folder (each file) or a list file (one path a line); not with --input");
  command->add_option("--outputs", options->batch_outputs, "with --inputs: write DIR/<input stem>.out.bin per input");
  command->add_option("--threads", options->threads, "with --inputs: methods run in parallel, one per thread (1)");
  command->add_option("--labels", options->labels,
                      "with --inputs: '<input file name> <class index>' per line; prints the top-1 accuracy");
  command->add_option("--predictions", options->predictions, "with --labels: write input,label,predicted (CSV)");
  command->add_option("--dump-dir", options->dump_dir, "write each instruction's output as DIR/c0i<k>.bin");
  command->add_option("--target", options->target, "host (default) or qemu-m55")
      ->check(one_of({"host", "qemu-m55"}));
  command->add_option("--summary", options->summary,
                      "print the one-line summary: auto (stdout is a terminal, default), always, never")
      ->check(one_of({"auto", "always", "never"}));
  command->add_option("--counts", options->counts,
                      "qemu-m55: write each instruction's executed instructions and estimated cycles (JSON)");
  command->add_option("--blocks", options->blocks,
                      "qemu-m55: write the whole run's estimated cycles per function and hottest block (Markdown)");
  command->add_option("--firmware", options->qemu.firmware, "qemu-m55: firmware image (default: the build's)");
  command->add_option("--qemu", options->qemu.qemu, "qemu-m55: qemu-system-arm to use (default: $ETNS_QEMU or PATH)");
  command->add_option("--board", options->board,
                      "qemu-m55: board profile of the cycle estimate: an547 (default, no wait states), apollo510, "
                      "or a YAML file (configs/boards/)");
  command->add_option("--timeout", options->timeout_seconds, "qemu-m55: seconds before QEMU is stopped")
      ->check(CLI::PositiveNumber);
  command->add_flag("--self-test-fault", options->self_test_fault,
                    "qemu-m55: make the firmware fault on purpose (checks fault reporting)")
      ->group("");
  return [options]() { return run(*options); };
}

}  // namespace etns::tools
