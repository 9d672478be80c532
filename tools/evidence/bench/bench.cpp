#include "tools/evidence/bench/bench.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "protocol/job.h"
#include "runtime/exec/method.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/program_names.h"
#include "tools/common/text.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/evidence/runner/qemu_session.h"

namespace etns::tools {
namespace {

// The counts the baseline gates; MVE share is information only.
constexpr const char* kGatedCounts[] = {"total", "weighted", "cycles"};
constexpr int kBaselineVersion = 2;
constexpr const char* kBaselineCountsAre =
    "executed instructions (exact) and estimated cycles (LLVM 19 Cortex-M55 model) on QEMU mps3-an547";

// How a count is named in a line: "total" is the executed instructions,
// "cycles" the estimate.
std::string count_label(const std::string& name) {
  if (name == "total") return "instructions";
  if (name == "cycles") return "est. cycles";
  return name;
}

// A decimal count of at most 19 digits, or nullopt.
std::optional<uint64_t> parse_count(const std::string& text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return std::nullopt;
  }
  return std::stoull(text);
}

std::map<std::string, uint64_t> pick_counts(const nlohmann::json& visit, const std::string& where) {
  std::map<std::string, uint64_t> counts;
  for (const std::string& name : kBenchCounts) {
    if (!visit.contains(name) || !visit.at(name).is_number_unsigned()) {
      throw Failure(where + ": the counting plugin reported no '" + name +
                    "' count (plugin from another etns version?)");
    }
    counts[name] = visit.at(name).get<uint64_t>();
  }
  return counts;
}

// "LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55, taken branches 3
// cycles, no memory wait states": the plugin's "cycle_model" in words.
std::string describe_cycle_model(const nlohmann::json& model) {
  std::string text = model.value("name", "") + ", " + model.value("cpu", "");
  if (model.contains("taken_branch_cycles")) {
    text += ", taken branches " + model.at("taken_branch_cycles").dump() + " cycles";
  }
  std::string waits;
  if (model.contains("memory") && model.at("memory").is_array()) {
    for (const nlohmann::json& region : model.at("memory")) {
      waits += (waits.empty() ? "" : ", ") + region.value("name", "") + " " +
               std::to_string(region.value("wait_states", 0)) + " wait states";
    }
  }
  return text + (waits.empty() ? ", no memory wait states" : ", " + waits);
}

// Runs the kernel bench image under QEMU with the counting plugin: each
// "bench <region> <op> <shape> <variant> <unit> <n>" line names one counted
// region and the work of its call.
std::vector<KernelBenchRow> run_kernel_image(const QemuTools& tools, double timeout_seconds,
                                             std::string& cycle_model) {
  const std::string label = tools.firmware;
  const ElfImage image = ElfImage::load(tools.firmware);
  const ElfSymbol* table = image.find("etns_marker_table");
  if (image.machine() != "ARM" || table == nullptr) {
    throw Failure(label + ": not an etns Cortex-M55 image (no etns_marker_table)");
  }
  TemporaryDirectory scratch("etns-bench");
  const std::string counts_path = scratch.path() + "/counts.json";
  const std::string console_path = scratch.path() + "/console.txt";
  QemuCommand command;
  command.console_path = console_path;
  command.counts_path = counts_path;
  command.marker_table = table->address & ~uint64_t{1};  // a data symbol; clear a stray Thumb bit
  command.marker_count = table->size / protocol::kMarkerStride;
  const std::vector<std::string> argv = qemu_argv(tools, command);
  const ProcessResult process = run_process(argv, scratch.path(), timeout_seconds);
  if (process.timed_out) throw Failure(label + ": QEMU did not finish within the timeout");
  std::string console;
  if (std::filesystem::exists(console_path)) {
    const std::vector<uint8_t> bytes = read_file(console_path);
    console.assign(bytes.begin(), bytes.end());
  }
  const std::string prefix = protocol::kConsolePrefix;
  std::map<uint32_t, KernelBenchRow> by_region;
  std::vector<uint32_t> order;
  bool done = false;
  std::istringstream lines(console);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const std::vector<std::string> words = words_of(line.substr(prefix.size()));
    if (words.size() == 1 && words[0] == protocol::console::kDone) done = true;
    if (words.size() >= 2 && words[0] == "bench" && words[1] == "error") {
      throw Failure(label + ": " + line.substr(prefix.size()));
    }
    if (!words.empty() && words[0] == "bench") {
      KernelBenchLine parsed = parse_kernel_bench_line(line.substr(prefix.size()), label);
      by_region[parsed.region] = std::move(parsed.row);
      order.push_back(parsed.region);
    }
  }
  if (process.exit_status != 0 || !done) {
    throw Failure(label + ": the bench image stopped (QEMU exit status " +
                  std::to_string(process.exit_status) + ") before it finished");
  }
  const nlohmann::json counts = read_json_file(counts_path);
  if (counts.value("schema", "") != "etns.qemu_counts" || counts.value("schema_version", 0) != 3 ||
      !counts.contains("cycle_model")) {
    throw Failure(label + ": the counting plugin wrote an unknown schema, not etns.qemu_counts version 3 with "
                          "cycle_model (plugin from another etns version?)");
  }
  cycle_model = describe_cycle_model(counts.at("cycle_model"));
  for (const nlohmann::json& region : counts.at("regions")) {
    const uint32_t id = region.at("id").get<uint32_t>();
    auto row = by_region.find(id);
    if (row == by_region.end() || region.at("visits").empty()) continue;
    row->second.counts = pick_counts(region.at("visits").at(0), label);
  }
  std::vector<KernelBenchRow> rows;
  for (uint32_t region : order) {
    KernelBenchRow& row = by_region.at(region);
    if (row.counts.empty()) throw Failure(label + ": no counts for region " + std::to_string(region));
    rows.push_back(row);
  }
  return rows;
}

