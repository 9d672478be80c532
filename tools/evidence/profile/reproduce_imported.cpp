#include "tools/evidence/profile/reproduce_imported.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/text.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/tensor_compare.h"
#include "tools/evidence/profile/reproduce_cycles.h"
#include "tools/evidence/runner/qemu_session.h"
#include "tools/tflm_anchors.h"

namespace etns::tools {
namespace fs = std::filesystem;
namespace {

struct ModelResult {
  std::string name;
  std::string refused;  // the one line, when import or the run failed
  size_t operators = 0;
  size_t instructions = 0;
  uint64_t planned = 0;
  size_t method_arena = 0;
  size_t scratch = 0;
  uint64_t weighted = 0;  // one clean execute()
  CycleFigures figures;   // executed instructions and estimated cycles of the same execute()
  struct TypeTotals {
    size_t operators = 0;
    uint64_t executed = 0;
    uint64_t cycles = 0;  // estimated
    uint64_t macs = 0;
    uint64_t elements = 0;  // output elements
  };
  std::map<std::string, TypeTotals> by_type;  // per TFLite operator type
  std::string exact;  // "13 of 13", or "" when no reference tensors
  bool exact_ok = true;
  std::string input;  // what it ran on
  uint64_t tflm_arena = 0;  // TFLM's arena with its reference kernels, 0 when unknown
  // --provider ns: its weighted count when that program differs from arm's
  // (0: the same program), and why operators stayed on arm's kernels.
  uint64_t ns_weighted = 0;
  std::vector<std::string> ns_kept;
};

std::string count(uint64_t v) { return format_count(static_cast<double>(v)); }

std::string ratio(uint64_t ours, uint64_t theirs) {
  if (theirs == 0) return "–";
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f×", static_cast<double>(ours) / static_cast<double>(theirs));
  return text;
}

// Instructions per unit of work, three decimals ("0.123").
std::string per_unit(uint64_t instructions, uint64_t work) {
  if (work == 0) return "–";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", static_cast<double>(instructions) / static_cast<double>(work));
  return text;
}

// The input the firmware runs: case A when the folder has it, else zeros.
std::vector<std::vector<uint8_t>> model_inputs(const fs::path& dir, const std::string& model,
                                               const ImportedProgram& p, std::string* described) {
  const fs::path a = dir / (model + ".A.input.bin");
  std::vector<std::vector<uint8_t>> inputs;
  if (fs::is_regular_file(a) && p.program.model.inputs.size() == 1) {
    inputs.push_back(read_file(a.string()));
    *described = "`" + a.filename().string() + "`";
    return inputs;
  }
  for (const int32_t index : p.program.model.inputs) {
    inputs.emplace_back(p.program.model.values.at(static_cast<size_t>(index)).tensor.nbytes(), 0);
  }
  *described = "zeros";
  return inputs;
}

// How many operator outputs equal TFLM's reference files (opNNN_t<T>.bin,
// one per output: SPLIT, SPLIT_V and UNPACK have several).
void check_tensors(const fs::path& reference, const ImportedProgram& p, const QemuRun& run, ModelResult& r) {
  if (!fs::is_directory(reference)) return;
  size_t exact = 0;
  size_t outputs = 0;
  for (const ImportedOperator& op : p.imported.operators) {
    for (const ImportedOutput& output : op.outputs) {
      ++outputs;
      const fs::path file = reference / reference_file_name(op.index, output.tensor);
      if (op.folded && fs::is_regular_file(file)) {
        exact += read_file(file.string()) == op.folded_value ? 1 : 0;
        continue;
      }
      if (output.instruction < 0 || static_cast<size_t>(output.instruction) >= run.dumps.size() ||
          !fs::is_regular_file(file)) {
        continue;
      }
      exact += read_file(file.string()) == run.dumps[static_cast<size_t>(output.instruction)] ? 1 : 0;
    }
  }
  r.exact = std::to_string(exact) + " of " + std::to_string(outputs);
  r.exact_ok = exact == outputs;
}

// TFLM's arena for `model`: the anchors' (MLPerf Tiny), else the folder's
// index.json (models.<m>.arena_used_bytes, as ../shared/models/real-tflite
// records it), else 0.
uint64_t tflm_arena_bytes(const fs::path& dir, const std::string& model, const nlohmann::json& anchors) {
  if (anchors["models"].contains(model)) return anchors["models"][model]["tflm_arena_bytes_reference"].get<uint64_t>();
  const fs::path index = dir / "index.json";
  if (!fs::is_regular_file(index)) return 0;
  const nlohmann::json doc = nlohmann::json::parse(read_text_file(index.string()), nullptr, false);
  if (doc.is_discarded() || !doc.contains("models") || !doc["models"].contains(model)) return 0;
  const nlohmann::json& m = doc["models"][model];
  return m.contains("arena_used_bytes") && m["arena_used_bytes"].is_number_unsigned()
             ? m["arena_used_bytes"].get<uint64_t>()
             : 0;
}

// The ns import, run on the ns firmware when it differs from arm's program.
void run_ns(const std::vector<uint8_t>& tflite, const std::string& context, const ImportedProgram& arm,
            const QemuJob& arm_job, const QemuTools& qemu_ns, const std::string& model, ModelResult& r) {
  const ImportedProgram ns = import_program(tflite, context, protocol::Provider::Ns);
  for (const ImportedOperator& op : ns.imported.operators) {
    if (!op.provider_note.empty()) r.ns_kept.push_back(op.builtin + " (operator " + std::to_string(op.index) + "): " +
                                                       op.provider_note);
  }
  if (ns.pte == arm.pte) return;
  QemuJob job = arm_job;
  job.program = ns.pte;
  job.dump_instructions = false;
  const QemuRun run = run_on_qemu(qemu_ns, job, model + " (ns)");
  r.ns_weighted = run.clean_visits.at(0).get(run.classes, "weighted");
}

ModelResult run_model(const fs::path& dir, const std::string& model, const fs::path& out, const QemuTools& qemu,
                      const QemuTools& qemu_ns) {
  ModelResult r;
  r.name = model;
  r.figures.name = model;
  r.figures.origin = "imported from `" + dir.lexically_normal().filename().string() + "`";
  try {
    const fs::path tflite = dir / (model + ".tflite");
    const std::vector<uint8_t> bytes = read_file(tflite.string());
    const ImportedProgram p = import_program(bytes, tflite.filename().string());
    const std::string pte = (out / (model + ".pte")).string();
    write_file_atomic(pte, p.pte.data(), p.pte.size());
    r.operators = p.imported.operators.size();
    r.instructions = p.program.model.instructions.size();
    r.planned = p.program.plan.arena_bytes;
    QemuJob job;
    job.program = p.pte;
    job.inputs = model_inputs(dir, model, p, &r.input);
    job.warmup = 1;
    job.iterations = 1;
    job.dump_instructions = fs::is_directory(dir / (model + ".A.tensors")) && r.input != "zeros";
    const QemuRun run = run_on_qemu(qemu, job, model);
    r.method_arena = run.method_arena_bytes;
    r.scratch = run.scratch_bytes;
    r.weighted = run.clean_visits.at(0).get(run.classes, "weighted");
    r.figures.input = r.input;
    fill_cycle_figures(pte, run, r.figures);
    for (const ImportedOperator& op : p.imported.operators) {
      ModelResult::TypeTotals& totals = r.by_type[op.builtin];
      ++totals.operators;
      totals.macs += op.macs;
      totals.elements += op.output_elements;
      for (int32_t i = first_instruction(op); i <= op.instruction; ++i) {
        const ClassCounts& visit = run.instructions.at(static_cast<size_t>(i)).visits.at(0);
        totals.executed += visit.get(run.classes, "total");
        totals.cycles += visit.get(run.classes, "cycles");
      }
    }
    if (job.dump_instructions) check_tensors(dir / (model + ".A.tensors"), p, run, r);
    run_ns(bytes, tflite.filename().string(), p, job, qemu_ns, model, r);
  } catch (const Failure& failure) {
    r.refused = failure.what();
    r.figures.refused = r.refused;
  }
  return r;
}

void write_models_table(std::ostringstream& md, const std::vector<ModelResult>& results, const nlohmann::json& anchors) {
  md << "| model | TFLite operators → program instructions | bit-exact with TFLM (input A) | executed "
        "instructions, one `execute()` | weighted | estimated cycles | TFLM + CMSIS-NN: executed | etns ÷ TFLM "
        "(executed) | planned + method arena + scratch | TFLM arena (reference kernels) | `--provider ns` "
        "(weighted) |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const ModelResult& r : results) {
    if (!r.refused.empty()) {
      md << "| " << r.name << " | not run: " << r.refused << " | | | | | | | | | |\n";
      continue;
    }
    const nlohmann::json* a = anchors["models"].contains(r.name) ? &anchors["models"][r.name] : nullptr;
    const uint64_t tflm = a != nullptr ? (*a)["tflm_cmsis_nn_instructions"].get<uint64_t>() : 0;
    const uint64_t memory = r.planned + r.method_arena + r.scratch;
    md << "| " << r.name << " | " << r.operators << " → " << r.instructions << " | "
       << (r.exact.empty() ? "not checked" : r.exact) << " | " << count(r.figures.instructions) << " | "
       << count(r.weighted) << " | " << count(r.figures.cycles) << " | " << (a != nullptr ? count(tflm) : "–")
       << " | " << ratio(r.figures.instructions, tflm) << " | " << count(r.planned) << " + " << count(r.method_arena)
       << " + " << count(r.scratch) << " = " << count(memory) << " B | "
       << (r.tflm_arena != 0 ? count(r.tflm_arena) + " B" : "–") << " | "
       << (r.ns_weighted != 0 ? count(r.ns_weighted) + " (" + ratio(r.ns_weighted, r.weighted) + " arm)"
                              : std::string("the arm program")) << " |\n";
  }
  std::string kept;
  for (const ModelResult& r : results) {
    for (const std::string& line : r.ns_kept) kept += "- " + r.name + ": " + line + "\n";
  }
  if (!kept.empty()) md << "\nKept on arm's operators in the ns import:\n\n" << kept;
}

// Per TFLite operator type, the models `anchored_only` selects (those TFLM's
// anchors list, or every model).
std::string per_type_table(const std::vector<ModelResult>& results, const nlohmann::json& anchors, bool anchored_only) {
  std::ostringstream md;
  md << "| model | operator type | operators | work | etns: executed | per unit | etns: est. cycles | per unit | "
        "TFLM + CMSIS-NN: executed | per unit | etns ÷ TFLM (executed) |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const ModelResult& r : results) {
    const nlohmann::json* a = anchors["models"].contains(r.name) ? &anchors["models"][r.name] : nullptr;
    if (!r.refused.empty() || (anchored_only && a == nullptr)) continue;
    for (const auto& [type, totals] : r.by_type) {
      const bool has_macs = totals.macs > 0;
      const uint64_t work = has_macs ? totals.macs : totals.elements;
      const uint64_t theirs = a != nullptr && (*a)["by_operator_type"].contains(type)
                                  ? (*a)["by_operator_type"][type].get<uint64_t>()
                                  : 0;
      md << "| " << r.name << " | " << type << " | " << totals.operators << " | " << count(work)
         << (has_macs ? " MACs" : " elements") << " | " << count(totals.executed) << " | "
         << per_unit(totals.executed, work) << " | " << count(totals.cycles) << " | " << per_unit(totals.cycles, work)
         << " | " << (theirs != 0 ? count(theirs) : "–") << " | " << (theirs != 0 ? per_unit(theirs, work) : "–")
         << " | " << ratio(totals.executed, theirs) << " |\n";
    }
  }
  return md.str();
}

}  // namespace

