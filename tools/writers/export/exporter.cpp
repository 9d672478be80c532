#include "tools/writers/export/exporter.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/program_names.h"
#include "tools/common/sha256.h"
#include "tools/writers/export/coverage_models.h"
#include "tools/writers/export/dscnn_model.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/program_model.h"

namespace etns::tools {
namespace {

using Json = nlohmann::ordered_json;

constexpr Provider kProviders[] = {Provider::Arm, Provider::Ns};

// One exported model: how to build it for a provider, what its ns program
// must call, and its example input.
struct ModelRecipe {
  std::string name;
  std::string kind;         // "evidence" (profiler.md §12), "coverage" or "application"
  std::string description;
  std::vector<std::string> ns_required;  // cortex_m_ns:: names without the namespace
  std::function<QuantizedGraph(Provider)> build;
  std::function<std::vector<float>()> example_input;  // logical order
};

std::vector<ModelRecipe> recipes(uint64_t seed) {
  std::vector<ModelRecipe> all;
  all.push_back({"tier1", "evidence", "relu(leaky_relu(conv2(a), 0.125) - a), a = hardswish(conv1(x)), channels_last",
                 {"quantized_hardswish", "quantized_leaky_relu", "quantized_sub", "quantized_relu"},
                 [seed](Provider p) { return build_quantized_graph(Tier1Model::Tier1, p, seed); },
                 [seed] { return example_input(seed); }});
  all.push_back({"tier1mean", "evidence", "mean(x, dims=(2, 3), keepdim=True), contiguous",
                 {"quantized_mean"},
                 [seed](Provider p) { return build_quantized_graph(Tier1Model::Tier1Mean, p, seed); },
                 [seed] { return example_input(seed); }});
  for (const CoverageModel& m : coverage_models()) {
    const std::string ns_op = m.ns_operator.substr(m.ns_operator.find("::") + 2);
    all.push_back({m.name, "coverage", m.description, {ns_op},
                   [seed, name = m.name](Provider p) { return build_coverage_graph(name, p, seed); },
                   [seed, name = m.name] { return coverage_example_input(name, seed); }});
  }
  all.push_back({kDscnnModel, "application",
                 "a DS-CNN keyword spotter: conv, depthwise conv, pointwise conv, global average pool, flatten, "
                 "linear, softmax",
                 {},
                 [seed](Provider p) { return build_dscnn_graph(p, seed); },
                 [seed] { return dscnn_example_input(seed); }});
  return all;
}

// The example input as the program reads it: float32 little-endian in the
// input's memory order.
std::vector<uint8_t> input_bytes(const std::vector<float>& logical, const ModelValue& input) {
  const ModelTensor& t = input.tensor;
  std::vector<float> values = logical;
  if (t.sizes.size() == 4) {
    values = to_memory_order(logical, std::vector<int32_t>(t.sizes.begin(), t.sizes.end()), t.dim_order);
  }
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::string full_name(const ModelOperator& op) {
  return op.overload.empty() ? op.name : op.name + "." + op.overload;
}

Json shape_of(const ModelValue& value) { return Json(value.tensor.sizes); }

uint64_t float_bytes_of(const ModelValue& value) { return value.tensor.numel() * sizeof(float); }

// profiler.md §12.4: the checks upstream makes after each export.
void check_export(const ExportedProgram& p, const ProgramModel& program, const std::vector<std::string>& required) {
  const std::string where = p.file + ": ";
  for (const ModelOperator& op : program.operators) {
    if (p.provider == Provider::Arm && starts_with(op.name, "cortex_m_ns::")) {
      throw Failure(where + "the arm program names " + full_name(op) + ", expected no cortex_m_ns:: operator");
    }
  }
  if (p.provider == Provider::Ns) {
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
  facts["channels_last"] = program.values.at(program.inputs.at(0)).tensor.dim_order == std::vector<uint8_t>{0, 2, 3, 1};
  return facts;
}

}  // namespace

Tier1Export export_tier1(uint64_t seed) {
  Tier1Export out;
  out.seed = seed;
  out.manifest["seed"] = seed;
  out.manifest["exporter"] = "etns " ETNS_VERSION;
  Json models = Json::object();
  for (const ModelRecipe& recipe : recipes(seed)) {
    Json entry;
    entry["kind"] = recipe.kind;
    entry["description"] = recipe.description;
    Json providers = Json::object();
    for (Provider provider : kProviders) {
      ExportedProgram p;
      p.model = recipe.name;
      p.provider = provider;
      p.file = program_file_name(recipe.name, provider);
      p.bytes = graph_to_pte(recipe.build(provider), &p.plan, FinishOptions{});
      // The facts come from the file as written, read back through our loader.
      const ProgramModel program = read_program(p.bytes, p.file);
      check_export(p, program, recipe.ns_required);
      if (provider == Provider::Arm) {
        const ModelValue& input = program.values.at(program.inputs.at(0));
        const ModelValue& output = program.values.at(program.outputs.at(0));
        entry["input_shape"] = shape_of(input);
        entry["output_shape"] = shape_of(output);
        entry["input_size_bytes"] = float_bytes_of(input);
        entry["output_size_bytes"] = float_bytes_of(output);
      }
      // One example input per input layout: <model>.input.bin, and
      // <model>_ns.input.bin only where ns reads another memory order.
      ExportedFile example;
      example.bytes = input_bytes(recipe.example_input(), program.values.at(program.inputs.at(0)));
      if (provider == Provider::Arm || example.bytes != out.inputs.back().bytes) {
        example.file = provider == Provider::Arm ? recipe.name + ".input.bin"
                                                 : recipe.name + "_" + to_string(provider) + ".input.bin";
        out.inputs.push_back(std::move(example));
      }
      Json facts = program_facts(p, program);
      facts["example_input"] = out.inputs.back().file;
      providers[to_string(provider)] = std::move(facts);
      out.programs.push_back(std::move(p));
    }
    entry["providers"] = std::move(providers);
    models[recipe.name] = std::move(entry);
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
  for (const ExportedFile& f : exported.inputs) {
    const std::string path = (fs::path(out_dir) / f.file).string();
    write_file_atomic(path, f.bytes.data(), f.bytes.size());
    on_written(path);
  }
  const std::string path = (fs::path(out_dir) / "manifest.json").string();
  write_file_atomic(path, manifest_text(exported));
  on_written(path);
}

}  // namespace etns::tools
