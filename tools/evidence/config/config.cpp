#include "tools/evidence/config/config.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <utility>

#include "tools/common/program_names.h"
#include "tools/common/sha256.h"
#include "tools/common/text.h"
#include "tools/evidence/config/config_tree.h"
#include "tools/evidence/config/config_keys.h"
#include "tools/evidence/config/counters.h"

namespace etns::tools {
namespace {

using namespace config_detail;

constexpr const char* kSidecarSchema = "nsx-executorch.pte-manifest/1";

// ---------------------------------------------------------------------------
// The model file and its optional sidecar.

std::vector<uint8_t> read_model_file(const std::string& path) {
  const std::string where = "model.path";
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) fail(where, path + ": no such file");
  if (!fs::is_regular_file(status)) fail(where, path + ": not a regular file");
  if (fs::path(path).extension() != ".pte") fail(where, path + ": not a .pte file (executorch programs end in .pte)");
  std::vector<uint8_t> bytes;
  try {
    bytes = read_file(path);
  } catch (const ReadFailure& failure) {
    fail(where, path + ": cannot read (" + read_problem(failure) + ")");
  }
  if (bytes.empty()) fail(where, path + ": empty file");
  // ExecuTorch's flatbuffer identifier ("ET" + version) sits at offset 4; any
  // position within the first 16 bytes is accepted, like the reference.
  const size_t window = std::min<size_t>(bytes.size(), 16);
  bool magic = false;
  for (size_t i = 0; i + 1 < window; ++i) magic = magic || (bytes[i] == 'E' && bytes[i + 1] == 'T');
  if (!magic) fail(where, path + ": no 'ET' magic in the first 16 bytes (not an ExecuTorch program)");
  return bytes;
}

struct Sidecar {
  std::string path;
  std::optional<protocol::Provider> kernel_provider;
  std::optional<bool> requires_ns_ops;
  std::optional<int64_t> planned_arena_size;
  std::optional<int64_t> input_size;   // the first input's
  std::optional<int64_t> output_size;  // the first output's
};

std::optional<int64_t> positive_integer(const nlohmann::json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t{INT64_MAX}) return std::nullopt;
  const int64_t number = value.get<int64_t>();
  return number > 0 ? std::optional<int64_t>(number) : std::nullopt;
}

std::optional<int64_t> first_size(const nlohmann::json& manifest, const char* key, const std::string& path) {
  const auto list = manifest.find(key);
  if (list == manifest.end()) return std::nullopt;
  if (!list->is_array()) fail(path, std::string(key) + ": expected a list, got " + describe(*list));
  std::optional<int64_t> first;
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string field = std::string(key) + "[" + std::to_string(i) + "]";
    const nlohmann::json& item = (*list)[i];
    if (!item.is_object()) fail(path, field + ": expected an object, got " + describe(item));
    const auto size = item.find("size_bytes");
    if (size == item.end()) fail(path, field + ".size_bytes: missing");
    const std::optional<int64_t> bytes = positive_integer(*size);
    if (!bytes) fail(path, field + ".size_bytes: expected a positive integer, got " + describe(*size));
    if (i == 0) first = bytes;
  }
  return first;
}