// "tier1_ns.pte" -> ns: the provider a program needs, from its name.
protocol::Provider provider_of(const std::string& path) {
  if (const std::optional<ProgramName> name = parse_program_file_name(path)) return name->provider;
  throw Failure(path + ": cannot tell the provider from the name (expected <model>_arm.pte or <model>_ns.pte)", 2);
}

ProgramBenchRow run_program(const std::string& path, const std::string& label, protocol::Provider provider,
                            const std::string& kernels, const QemuTools& tools, double timeout_seconds) {
  QemuJob job;
  {
    // Every input all zeros, as the profiler's one (profiler.md §5.2).
    const HostSession session(path, nullptr);
    for (size_t i = 0; i < session.method().input_count(); ++i) {
      job.inputs.push_back(std::vector<uint8_t>(session.method().input(i).nbytes, 0));
    }
  }
  job.program = read_file(path);
  job.iterations = 1;
  job.per_instruction_pass = false;
  job.timeout_seconds = timeout_seconds;
  const QemuRun run = run_on_qemu(tools, job, path);
  ProgramBenchRow row{label, protocol::to_string(provider), kernels, {}};
  for (const std::string& name : kBenchCounts) row.counts[name] = run.clean_visits.at(0).get(run.classes, name);
  return row;
}

std::string percent(uint64_t part, uint64_t whole) {
  return fmt::format("{:.1f} %", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string ratio(uint64_t before, uint64_t after) {
  return fmt::format("{:.1f}×", after == 0 ? 0.0 : static_cast<double>(before) / static_cast<double>(after));
}

// "1.34": estimated cycles per instruction.
std::string per_instruction(const std::map<std::string, uint64_t>& counts) {
  const uint64_t total = counts.at("total");
  return total == 0 ? "–" : fmt::format("{:.2f}", static_cast<double>(counts.at("cycles")) / static_cast<double>(total));
}

// Three significant figures at most, never an exponent: "0.134", "2.41", "31.5", "412".
std::string figure(double value) {
  if (value >= 100) return fmt::format("{:.0f}", value);
  if (value >= 10) return fmt::format("{:.1f}", value);
  if (value >= 1) return fmt::format("{:.2f}", value);
  return fmt::format("{:.3f}", value);
}

// "307,328 MACs", "16,384 elements", "–".
std::string work_text(const KernelBenchRow& row) {
  if (row.work_unit.empty()) return "–";
  return grouped(row.work) + (row.work_unit == "macs" ? " MACs" : " elements");
}

// "0.134 / MAC", "2.41 / element", "–".
std::string per_work_text(const KernelBenchRow& row) {
  const std::optional<double> value = cycles_per_work(row);
  if (!value) return "–";
  return figure(*value) + (row.work_unit == "macs" ? " / MAC" : " / element");
}

std::string mac_pipe_text(const KernelBenchRow& row) {
  const std::optional<double> use = mac_pipe_use(row);
  return use ? fmt::format("{:.1f} %", 100.0 * *use) : "–";
}

std::string cycle_model_name(const BenchResults& results) {
  return results.cycle_model.empty() ? "LLVM 19's Cortex-M55 scheduling model" : results.cycle_model;
}

}  // namespace

KernelBenchLine parse_kernel_bench_line(const std::string& line, const std::string& where) {
  const std::vector<std::string> words = words_of(line);
  const std::string quoted = "'" + line + "'";
  if (words.size() != 7 || words[0] != "bench") {
    throw Failure(where + ": bench line " + quoted +
                  " is not 'bench <region> <op> <shape> <variant> <unit> <n>' (an image from another etns version?)");
  }
  const std::optional<uint64_t> region = parse_count(words[1]);
  if (!region || *region > UINT32_MAX) throw Failure(where + ": bench line " + quoted + ": region is not a number");
  const std::optional<uint64_t> amount = parse_count(words[6]);
  if (!amount) throw Failure(where + ": bench line " + quoted + ": the work is not a count");
  const std::string& unit = words[5];
  if (unit != "macs" && unit != "elements" && unit != "none") {
    throw Failure(where + ": bench line " + quoted + ": work unit '" + unit + "', expected macs, elements or none");
  }
  if ((unit == "none") != (*amount == 0)) {
    throw Failure(where + ": bench line " + quoted + ": " +
                  (unit == "none" ? "unit none with work " + words[6] + " (none takes 0)"
                                  : "0 " + unit + " (a case that declares work does some)"));
  }
  KernelBenchLine parsed;
  parsed.region = static_cast<uint32_t>(*region);
  parsed.row.op = words[2];
  parsed.row.shape = words[3];
  parsed.row.variant = words[4];
  if (unit != "none") parsed.row.work_unit = unit;
  parsed.row.work = *amount;
  return parsed;
}

std::optional<double> cycles_per_work(const KernelBenchRow& row) {
  const auto cycles = row.counts.find("cycles");
  if (row.work_unit.empty() || row.work == 0 || cycles == row.counts.end()) return std::nullopt;
  return static_cast<double>(cycles->second) / static_cast<double>(row.work);
}

std::optional<double> mac_pipe_use(const KernelBenchRow& row) {
  const auto cycles = row.counts.find("cycles");
  if (row.work_unit != "macs" || cycles == row.counts.end() || cycles->second == 0) return std::nullopt;
  return static_cast<double>(row.work) / (static_cast<double>(kM55Int8MacsPerCycle) * static_cast<double>(cycles->second));
}

std::string bench_key(const KernelBenchRow& row) { return row.op + "/" + row.shape + "/" + row.variant; }
std::string bench_key(const ProgramBenchRow& row) { return "program/" + row.program + "/" + row.kernels; }

BenchResults run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress) {
  if (!options.program_labels.empty() && options.program_labels.size() != options.programs.size()) {
    throw Failure("bench: " + std::to_string(options.program_labels.size()) + " program labels for " +
                  std::to_string(options.programs.size()) + " programs");
  }
  const std::string build = executable_dir() + "/..";
  BenchOptions o = options;
  if (o.kernel_image.empty()) o.kernel_image = build + "/firmware/etns_m55_kernel_bench.elf";
  if (o.firmware_dir.empty()) o.firmware_dir = build + "/firmware";
  if (o.reference_dir.empty()) o.reference_dir = build + "/firmware-ref";

  BenchResults results;
  QemuTools kernel_tools = resolve_qemu_tools(protocol::Provider::Ns, QemuTools{o.qemu, o.kernel_image, ""});
  results.qemu_version = qemu_version(kernel_tools.qemu);
  progress("kernels: " + o.kernel_image);
  results.kernels = run_kernel_image(kernel_tools, o.timeout_seconds, results.cycle_model);

  for (size_t i = 0; i < o.programs.size(); ++i) {
    const std::string& path = o.programs[i];
    const std::string label =
        o.program_labels.empty() ? std::filesystem::path(path).filename().string() : o.program_labels[i];
    const protocol::Provider provider = provider_of(path);
    for (const char* kernels : {"reference", "fast"}) {
      const std::string dir = std::string(kernels) == "fast" ? o.firmware_dir : o.reference_dir;
      progress("[" + std::to_string(i + 1) + "/" + std::to_string(o.programs.size()) + "] " + label + " with " +
               kernels + " kernels");
      const QemuTools tools =
          resolve_qemu_tools(provider, QemuTools{o.qemu, dir + "/" + firmware_file_name(provider), ""});
      results.programs.push_back(run_program(path, label, provider, kernels, tools, o.timeout_seconds));
    }
  }
  return results;
}

