#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/operator_origin.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/tensor_compare.h"
#include "tools/writers/import/tflite_import.h"
#include "tools/writers/tflite/tflite_reader.h"

namespace etns::tools {
namespace {

struct ImportCommand {
  std::string model;
  std::string output;
  std::string report;
  bool json = false;
  protocol::Provider provider = protocol::Provider::Arm;
};

// The program's operators a stock ExecuTorch runtime has no kernel for, sorted.
std::vector<std::string> not_in_stock_executorch(const ConvertedProgram& program) {
  std::set<std::string> names;
  for (const auto& op : program.model.operators) {
    const std::string name = op.name + (op.overload.empty() ? "" : "." + op.overload);
    if (!stock_executorch_has(name)) names.insert(name);
  }
  return {names.begin(), names.end()};
}

// "t7", or "t7, t8" for an operator with several outputs (SPLIT, UNPACK).
std::string output_tensors(const ImportedOperator& op) {
  std::string text;
  for (const ImportedOutput& o : op.outputs) text += (text.empty() ? "t" : ", t") + std::to_string(o.tensor);
  return text;
}

// Each output's writer: "c0i3", "c0i3, c0i4", "folded at import" or "the model input".
std::string output_writers(const ImportedOperator& op) {
  if (op.folded) return kFoldedAtImport;
  std::string text;
  for (const ImportedOutput& o : op.outputs) {
    text += (text.empty() ? "" : ", ") + (o.instruction >= 0 ? "c0i" + std::to_string(o.instruction) : "the model input");
  }
  return text;
}

std::string markdown_report(const ImportCommand& c, const ImportedProgram& p) {
  const ImportedModel& imported = p.imported;
  const ConvertedProgram& program = p.program;
  std::string md = "# Import of `" + c.model + "`\n\n";
  md += "Program `" + c.output + "`: " + std::to_string(imported.operators.size()) + " TFLite operators became " +
        std::to_string(program.model.instructions.size()) + " instructions; planned arena " +
        std::to_string(program.plan.arena_bytes) + " bytes (lower bound " + std::to_string(program.plan.lower_bound_bytes) +
        "), constants " + std::to_string(p.constant_bytes) + " bytes.\n\n";
  md += "Provider: " + std::string(protocol::to_string(c.provider)) + ".\n\n";
  md += "| # | TFLite operator | output tensor | became | instructions | output written by | provider |\n";
  md += "|---:|---|---:|---|---:|---|---|\n";
  for (const ImportedOperator& op : imported.operators) {
    md += "| " + std::to_string(op.index) + " | " + op.builtin + " | " + output_tensors(op) + " | `" + op.became +
          "` | " + std::to_string(op.instructions) + " | " + output_writers(op) + " | " + op.provider + " |\n";
  }
  std::string kept;
  for (const ImportedOperator& op : imported.operators) {
    if (op.provider_note.empty()) continue;
    kept += "- operator " + std::to_string(op.index) + " (" + op.builtin + "): " + op.provider_note + "\n";
  }
  if (!kept.empty()) md += "\nKept on arm's operators in this ns import:\n\n" + kept;
  const std::vector<std::string> own = not_in_stock_executorch(program);
  if (!own.empty()) {
    md += "\nA stock ExecuTorch runtime lacks these operators (etns's own; docs/numerics.md gives their arithmetic): ";
    for (size_t i = 0; i < own.size(); ++i) md += (i ? ", `" : "`") + own[i] + "`";
    md += ".\n";
  }
  if (!imported.tolerated.empty()) {
    md += "\nTolerated, as TFLite Micro tolerates them:\n\n";
    for (const std::string& line : imported.tolerated) md += "- " + line + "\n";
  }
  return md;
}

nlohmann::json json_summary(const ImportCommand& c, const ImportedProgram& p) {
  const ImportedModel& imported = p.imported;
  const ConvertedProgram& program = p.program;
  nlohmann::json ops = nlohmann::json::array();
  for (const ImportedOperator& op : imported.operators) {
    nlohmann::json outputs = nlohmann::json::array();
    for (const ImportedOutput& o : op.outputs) outputs.push_back({{"tensor", o.tensor}, {"instruction", o.instruction}});
    ops.push_back({{"index", op.index},
                   {"builtin", op.builtin},
                   {"became", op.became},
                   {"output_tensor", op.output_tensor},
                   {"instruction", op.instruction},
                   {"outputs", outputs},
                   {"instructions", op.instructions},
                   {"folded", op.folded},
                   {"provider", op.provider},
                   {"provider_note", op.provider_note}});
  }
  return {{"model", c.model},
          {"program", c.output},
          {"provider", protocol::to_string(c.provider)},
          {"instructions", program.model.instructions.size()},
          {"arena_bytes", program.plan.arena_bytes},
          {"arena_lower_bound_bytes", program.plan.lower_bound_bytes},
          {"constant_bytes", p.constant_bytes},
          {"operators", ops},
          {"tolerated", imported.tolerated},
          {"not_in_stock_executorch", not_in_stock_executorch(program)}};
}

int run_import_command(const ImportCommand& c) {
  require_readable(c.model);
  const ImportedProgram p = import_program(read_file(c.model), c.model, c.provider);
  // The report is made before anything is written, so a failure leaves no
  // half of the output behind.
  const std::string report = c.report.empty() ? "" : markdown_report(c, p);
  write_file_atomic(c.output, p.pte.data(), p.pte.size());
  if (!c.report.empty()) write_file_atomic(c.report, report);
  if (c.json) {
    std::printf("%s\n", json_summary(c, p).dump(2).c_str());
    return 0;
  }
  for (const ImportedOperator& op : p.imported.operators) {
    std::printf("op %3d %-18s -> %s\n", op.index, op.builtin.c_str(), op.became.c_str());
  }
  std::printf("%s: %zu operators -> %zu instructions, arena %llu bytes (lower bound %llu), constants %llu bytes\n",
              c.output.c_str(), p.imported.operators.size(), p.program.model.instructions.size(),
              static_cast<unsigned long long>(p.program.plan.arena_bytes),
              static_cast<unsigned long long>(p.program.plan.lower_bound_bytes),
              static_cast<unsigned long long>(p.constant_bytes));
  return 0;
}

struct CompareTensorsCommand {
  std::string model;
  std::string dump_dir;
  std::string reference_dir;
};

int run_compare_tensors_command(const CompareTensorsCommand& c) {
  require_readable(c.model);
  require_folder(c.dump_dir, "the dump folder");
  require_folder(c.reference_dir, "the reference folder");
  const tflite::Model model = tflite::read_tflite(read_file(c.model), c.model);
  const ImportedModel imported = import_tflite(model, c.model);
  size_t exact = 0;
  const std::vector<TensorComparison> rows = compare_tensors(imported, c.dump_dir, c.reference_dir);
  for (const TensorComparison& row : rows) {
    std::printf("%s\n", format_comparison(row).c_str());
    exact += row.exact ? 1 : 0;
  }
  std::printf("%zu of %zu operator outputs bit-exact\n", exact, rows.size());
  return exact == rows.size() ? 0 : 1;
}

}  // namespace

CommandAction add_import_command(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("import", "turn an int8 TFLite model into an ExecuTorch program, bit-exact with TFLite Micro");
  command->footer(
      "Reads and verifies the .tflite flatbuffer (one subgraph, static shapes, int8 activations, int8\n"
      "weights with zero point 0, int32 biases) and writes a program whose arguments are derived as\n"
      "TensorFlow Lite Micro derives its kernels' parameters, so it computes TFLM's bytes: cortex_m::\n"
      "and portable operators where they do, etns_ops:: ones (listed in the report) where none does;\n"
      "shape arithmetic is folded at import. Activations stay NHWC bytes: the model's input and output\n"
      "files work unchanged. Every operator or option that cannot be computed like TFLM is refused at\n"
      "once, one line each; what TFLM tolerates in a file is accepted and listed in the report.\n"
      "Example: etns import kws.tflite -o kws.pte --report kws_import.md");
  auto c = std::make_shared<ImportCommand>();
  command->add_option("model", c->model, "the TFLite model (.tflite)")->required();
  command->add_option("-o,--output", c->output, "where to write the program (.pte)")->required();
  command->add_option("--report", c->report, "write a Markdown table of what became what here");
  command->add_flag("--json", c->json, "print the import's summary and trace as JSON");
  add_provider_option(command, c->provider,
                      "the provider the program is for (default arm): ns runs LEAKY_RELU, RELU, RELU6, "
                      "RELU_N1_TO_1 and HARD_SWISH on cortex_m_ns:: kernels where they give TFLM's bytes on all "
                      "256 inputs, MEAN where one factor gives them on every reachable sum, and SUB as "
                      "cortex_m_ns::quantized_sub (TFLM's formula)");
  return [c]() { return run_import_command(*c); };
}

CommandAction add_compare_tensors_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "compare-tensors", "compare an imported program's instruction outputs with a TFLite reference, tensor by tensor");
  command->footer(
      "DUMP is what 'etns run PROGRAM --dump-dir DUMP' wrote for the program 'etns import MODEL' made;\n"
      "REFERENCE holds each TFLite operator's output as opNNN_t<T>.bin (the mlperf-tiny layout). Prints,\n"
      "per operator, bit-exact or the largest difference and the first differing element; exits 1\n"
      "unless every operator is bit-exact.\n"
      "Example: etns compare-tensors kws.tflite dump/ kws.A.tensors/");
  auto c = std::make_shared<CompareTensorsCommand>();
  command->add_option("model", c->model, "the TFLite model the program was imported from")->required();
  command->add_option("dump", c->dump_dir, "the --dump-dir folder of the run")->required();
  command->add_option("reference", c->reference_dir, "the reference tensors")->required();
  return [c]() { return run_compare_tensors_command(*c); };
}

}  // namespace etns::tools