std::optional<Sidecar> read_sidecar(const std::string& model_path, const std::vector<uint8_t>& model_bytes) {
  Sidecar sidecar;
  sidecar.path = model_path + ".json";
  const std::string& path = sidecar.path;
  std::error_code error;
  if (!fs::exists(path, error)) return std::nullopt;

  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(read_text(path));
  } catch (const nlohmann::json::exception& problem) {
    std::string text = problem.what();
    const size_t bracket = text.find("] ");
    if (text.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) text = text.substr(bracket + 2);
    fail(path, "invalid JSON (" + text + ")");
  }
  if (!manifest.is_object()) fail(path, "expected a JSON object, got " + describe(manifest));

  const auto schema = manifest.find("schema");
  if (schema == manifest.end()) fail(path, std::string("schema missing, expected '") + kSidecarSchema + "'");
  if (*schema != kSidecarSchema) {
    fail(path, "schema is " + describe(*schema) + ", expected '" + kSidecarSchema + "'");
  }
  const auto digest = manifest.find("pte_sha256");
  if (digest == manifest.end()) fail(path, "pte_sha256 missing");
  const std::string actual = sha256_hex(model_bytes.data(), model_bytes.size());
  if (!digest->is_string() || *digest != actual) {
    fail(path, "pte_sha256 " + describe(*digest) + " does not match the model's SHA-256 '" + actual + "'");
  }
  if (const auto provider = manifest.find("kernel_provider"); provider != manifest.end()) {
    protocol::Provider parsed = protocol::Provider::Arm;
    if (!provider->is_string() || !protocol::parse_provider_name(provider->get<std::string>().c_str(), &parsed)) {
      fail(path, "kernel_provider: expected arm or ns, got " + describe(*provider));
    }
    sidecar.kernel_provider = parsed;
  }
  if (const auto needs = manifest.find("requires_ns_ops"); needs != manifest.end()) {
    if (!needs->is_boolean()) fail(path, "requires_ns_ops: expected a JSON boolean, got " + describe(*needs));
    sidecar.requires_ns_ops = needs->get<bool>();
  }
  if (const auto planned = manifest.find("planned_arena_size"); planned != manifest.end()) {
    sidecar.planned_arena_size = positive_integer(*planned);
    if (!sidecar.planned_arena_size) {
      fail(path, "planned_arena_size: expected a positive integer, got " + describe(*planned));
    }
  }
  sidecar.input_size = first_size(manifest, "inputs", path);
  sidecar.output_size = first_size(manifest, "outputs", path);
  if (const auto operators = manifest.find("operators"); operators != manifest.end()) {
    if (!operators->is_object()) fail(path, "operators: expected an object, got " + describe(*operators));
    if (const auto portable = operators->find("portable"); portable != operators->end()) {
      if (!portable->is_array()) fail(path, "operators.portable: expected a list, got " + describe(*portable));
      // Checked, not used: the program itself says which operators it needs.
      for (size_t i = 0; i < portable->size(); ++i) {
        const nlohmann::json& name = (*portable)[i];
        if (!name.is_string()) {
          fail(path, "operators.portable[" + std::to_string(i) + "]: expected a string, got " + describe(name));
        }
      }
    }
  }
  return sidecar;
}

template <typename T>
std::optional<T> optional_of(const Json& value) {
  return value.is_null() ? std::nullopt : std::optional<T>(value.get<T>());
}

// ---------------------------------------------------------------------------
// Rules across keys, after the key table has checked every value on its own.

void resolve_model(const Json& model, ProfileConfig& config) {
  if (model["path"].is_null()) {
    fail("model.path", "missing (give the .pte in the config file or as the override model.path=<file>)");
  }
  config.model_path = model["path"].get<std::string>();
  config.arena_size = optional_of<int64_t>(model["arena_size"]);
  config.arena_location = optional_of<std::string>(model["arena_location"]);
  config.weights_location = optional_of<std::string>(model["weights_location"]);
}

void resolve_target(Json& target, ProfileConfig& config) {
  config.target = target["board"].get<std::string>();
  if (target["toolchain"] == "gcc") target["toolchain"] = "arm-none-eabi-gcc";
  config.toolchain = target["toolchain"].get<std::string>();
}

void resolve_profiling(Json& profiling, ProfileConfig& config) {
  config.per_layer = profiling["per_layer"].get<bool>();
  config.iterations = profiling["iterations"].get<int64_t>();
  config.warmup = profiling["warmup"].get<int64_t>();
  config.aggregation = profiling["aggregation"].get<std::string>();
  const int64_t window_min = profiling["window_min"].get<int64_t>();
  const int64_t window_max = profiling["window_max"].get<int64_t>();
  if (window_max < window_min) {
    fail("profiling.window_max",
         "must be >= window_min (" + std::to_string(window_min) + "), got " + std::to_string(window_max));
  }
}