nlohmann::json bench_to_json(const BenchResults& results) {
  nlohmann::json doc = nlohmann::json::object();
  doc["schema"] = "etns.bench";
  doc["schema_version"] = 2;
  doc["board"] = "qemu-mps3-an547";
  doc["qemu_version"] = results.qemu_version;
  doc["cycle_model"] = results.cycle_model;
  doc["counts"] =
      "total: instructions executed by the guest, counted exactly by the etns QEMU plugin; weighted: the same "
      "with each MVE gather or scatter once per lane; mve: the Helium instructions among them; cycles: Cortex-M55 "
      "core cycles estimated from those instructions by the cycle_model, an estimate, not a measurement";
  doc["work"] =
      "what one call of a kernel case does, as it declares it: macs (every output times its filter's taps, "
      "padded taps included) or elements; null when the case declares none";
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelBenchRow& row : results.kernels) {
    nlohmann::json work = nullptr;
    if (!row.work_unit.empty()) work = {{"unit", row.work_unit}, {"amount", row.work}};
    kernels.push_back({{"key", bench_key(row)}, {"op", row.op}, {"shape", row.shape}, {"variant", row.variant},
                       {"counts", row.counts}, {"work", work}});
  }
  doc["kernels"] = kernels;
  nlohmann::json programs = nlohmann::json::array();
  for (const ProgramBenchRow& row : results.programs) {
    programs.push_back({{"key", bench_key(row)}, {"program", row.program}, {"provider", row.provider},
                        {"kernels", row.kernels}, {"counts", row.counts}});
  }
  doc["programs"] = programs;
  doc["notes"] = results.notes;
  return doc;
}

