#include "tools/export/exporter.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"
#include "tools/export/graph_to_program.h"
#include "tools/export/program_model.h"

namespace etns::tools {
namespace {

using Json = nlohmann::ordered_json;

constexpr Tier1Model kModels[] = {Tier1Model::Tier1, Tier1Model::Tier1Mean};
constexpr Provider kProviders[] = {Provider::Arm, Provider::Ns};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::string full_name(const ModelOperator& op) {
  return op.overload.empty() ? op.name : op.name + "." + op.overload;
}

Json shape_of(const ModelValue& value) { return Json(value.tensor.sizes); }

uint64_t float_bytes_of(const ModelValue& value) { return value.tensor.numel() * sizeof(float); }

// profiler.md §12.4: the checks upstream makes after each export.
void check_export(const ExportedProgram& p, const ProgramModel& program) {
  const std::string where = p.file + ": ";
  for (const ModelOperator& op : program.operators) {
    if (p.provider == Provider::Arm && starts_with(op.name, "cortex_m_ns::")) {
      throw Failure(where + "the arm program names " + full_name(op) + ", expected no cortex_m_ns:: operator");
    }
  }
  if (p.provider == Provider::Ns) {
    const std::vector<std::string> required =
        p.model == Tier1Model::Tier1
            ? std::vector<std::string>{"quantized_hardswish", "quantized_leaky_relu", "quantized_sub", "quantized_relu"}
            : std::vector<std::string>{"quantized_mean"};
    for (const std::string& base : required) {
      const bool found = std::any_of(program.operators.begin(), program.operators.end(),
                                     [&](const ModelOperator& op) { return op.name == "cortex_m_ns::" + base; });
      if (!found) throw Failure(where + "no cortex_m_ns::" + base + ", which the ns export requires");
    }
  }
  if (program.non_const_buffer_sizes.size() != 2) {
    throw Failure(where + std::to_string(program.non_const_buffer_sizes.size()) +
                  " non-constant buffer sizes, expected 2 (one planned arena)");
  }
}

Json program_facts(const ExportedProgram& p, const ProgramModel& program) {
  std::vector<std::string> operators, portable;
  for (const ModelOperator& op : program.operators) {
    operators.push_back(full_name(op));
    if (!starts_with(op.name, "cortex_m::") && !starts_with(op.name, "cortex_m_ns::")) portable.push_back(full_name(op));
  }
  std::sort(operators.begin(), operators.end());
  std::sort(portable.begin(), portable.end());
  Json instructions = Json::array();
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    instructions.push_back(Json{{"id", "c0i" + std::to_string(i)},
                                {"op", full_name(program.operators.at(program.instructions[i].op_index))}});
  }
  Json facts;
  facts["pte"] = p.file;
  facts["sha256"] = sha256_hex(p.bytes.data(), p.bytes.size());
  facts["byte_size"] = p.bytes.size();
  facts["portable_ops"] = portable;
  facts["operators"] = operators;
  facts["instructions"] = std::move(instructions);
  facts["planned_arena_size"] = program.non_const_buffer_sizes.at(1);
  facts["planned_arena_lower_bound"] = p.plan.lower_bound_bytes;
  facts["input_shape"] = shape_of(program.values.at(program.inputs.at(0)));
  facts["output_shape"] = shape_of(program.values.at(program.outputs.at(0)));
  return facts;
}

}  // namespace

void check_export_seed(uint64_t seed) {
  if (seed != kTier1Seed) {
    throw Failure("--seed " + std::to_string(seed) + ": the Tier-1 models are defined for seed " +
                      std::to_string(kTier1Seed) + " only",
                  2);
  }
}

Tier1Export export_tier1(uint64_t seed) {
  check_export_seed(seed);
  Tier1Export out;
  out.seed = seed;
  out.manifest["seed"] = seed;
  out.manifest["exporter"] = "etns " ETNS_VERSION;
  Json models = Json::object();
  for (Tier1Model model : kModels) {
    Json entry;
    Json providers = Json::object();
    for (Provider provider : kProviders) {
      ExportedProgram p;
      p.model = model;
      p.provider = provider;
      p.file = std::string(to_string(model)) + "_" + to_string(provider) + ".pte";
      p.bytes = graph_to_pte(build_quantized_graph(model, provider), &p.plan);
      // The facts come from the file as written, read back through our loader.
      const ProgramModel program = read_program(p.bytes, p.file);
      check_export(p, program);
      if (entry.empty()) {
        const ModelValue& input = program.values.at(program.inputs.at(0));
        const ModelValue& output = program.values.at(program.outputs.at(0));
        entry["input_shape"] = shape_of(input);
        entry["output_shape"] = shape_of(output);
        entry["channels_last"] = input.tensor.dim_order == std::vector<uint8_t>{0, 2, 3, 1};
        entry["input_size_bytes"] = float_bytes_of(input);
        entry["output_size_bytes"] = float_bytes_of(output);
      }
      providers[to_string(provider)] = program_facts(p, program);
      out.programs.push_back(std::move(p));
    }
    entry["providers"] = std::move(providers);
    models[to_string(model)] = std::move(entry);
  }
  out.manifest["models"] = std::move(models);
  return out;
}

std::string manifest_text(const Tier1Export& exported) { return exported.manifest.dump(2) + "\n"; }

void prepare_export_dir(const std::string& out_dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(out_dir, error);
  if (fs::exists(status) && !fs::is_directory(status)) throw Failure("--out " + out_dir + ": not a folder", 2);
  if (!fs::exists(status)) {
    fs::create_directories(out_dir, error);
    if (error) throw Failure("--out " + out_dir + ": cannot create the folder (" + error.message() + ")", 2);
  }
}

void write_tier1_export(const Tier1Export& exported, const std::string& out_dir,
                        const std::function<void(const std::string& path)>& on_written) {
  namespace fs = std::filesystem;
  prepare_export_dir(out_dir);
  for (const ExportedProgram& p : exported.programs) {
    const std::string path = (fs::path(out_dir) / p.file).string();
    write_file_atomic(path, p.bytes.data(), p.bytes.size());
    on_written(path);
  }
  const std::string path = (fs::path(out_dir) / "manifest.json").string();
  write_file_atomic(path, manifest_text(exported));
  on_written(path);
}

}  // namespace etns::tools