ImportedSection imported_models_section(const std::vector<std::string>& tflite_dirs, const std::string& out_dir,
                                        const ProgressFn& progress) {
  ImportedSection section;
  if (tflite_dirs.empty()) return section;
  std::vector<std::pair<fs::path, std::string>> models;  // folder, model
  std::string folders;
  for (const std::string& tflite_dir : tflite_dirs) {
    const fs::path dir = tflite_dir;
    if (!fs::is_directory(dir)) throw Failure("--tflite " + tflite_dir + ": no such folder", 2);
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".tflite") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    if (names.empty()) throw Failure("--tflite " + tflite_dir + ": no .tflite file in it", 2);
    for (const std::string& name : names) models.emplace_back(dir, name);
    folders += std::string(folders.empty() ? "" : " and ") + "`" + dir.lexically_normal().filename().string() + "`";
  }
  const fs::path out = fs::path(out_dir) / "imported";
  fs::create_directories(out);
  const QemuTools qemu = resolve_qemu_tools(protocol::Provider::Arm, {});
  const QemuTools qemu_ns = resolve_qemu_tools(protocol::Provider::Ns, {});
  const nlohmann::json anchors = nlohmann::json::parse(kTflmAnchorsJson);
  std::vector<ModelResult> results;
  for (const auto& [dir, model] : models) {
    if (progress) progress("imported model " + model + ": import and run on qemu-m55");
    results.push_back(run_model(dir, model, out, qemu, qemu_ns));
    results.back().tflm_arena = tflm_arena_bytes(dir, model, anchors);
    section.ok = section.ok && results.back().refused.empty() && results.back().exact_ok;
  }
  for (const ModelResult& r : results) section.figures.push_back(r.figures);
  // Every model's operator types beside the page; the page keeps those TFLM's anchors compare.
  write_file_atomic((out / "operator_types.md").string(),
                    "# Imported models: executed instructions and estimated cycles per TFLite operator type\n\n" +
                        per_type_table(results, anchors, false));
  std::ostringstream md;
  md << "\n## Imported TFLite models (Cortex-M55 under QEMU)\n\n"
     << "Each `.tflite` of " << folders << " imported by `etns import` (programs in `imported/`) and run once "
     << "after a warm-up on the arm firmware, on its `<model>.A.input.bin` where the folder has one. *Executed "
        "instructions* are exact counts (*weighted* counts each gather or scatter once per lane); *estimated "
        "cycles* are the plugin's Cortex-M55 estimate from them, not a measurement. TFLM + CMSIS-NN: TensorFlow "
        "Lite Micro with CMSIS-NN's Helium kernels, counted on QEMU outside this repository "
        "(`bench/anchors/mlperf_tiny_tflm.json`; MLPerf Tiny only). Memory: the program's planned arena, the "
        "method arena the firmware's load used and the largest kernel scratch, beside the arena TFLM needs with "
        "its reference kernels (the anchors, or the folder's `index.json`). *Bit-exact*: operators whose output "
        "equals TFLM's tensor in `<model>.A.tensors/`. `--provider ns`: the same model imported for the ns "
        "firmware (`cortex_m_ns::` kernels wherever they give TFLM's bytes on every input), where that program "
        "differs from arm's.\n\n";
  write_models_table(md, results, anchors);
  md << "\nPer TFLite operator type, the models TFLM's anchors cover (every model's: `imported/operator_types.md`): "
        "summed over the model's operators of that type, and per MAC (per output element for operators without "
        "MACs):\n\n"
     << per_type_table(results, anchors, true);
  section.markdown = md.str();
  return section;
}

}  // namespace etns::tools