std::string bench_counts_explained(const BenchResults& results) {
  return "*instructions*: executed instructions, counted exactly by the etns QEMU plugin (" + results.qemu_version +
         "); *weighted* counts each MVE gather or scatter once per lane (real cores move one element per beat "
         "there); *MVE share* is the share of executed instructions that are Helium instructions. *est. cycles*: "
         "Cortex-M55 core cycles **estimated** from the same executed instructions by " + cycle_model_name(results) +
         " (each executed block timed by LLVM's MCA after the block before it): an estimate, not a "
         "measurement, as QEMU has no timing; *cycles / instr.* is est. "
         "cycles ÷ instructions. For kernels, *work* is what one call does as its case declares it (MACs: every "
         "output times its filter's taps, padded taps included; elements: what a pool or reduction reads, what "
         "any other operator writes), *est. cycles / unit* is est. cycles ÷ work, and *MAC pipe use* is MACs ÷ "
         "(8 × est. cycles), the share of the M55's limit of 8 int8 MACs per cycle. Both counts are deterministic: "
         "the same build gives the same numbers.\n";
}

std::string bench_tables_markdown(const BenchResults& results, const std::string& level) {
  std::ostringstream md;
  md << level << " Kernels: one call per variant\n\n"
     << "| operator | shape | variant | instructions | weighted | est. cycles | cycles / instr. | MVE share | work | "
        "est. cycles / unit | MAC pipe use | reference ÷ this (weighted) |\n"
     << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  std::map<std::string, uint64_t> reference_weighted;
  for (const KernelBenchRow& row : results.kernels) {
    if (row.variant == "ref") reference_weighted[row.op + "/" + row.shape] = row.counts.at("weighted");
  }
  for (const KernelBenchRow& row : results.kernels) {
    const auto ref = reference_weighted.find(row.op + "/" + row.shape);
    md << "| `" << row.op << "` | " << row.shape << " | " << row.variant << " | "
       << grouped(row.counts.at("total")) << " | " << grouped(row.counts.at("weighted")) << " | "
       << grouped(row.counts.at("cycles")) << " | " << per_instruction(row.counts) << " | "
       << percent(row.counts.at("mve"), row.counts.at("total")) << " | " << work_text(row) << " | "
       << per_work_text(row) << " | " << mac_pipe_text(row) << " | "
       << (ref == reference_weighted.end() ? "–" : ratio(ref->second, row.counts.at("weighted"))) << " |\n";
  }
  if (!results.programs.empty()) {
    md << "\n" << level << " Programs: one clean `execute()`, all-zero input\n\n"
       << "| program | provider | reference kernels: instructions | weighted | est. cycles | cycles / instr. | "
          "fast kernels: instructions | weighted | est. cycles | cycles / instr. | MVE share | "
          "reference ÷ fast (weighted) | reference ÷ fast (est. cycles) |\n"
       << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (size_t i = 0; i + 1 < results.programs.size(); i += 2) {
      const ProgramBenchRow& ref = results.programs[i];
      const ProgramBenchRow& fast = results.programs[i + 1];
      md << "| " << ref.program << " | " << ref.provider << " | " << grouped(ref.counts.at("total")) << " | "
         << grouped(ref.counts.at("weighted")) << " | " << grouped(ref.counts.at("cycles")) << " | "
         << per_instruction(ref.counts) << " | " << grouped(fast.counts.at("total")) << " | "
         << grouped(fast.counts.at("weighted")) << " | " << grouped(fast.counts.at("cycles")) << " | "
         << per_instruction(fast.counts) << " | " << percent(fast.counts.at("mve"), fast.counts.at("total"))
         << " | " << ratio(ref.counts.at("weighted"), fast.counts.at("weighted")) << " | "
         << ratio(ref.counts.at("cycles"), fast.counts.at("cycles")) << " |\n";
    }
  }
  for (const std::string& note : results.notes) md << "\n" << note << "\n";
  return md.str();
}