void resolve_output(Json& output, ProfileConfig& config) {
  config.output_format = output["format"].get<std::string>();
  // The default is relative to the current folder, like any path not written
  // in the file, and names program and target, so that runs of other
  // programs or on the other target never land in one another's folder.
  if (output["dir"].is_null()) {
    const std::string stem = fs::path(config.model_path).stem().string();
    output["dir"] = absolute_path(fs::current_path(), "./results/" + stem + "-" + config.target);
  }
  config.output_dir = output["dir"].get<std::string>();
  config.detailed = output["detailed"].get<bool>();
}

// build.offline and the top-level `frozen`, its deprecated alias.
void resolve_build(Json& resolved) {
  Json& build = resolved["build"];
  const std::optional<bool> offline = optional_of<bool>(build["offline"]);
  const std::optional<bool> frozen = optional_of<bool>(resolved["frozen"]);
  if (offline && frozen && *offline != *frozen) {
    fail("frozen", "deprecated alias of build.offline, which says " + std::string(*offline ? "true" : "false") +
                       " (drop frozen)");
  }
  const bool effective_offline = offline.value_or(frozen.value_or(false));
  if (build["update_dependencies"].get<bool>() && effective_offline) {
    fail("build.update_dependencies",
         std::string("cannot be combined with ") + (offline ? "build.offline" : "frozen (alias of build.offline)"));
  }
  build["offline"] = effective_offline;
  resolved["frozen"] = effective_offline;  // the deprecated alias, as it took effect
}

// engine.backend: the key, else the sidecar's kernel_provider, else arm.
// Returns how it was decided, for the messages that name it.
std::string resolve_backend(const Json& engine, const std::optional<Sidecar>& sidecar, ProfileConfig& config) {
  std::string origin;
  if (engine["backend"].is_string()) {
    // The key table admits only the providers' names.
    protocol::parse_provider_name(engine["backend"].get<std::string>().c_str(), &config.backend);
  } else if (sidecar && sidecar->kernel_provider) {
    config.backend = *sidecar->kernel_provider;
    origin = " (the kernel_provider of " + sidecar->path + ")";
  } else {
    config.backend = protocol::Provider::Arm;
    origin = " (the default)";
  }
  return "engine.backend is " + std::string(protocol::to_string(config.backend)) + origin;
}

// engine.config.ns_ops follows engine.backend: the ns image runs the
// cortex_m_ns kernels and the arm image has none, so a value that disagrees
// would have the bundle name one provider while the other one ran.
void check_ns_ops(const Json& keys, const std::optional<Sidecar>& sidecar, const ProfileConfig& config,
                  const std::string& backend_origin) {
  const std::string where = "engine.config.ns_ops";
  const bool sidecar_needs_ns_ops = sidecar && sidecar->requires_ns_ops.value_or(false);
  if (sidecar_needs_ns_ops && !config.ns_ops()) {
    fail(where, sidecar->path + " says the program needs NS ops, which need engine.backend ns, but " + backend_origin);
  }
  const std::optional<bool> ns_ops = optional_of<bool>(keys["ns_ops"]);
  if (ns_ops && *ns_ops != config.ns_ops()) {
    const protocol::Provider wanted = *ns_ops ? protocol::Provider::Ns : protocol::Provider::Arm;
    fail(where, std::string(*ns_ops ? "true" : "false") + ", but " + backend_origin +
                    ": ns_ops follows the backend (the ns image runs the cortex_m_ns kernels, the arm image has "
                    "none); drop ns_ops or set engine.backend " + protocol::to_string(wanted));
  }
}