std::string bench_compact_tables_markdown(const BenchResults& results, const std::string& level) {
  // Rows of one operator and shape, in the image's order.
  std::vector<std::vector<const KernelBenchRow*>> cases;
  std::map<std::string, size_t> index;
  for (const KernelBenchRow& row : results.kernels) {
    const std::string key = row.op + "/" + row.shape;
    const auto found = index.find(key);
    if (found == index.end()) {
      index[key] = cases.size();
      cases.push_back({&row});
    } else {
      cases[found->second].push_back(&row);
    }
  }
  std::ostringstream md;
  md << level << " Kernels: one call, the reference against the build's choice\n\n"
     << "| operator | shape | reference (weighted) | the build's choice (weighted) | est. cycles | "
        "cycles / instr. | MVE share | reference ÷ choice | work | est. cycles / unit | MAC pipe use | "
        "other variants (weighted) |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const std::vector<const KernelBenchRow*>& rows : cases) {
    const KernelBenchRow* ref = nullptr;
    for (const KernelBenchRow* row : rows) {
      if (row->variant == "ref") ref = row;
    }
    const KernelBenchRow& choice = *rows.back();
    std::string others;
    for (const KernelBenchRow* row : rows) {
      if (row == ref || row == &choice) continue;
      others += (others.empty() ? "" : ", ") + row->variant + " " + grouped(row->counts.at("weighted"));
    }
    md << "| `" << choice.op << "` | " << choice.shape << " | "
       << (ref != nullptr ? grouped(ref->counts.at("weighted")) : "–") << " | " << choice.variant << " "
       << grouped(choice.counts.at("weighted")) << " | " << grouped(choice.counts.at("cycles")) << " | "
       << per_instruction(choice.counts) << " | " << percent(choice.counts.at("mve"), choice.counts.at("total"))
       << " | " << (ref != nullptr ? ratio(ref->counts.at("weighted"), choice.counts.at("weighted")) : "–")
       << " | " << work_text(choice) << " | " << per_work_text(choice) << " | " << mac_pipe_text(choice) << " | "
       << (others.empty() ? "–" : others) << " |\n";
  }
  BenchResults programs_only = results;
  programs_only.kernels.clear();
  const std::string programs = bench_tables_markdown(programs_only, level);
  md << programs.substr(programs.find("\n" + level + " Programs") == std::string::npos
                            ? programs.size()
                            : programs.find("\n" + level + " Programs"));
  return md.str();
}

std::string bench_to_markdown(const BenchResults& results) {
  return "# Kernel and program benchmarks on the Cortex-M55 (QEMU mps3-an547)\n\n" +
         bench_counts_explained(results) + "\n" + bench_tables_markdown(results, "##");
}

std::string bench_summary_text(const BenchResults& results, const std::string& markdown_path,
                               const std::string& json_path) {
  std::ostringstream text;
  text << "etns bench: " << results.kernels.size() << " kernel variants and " << results.programs.size() / 2
       << " programs on QEMU mps3-an547; every row in " << markdown_path << " (data: " << json_path << ")\n";
  text << "instructions are exact counts; est. cycles are estimated by " << cycle_model_name(results)
       << ", not measured\n";
  for (const std::string& note : results.notes) text << note << "\n";
  if (results.programs.empty()) return text.str();
  size_t width = std::string("program").size();
  for (const ProgramBenchRow& row : results.programs) width = std::max(width, row.program.size());
  text << "\n"
       << fmt::format("{:<{}}  {:>13}  {:>13}  {:>13}  {:>13}  {:>7}  {:>9}\n", "program", width, "ref. instr.",
                      "ref. cycles", "fast instr.", "fast cycles", "cyc/ins", "ref/fast")
       << fmt::format("{:<{}}  {:>13}  {:>13}  {:>13}  {:>13}  {:>7}  {:>9}\n", "", width, "", "(est.)", "",
                      "(est.)", "(fast)", "(cycles)");
  for (size_t i = 0; i + 1 < results.programs.size(); i += 2) {
    const ProgramBenchRow& ref = results.programs[i];
    const ProgramBenchRow& fast = results.programs[i + 1];
    const uint64_t fast_cycles = fast.counts.at("cycles");
    text << fmt::format("{:<{}}  {:>13}  {:>13}  {:>13}  {:>13}  {:>7}  {:>9}\n", ref.program, width,
                        grouped(ref.counts.at("total")), grouped(ref.counts.at("cycles")),
                        grouped(fast.counts.at("total")), grouped(fast_cycles), per_instruction(fast.counts),
                        fast_cycles == 0 ? std::string("-")
                                         : fmt::format("{:.1f}x", static_cast<double>(ref.counts.at("cycles")) /
                                                                       static_cast<double>(fast_cycles)));
  }
  return text.str();
}