// engine: explicit keys win, then the sidecar, then the built-in defaults.
void resolve_engine(Json& engine, const std::optional<Sidecar>& sidecar, ProfileConfig& config) {
  Json& keys = engine["config"];
  const std::string backend_origin = resolve_backend(engine, sidecar, config);
  check_ns_ops(keys, sidecar, config, backend_origin);
  if (!keys["portable_ops"].is_null()) {
    config.portable_ops = keys["portable_ops"].get<std::vector<std::string>>();
    config.portable_ops_source = "config";
  }
  // Without any size the program's own memory plan sizes the arena.
  const std::optional<int64_t> planned = optional_of<int64_t>(keys["planned_arena_size"]);
  config.planned_arena_size = planned              ? planned
                              : config.arena_size ? config.arena_size
                              : sidecar           ? sidecar->planned_arena_size
                                                  : std::nullopt;
  config.method_arena_size = keys["method_arena_size"].get<int64_t>();
  config.temporary_arena_size = keys["temporary_arena_size"].get<int64_t>();
  const std::optional<int64_t> input_size = optional_of<int64_t>(keys["input_size"]);
  const std::optional<int64_t> output_size = optional_of<int64_t>(keys["output_size"]);
  config.input_size = input_size ? input_size : sidecar ? sidecar->input_size : std::nullopt;
  config.output_size = output_size ? output_size : sidecar ? sidecar->output_size : std::nullopt;

  engine["backend"] = protocol::to_string(config.backend);
  keys["ns_ops"] = config.ns_ops();
  keys["planned_arena_size"] = or_null(config.planned_arena_size);
  keys["input_size"] = or_null(config.input_size);
  keys["output_size"] = or_null(config.output_size);
}

// profiling.input: one readable file per method input, each exactly as large
// as its input. Every file with a problem is one line.
void check_inputs(const std::vector<std::string>& files, const std::string& model_path,
                  const std::vector<ModelInput>& inputs, Problems& problems) {
  const std::string where = "profiling.input";
  const std::string program = fs::path(model_path).filename().string();
  if (files.size() != inputs.size()) {
    const auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    problems.add(ConfigProblem(where, count(files.size(), "file") + " given, but " + program + " has " +
                                          count(inputs.size(), "input") + " (one file per method input, in order)"));
    return;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string item = files.size() == 1 ? where : where + "[" + std::to_string(i) + "]";
    std::error_code error;
    const fs::file_status status = fs::status(files[i], error);
    if (!fs::exists(status)) {
      problems.add(ConfigProblem(item, files[i] + ": no such file"));
      continue;
    }
    if (!fs::is_regular_file(status)) {
      problems.add(ConfigProblem(item, files[i] + ": not a regular file"));
      continue;
    }
    const uint64_t size = fs::file_size(files[i], error);
    const ModelInput& input = inputs[i];
    if (error || size != input.nbytes) {
      problems.add(ConfigProblem(
          item, files[i] + ": " + (error ? "cannot read (" + error.message() + ")" : grouped(size) + " bytes given") +
                    ", input " + std::to_string(i) + " of " + program + " expects " + grouped(input.nbytes) + " (" +
                    input.dtype + ", " + grouped(input.numel) + " elements)"));
    }
  }
}

// A key given (not null) that changes nothing on the target is named, so a
// setting never passes silently.
std::vector<std::string> keys_without_effect(const Json& given, const std::string& target, const Origins& origins) {
  std::vector<std::string> warnings;
  for (const KeySpec& spec : profile_config_keys()) {
    if (spec.type == KeyType::Section || spec.type == KeyType::Reserved || affects(spec, target)) continue;
    const Json* node = &given;
    std::stringstream path(spec.path);
    for (std::string leaf; node != nullptr && std::getline(path, leaf, '.');) {
      const auto found = node->is_object() ? node->find(leaf) : node->end();
      node = node->is_object() && found != node->end() ? &*found : nullptr;
    }
    if (node == nullptr || node->is_null()) continue;
    const std::string source = origins.of(spec.path);
    warnings.push_back((source.empty() ? "" : source + ": ") + spec.path + ": has no effect on target " + target +
                       "; ignored");
  }
  return warnings;
}

// Every problem as its one line, naming the file or override that wrote the
// key; a problem with another file (the sidecar) names that file alone.
std::string problem_lines(const Problems& problems, const Json& given, const Origins& origins) {
  std::string lines;
  for (const ConfigProblem& problem : problems.all()) {
    const std::string& where = problem.where();
    const std::string top = where.substr(0, where.find_first_of(".["));
    const bool is_key = given.contains(top) || std::any_of(profile_config_keys().begin(), profile_config_keys().end(),
                                                           [&](const KeySpec& spec) { return spec.path == top; });
    const std::string source = is_key ? origins.of(where) : "";
    const std::string line =
        source.empty() ? problem.what() : ConfigProblem(source, problem.where() + ": " + problem.what_is_wrong()).what();
    lines += (lines.empty() ? "" : "\n") + line;
  }
  return lines;
}

}  // namespace

ProfileConfig load_profile_config(const std::string& path, const std::vector<std::string>& overrides,
                                  const ModelFactsReader& read_model_facts) {
  ProfileConfig config;
  Origins origins;
  const Json given = load_tree(path, overrides, &config.config_path, &origins);
  // Every key's type, range and allowed values first (the key table), then
  // the rules across keys, then the files they name. A rule runs only when
  // the keys it reads are sound, so that one mistake is reported once.
  Problems problems;
  Json resolved = check_against_keys(given, problems);
  const auto rule = [&](std::initializer_list<const char*> reads, const auto& step) {
    for (const char* key : reads) {
      if (problems.touches(key)) return false;
    }
    return problems.attempt(step);
  };
  const bool model_given = rule({"model.path"}, [&] { resolve_model(resolved["model"], config); });
  rule({"engine.config.cmsis_nn_path", "engine.config.cmsis_nn_ref"}, [&] {
    if (!resolved["engine"]["config"]["cmsis_nn_path"].is_null() &&
        !resolved["engine"]["config"]["cmsis_nn_ref"].is_null()) {
      fail("engine.config.cmsis_nn_ref", "cannot be combined with engine.config.cmsis_nn_path");
    }
  });
  resolve_target(resolved["target"], config);
  Json& profiling = resolved["profiling"];
  rule({"target.board", "profiling.pmu_counters"},
       [&] { profiling["pmu_counters"] = select_counters(profiling["pmu_counters"], config, problems); });
  rule({"profiling.window_min", "profiling.window_max"}, [&] { resolve_profiling(profiling, config); });
  if (!profiling["input"].is_null()) config.inputs = profiling["input"].get<std::vector<std::string>>();
  if (model_given) resolve_output(resolved["output"], config);
  config.run_timeout_s = static_cast<double>(resolved["timeouts"]["run"].get<int64_t>());
  rule({"build.offline", "build.update_dependencies", "frozen"}, [&] { resolve_build(resolved); });
  config.verbose = resolved["verbose"].get<bool>();

  std::vector<uint8_t> model_bytes;
  const bool model_read = model_given && rule({}, [&] { model_bytes = read_model_file(config.model_path); });
  std::optional<Sidecar> sidecar;
  const bool sidecar_read = model_read && rule({}, [&] { sidecar = read_sidecar(config.model_path, model_bytes); });
  if (sidecar_read) {
    rule({"engine.backend", "engine.config.ns_ops"}, [&] { resolve_engine(resolved["engine"], sidecar, config); });
  }
  const std::optional<ModelFacts> program = model_read ? read_model_facts(config.model_path) : std::nullopt;
  if (program && config.portable_ops_source == "program") config.portable_ops = program->portable_ops;
  resolved["engine"]["config"]["portable_ops"] = config.portable_ops;
  if (program && !config.inputs.empty() && !problems.touches("profiling.input")) {
    check_inputs(config.inputs, config.model_path, program->inputs, problems);
  }
  if (!problems.empty()) throw Failure(problem_lines(problems, given, origins), 2);
  config.warnings = keys_without_effect(given, config.target, origins);
  config.resolved = std::move(resolved);
  return config;
}

}  // namespace etns::tools