nlohmann::json baseline_from(const BenchResults& results) {
  nlohmann::json counts = nlohmann::json::object();
  auto add = [&](const std::string& key, const std::map<std::string, uint64_t>& values) {
    nlohmann::json& entry = counts[key];
    for (const char* name : kGatedCounts) entry[name] = values.at(name);
  };
  for (const KernelBenchRow& row : results.kernels) add(bench_key(row), row.counts);
  for (const ProgramBenchRow& row : results.programs) add(bench_key(row), row.counts);
  return {{"schema", "etns.bench_baseline"},
          {"schema_version", kBaselineVersion},
          {"counts_are", kBaselineCountsAre},
          {"cycle_model", results.cycle_model},
          {"counts", counts}};
}

void validate_baseline(const nlohmann::json& baseline, const std::string& baseline_path) {
  if (!baseline.is_object() || baseline.value("schema", "") != "etns.bench_baseline") {
    throw Failure(baseline_path + ": not an etns bench baseline (schema etns.bench_baseline)", 2);
  }
  if (!baseline.contains("schema_version") || !baseline.at("schema_version").is_number_integer() ||
      baseline.at("schema_version").get<int64_t>() != kBaselineVersion) {
    throw Failure(baseline_path + ": bench baseline schema_version " +
                      (baseline.contains("schema_version") ? baseline.at("schema_version").dump() : "missing") +
                      ", this etns reads version " + std::to_string(kBaselineVersion) +
                      " (instructions and estimated cycles); write a new one with etns bench --write-baseline",
                  2);
  }
  if (!baseline.contains("counts") || !baseline.at("counts").is_object()) {
    throw Failure(baseline_path + ": counts is missing or not an object", 2);
  }
  for (const auto& [key, gated] : baseline.at("counts").items()) {
    for (const char* name : kGatedCounts) {
      if (!gated.is_object() || !gated.contains(name) || !gated.at(name).is_number_integer() ||
          gated.at(name).get<int64_t>() < 0) {
        throw Failure(baseline_path + ": " + key + "." + name + " is missing or not a count", 2);
      }
    }
  }
}

std::vector<std::string> check_baseline(const BenchResults& results, const nlohmann::json& baseline,
                                        const std::string& baseline_path, std::vector<std::string>* improvements) {
  validate_baseline(baseline, baseline_path);
  std::map<std::string, std::map<std::string, uint64_t>> measured;
  for (const KernelBenchRow& row : results.kernels) measured[bench_key(row)] = row.counts;
  for (const ProgramBenchRow& row : results.programs) measured[bench_key(row)] = row.counts;

  std::vector<std::string> regressions;
  const bool programs_measured = !results.programs.empty();
  for (const auto& [key, gated] : baseline.at("counts").items()) {
    const auto found = measured.find(key);
    if (found == measured.end()) {
      // Programs come from outside the repository; a run without them says so in its notes.
      if (key.rfind("program/", 0) == 0 && !programs_measured) continue;
      regressions.push_back(key + ": in the baseline but not measured (removed? lower the baseline with "
                                  "--write-baseline)");
      continue;
    }
    for (const char* name : kGatedCounts) {
      const uint64_t limit = gated.at(name).get<uint64_t>();
      const uint64_t now = found->second.at(name);
      if (now > limit) {
        regressions.push_back(key + ": " + count_label(name) + " " + grouped(now) + " > baseline " + grouped(limit) +
                              " (+" + grouped(now - limit) + ")");
      } else if (now < limit && improvements != nullptr) {
        improvements->push_back(key + ": " + count_label(name) + " " + grouped(now) + " < baseline " +
                                grouped(limit));
      }
    }
  }
  for (const auto& [key, counts] : measured) {
    if (!baseline.at("counts").contains(key) && improvements != nullptr) {
      improvements->push_back(key + ": not in the baseline yet (" + grouped(counts.at("total")) +
                              " instructions, " + grouped(counts.at("cycles")) + " est. cycles)");
    }
  }
  return regressions;
}

}  // namespace etns::tools
