#include "tools/profile/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <utility>

#include "tools/common/failure.h"
#include "tools/common/sha256.h"
#include "tools/common/text.h"
#include "tools/profile/config_tree.h"
#include "tools/profile/counters.h"

namespace etns::tools {
namespace {

using namespace config_detail;

constexpr const char* kSidecarSchema = "nsx-executorch.pte-manifest/1";

// ---------------------------------------------------------------------------
// Sections, in schema order. Each validates its keys and values, fills
// `config` and returns its part of the resolved configuration.

const std::vector<std::string> kLocations = {"tcm", "sram", "mram", "psram"};
const std::vector<std::string> kBufferLocations = {"tcm", "sram"};

Json read_model(const Section& model, ProfileConfig& config) {
  model.expect_keys({"path", "arena_size", "arena_location", "weights_location"});
  const std::optional<std::string> path = model.optional_path("path");
  if (!path) {
    fail(model.where("path"), "missing (give the .pte in the config file or as the override model.path=<file>)");
  }
  config.model_path = *path;
  config.arena_size = model.optional_integer("arena_size", 1);
  config.arena_location = model.optional_choice("arena_location", kLocations);
  if (config.arena_location && !contains(kBufferLocations, *config.arena_location)) {
    fail(model.where("arena_location"),
         "'" + *config.arena_location + "' is not supported for executorch (use tcm or sram)");
  }
  config.weights_location = model.optional_choice("weights_location", kLocations);
  if (config.weights_location == "psram") {
    fail(model.where("weights_location"), "'psram' is not supported for executorch (use tcm, sram or mram)");
  }
  Json resolved = Json::object();
  resolved["path"] = config.model_path;
  resolved["arena_size"] = or_null(config.arena_size);
  resolved["arena_location"] = or_null(config.arena_location);
  resolved["weights_location"] = or_null(config.weights_location);
  return resolved;
}

// engine keys as given; defaults come later, once the sidecar is known.
struct EngineKeys {
  std::optional<std::string> backend;
  std::optional<std::string> config_path;
  std::optional<std::string> source_path;
  std::optional<bool> ns_ops;
  std::optional<std::vector<std::string>> portable_ops;
  std::optional<int64_t> planned_arena_size;
  int64_t method_arena_size = 0;
  int64_t temporary_arena_size = 0;
  std::optional<int64_t> input_size;
  std::optional<int64_t> output_size;
  std::optional<std::string> planned_arena_location;
  std::optional<std::string> method_arena_location;
  std::optional<std::string> temporary_arena_location;
  std::optional<std::string> io_location;
  std::optional<std::string> cmsis_nn_path;
  std::optional<std::string> cmsis_nn_ref;
};

EngineKeys read_engine(const Section& engine) {
  engine.expect_keys({"type", "backend", "config", "config_path"});
  const std::string type = engine.choice("type", {"tflm", "helia-rt", "helia-aot", "executorch"}, "executorch");
  if (type != "executorch") fail(engine.where("type"), "'" + type + "' is not supported by etns (only executorch)");
  EngineKeys keys;
  keys.backend = engine.optional_choice("backend", {"arm", "ns"});
  keys.config_path = engine.optional_path("config_path");

  const Section config = engine.child("config");
  if (config.find("backend") != nullptr) fail(config.where("backend"), "use engine.backend");
  config.expect_keys({"source_path", "ns_ops", "portable_ops", "planned_arena_size", "method_arena_size",
                      "temporary_arena_size", "input_size", "output_size", "planned_arena_location",
                      "method_arena_location", "temporary_arena_location", "io_location", "cmsis_nn_path",
                      "cmsis_nn_ref"});
  keys.source_path = config.optional_path("source_path");
  keys.ns_ops = config.optional_boolean("ns_ops");
  keys.portable_ops = config.optional_operator_names("portable_ops");
  keys.planned_arena_size = config.optional_integer("planned_arena_size", 1);
  keys.method_arena_size = config.integer("method_arena_size", 1, 65536);
  keys.temporary_arena_size = config.integer("temporary_arena_size", 1, 32768);
  keys.input_size = config.optional_integer("input_size", 1);
  keys.output_size = config.optional_integer("output_size", 1);
  keys.planned_arena_location = config.optional_choice("planned_arena_location", kBufferLocations);
  keys.method_arena_location = config.optional_choice("method_arena_location", kBufferLocations);
  keys.temporary_arena_location = config.optional_choice("temporary_arena_location", kBufferLocations);
  keys.io_location = config.optional_choice("io_location", kBufferLocations);
  keys.cmsis_nn_path = config.optional_path("cmsis_nn_path");
  keys.cmsis_nn_ref = config.optional_string("cmsis_nn_ref", "a git ref");
  if (keys.cmsis_nn_path && keys.cmsis_nn_ref) {
    fail(config.where("cmsis_nn_ref"), "cannot be combined with engine.config.cmsis_nn_path");
  }
  return keys;
}

Json read_target(const Section& target, ProfileConfig& config) {
  target.expect_keys({"board", "toolchain", "transport", "clock", "jlink_serial", "usb_port", "segger_rtt_path",
                      "rtt_buffer_size_up", "heartbeat", "psram", "custom_socs", "custom_boards",
                      "ensure_board_powered"});
  Json resolved = Json::object();

  config.target = "qemu-m55";
  if (const Json* board = target.find("board")) {
    if (!board->is_string() || board->get_ref<const std::string&>().empty()) {
      fail(target.where("board"), "expected a board name, got " + describe(*board));
    }
    config.target = board->get<std::string>();
    if (config.target != "qemu-m55" && config.target != "host") {
      fail(target.where("board"),
           "no etns port for '" + config.target + "' yet (supported: qemu-m55, host; see docs/porting.md)");
    }
  }
  resolved["board"] = config.target;

  config.toolchain = target.choice("toolchain", {"arm-none-eabi-gcc", "gcc", "armclang", "atfe"}, "arm-none-eabi-gcc");
  if (config.toolchain == "gcc") config.toolchain = "arm-none-eabi-gcc";
  if (config.toolchain != "arm-none-eabi-gcc") {
    fail(target.where("toolchain"), "etns builds with arm-none-eabi-gcc only, got '" + config.toolchain + "'");
  }
  resolved["toolchain"] = config.toolchain;
  resolved["transport"] = target.choice("transport", {"rtt", "usb_cdc", "swo", "uart"}, "rtt");

  const Section clock = target.child("clock");
  clock.expect_keys({"cpu"});
  resolved["clock"] = Json::object();
  resolved["clock"]["cpu"] = or_null(clock.optional_string("cpu"));

  // A J-Link serial is all digits, so YAML reads it as a number.
  std::optional<std::string> jlink_serial;
  const Json* serial = target.find("jlink_serial");
  if (serial != nullptr && serial->is_number_integer()) {
    jlink_serial = std::to_string(serial->get<int64_t>());
  } else {
    jlink_serial = target.optional_string("jlink_serial");
  }
  resolved["jlink_serial"] = or_null(jlink_serial);
  resolved["usb_port"] = or_null(target.optional_string("usb_port"));
  resolved["segger_rtt_path"] = or_null(target.optional_string("segger_rtt_path"));
  resolved["rtt_buffer_size_up"] = or_null(target.optional_integer("rtt_buffer_size_up", 1));

  const Section heartbeat = target.child("heartbeat");
  heartbeat.expect_keys({"enabled", "every_n_ops", "every_ms", "host_timeout_s", "overall_timeout_s"});
  Json beats = Json::object();
  beats["enabled"] = heartbeat.boolean("enabled", true);
  beats["every_n_ops"] = heartbeat.integer("every_n_ops", 0, 8);
  beats["every_ms"] = heartbeat.integer("every_ms", 0, 2000);
  beats["host_timeout_s"] = heartbeat.integer("host_timeout_s", 1, 30);
  beats["overall_timeout_s"] = or_null(heartbeat.optional_integer("overall_timeout_s", 1));
  resolved["heartbeat"] = std::move(beats);

  const Section psram = target.child("psram");
  psram.expect_keys({"clock_hz"});
  const std::vector<int64_t> clocks = {12000000, 24000000, 48000000, 96000000, 125000000, 192000000, 250000000};
  const int64_t clock_hz = psram.integer("clock_hz", 1, 48000000);
  if (!std::count(clocks.begin(), clocks.end(), clock_hz)) {
    std::vector<std::string> listed;
    for (int64_t hz : clocks) listed.push_back(std::to_string(hz));
    fail(psram.where("clock_hz"), "expected one of " + join(listed) + " (Hz), got " + std::to_string(clock_hz));
  }
  resolved["psram"] = Json::object();
  resolved["psram"]["clock_hz"] = clock_hz;

  for (const char* key : {"custom_socs", "custom_boards"}) {
    if (target.is_set(key)) fail(target.where(key), "not supported by etns");
    resolved[key] = nullptr;
  }
  resolved["ensure_board_powered"] = target.boolean("ensure_board_powered", false);
  return resolved;
}

Json read_profiling(const Section& profiling, ProfileConfig& config) {
  profiling.expect_keys({"pmu_counters", "per_layer", "iterations", "warmup", "aggregation", "window_mode",
                         "window_target_ms", "window_min", "window_max", "clean_window_probe", "clean_window_trace",
                         "force_shared_sram", "extreme_mode"});
  Json resolved = Json::object();
  resolved["pmu_counters"] = select_counters(profiling, config);
  config.per_layer = profiling.boolean("per_layer", true);
  config.iterations = profiling.integer("iterations", 1, 100);
  config.warmup = profiling.integer("warmup", 0, 5);
  config.aggregation = profiling.choice("aggregation", {"median", "mean", "trimmed"}, "median");
  resolved["per_layer"] = config.per_layer;
  resolved["iterations"] = config.iterations;
  resolved["warmup"] = config.warmup;
  resolved["aggregation"] = config.aggregation;
  resolved["window_mode"] = profiling.choice("window_mode", {"auto", "fixed"}, "auto");
  resolved["window_target_ms"] = profiling.integer("window_target_ms", 1, 1000);
  const int64_t window_min = profiling.integer("window_min", 1, 10);
  const int64_t window_max = profiling.integer("window_max", 1, 500000);
  if (window_max < window_min) {
    fail(profiling.where("window_max"),
         "must be >= window_min (" + std::to_string(window_min) + "), got " + std::to_string(window_max));
  }
  resolved["window_min"] = window_min;
  resolved["window_max"] = window_max;
  const std::string probe = profiling.choice("clean_window_probe", {"infer", "busy_loop"}, "infer");
  if (probe == "busy_loop") {
    fail(profiling.where("clean_window_probe"), "busy_loop is not supported for executorch (use infer)");
  }
  resolved["clean_window_probe"] = probe;
  for (const char* key : {"clean_window_trace", "force_shared_sram", "extreme_mode"}) {
    resolved[key] = profiling.boolean(key, false);
  }
  return resolved;
}

Json read_power(const Section& power) {
  power.expect_keys({"enabled"});
  if (power.boolean("enabled", false)) fail(power.where("enabled"), "etns cannot measure power for executorch");
  Json resolved = Json::object();
  resolved["enabled"] = false;
  return resolved;
}

Json read_output(const Section& output, ProfileConfig& config) {
  output.expect_keys({"format", "dir", "model_explorer", "detailed"});
  const Json* format = output.find("format");
  if (format != nullptr && *format == "model-explorer") {
    fail(output.where("format"), "'model-explorer' is not a primary format (use csv or json)");
  }
  config.output_format = output.choice("format", {"csv", "json"}, "csv");
  // The default is relative to the current folder, like any path not written
  // in the file, and names program and target, so that runs of other
  // programs or on the other target never land in one another's folder.
  const std::string stem = fs::path(config.model_path).stem().string();
  config.output_dir = output.optional_path("dir").value_or(
      absolute_path(fs::current_path(), "./results/" + stem + "-" + config.target));
  config.detailed = output.boolean("detailed", false);
  Json resolved = Json::object();
  resolved["format"] = config.output_format;
  resolved["dir"] = config.output_dir;
  resolved["model_explorer"] = output.boolean("model_explorer", true);
  resolved["detailed"] = config.detailed;
  return resolved;
}

Json read_timeouts(const Section& timeouts, ProfileConfig& config) {
  const std::vector<std::pair<std::string, int64_t>> defaults = {
      {"configure", 120}, {"build", 300}, {"flash", 120}, {"probe", 10}, {"run", 900}};
  std::vector<std::string> keys;
  for (const auto& entry : defaults) keys.push_back(entry.first);
  timeouts.expect_keys(keys);
  Json resolved = Json::object();
  for (const auto& [key, fallback] : defaults) resolved[key] = timeouts.integer(key, 1, fallback);
  config.run_timeout_s = static_cast<double>(resolved["run"].get<int64_t>());
  return resolved;
}

// build.* and the top-level `frozen`, its deprecated alias for build.offline.
Json read_build(const Section& build, const Section& top) {
  build.expect_keys({"channel", "module_overrides", "compiler_launcher", "update_dependencies", "offline"});
  Json resolved = Json::object();
  resolved["channel"] = or_null(build.optional_string("channel"));
  const Json* overrides = build.find("module_overrides");
  if (overrides != nullptr && !overrides->is_null() && !overrides->is_object()) {
    fail(build.where("module_overrides"), "expected a mapping or null, got " + describe(*overrides));
  }
  resolved["module_overrides"] = overrides != nullptr ? *overrides : Json(nullptr);
  resolved["compiler_launcher"] = or_null(build.optional_string("compiler_launcher"));
  const bool update = build.boolean("update_dependencies", false);
  const std::optional<bool> offline = build.optional_boolean("offline");
  const std::optional<bool> frozen = top.optional_boolean("frozen");
  if (offline && frozen && *offline != *frozen) {
    fail("frozen", "deprecated alias of build.offline, which says " + std::string(*offline ? "true" : "false") +
                       " (drop frozen)");
  }
  const bool effective_offline = offline.value_or(frozen.value_or(false));
  if (update && effective_offline) {
    fail(build.where("update_dependencies"),
         std::string("cannot be combined with ") + (offline ? "build.offline" : "frozen (alias of build.offline)"));
  }
  resolved["update_dependencies"] = update;
  resolved["offline"] = effective_offline;
  return resolved;
}

// ---------------------------------------------------------------------------
// The model file and its optional sidecar.

std::vector<uint8_t> read_model_file(const std::string& path) {
  const std::string where = "model.path";
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) fail(where, path + ": no such file");
  if (!fs::is_regular_file(status)) fail(where, path + ": not a regular file");
  if (fs::path(path).extension() != ".pte") fail(where, path + ": not a .pte file (executorch programs end in .pte)");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(where, path + ": cannot read (" + std::strerror(errno) + ")");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(where, path + ": cannot read (read failed)");
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
  std::optional<std::string> kernel_provider;
  std::optional<bool> requires_ns_ops;
  std::optional<int64_t> planned_arena_size;
  std::optional<int64_t> input_size;   // the first input's
  std::optional<int64_t> output_size;  // the first output's
  std::optional<std::vector<std::string>> portable_ops;
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
    if (*provider != "arm" && *provider != "ns") {
      fail(path, "kernel_provider: expected arm or ns, got " + describe(*provider));
    }
    sidecar.kernel_provider = provider->get<std::string>();
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
      std::vector<std::string> names;
      for (size_t i = 0; i < portable->size(); ++i) {
        const nlohmann::json& name = (*portable)[i];
        if (!name.is_string()) {
          fail(path, "operators.portable[" + std::to_string(i) + "]: expected a string, got " + describe(name));
        }
        names.push_back(name.get<std::string>());
      }
      sidecar.portable_ops = std::move(names);
    }
  }
  return sidecar;
}

// engine: explicit keys win, then the sidecar, then the built-in defaults.
Json resolve_engine(const EngineKeys& keys, const std::optional<Sidecar>& sidecar, ProfileConfig& config) {
  const std::string where = "engine.config.ns_ops";
  config.backend = keys.backend.value_or(sidecar && sidecar->kernel_provider ? *sidecar->kernel_provider : "arm");
  const bool sidecar_needs_ns_ops = sidecar && sidecar->requires_ns_ops.value_or(false);
  config.ns_ops = keys.ns_ops.value_or(sidecar_needs_ns_ops);
  if (config.ns_ops && config.backend == "arm") {
    if (keys.ns_ops) fail(where, "true needs engine.backend ns (the NS kernels ship only with ns-cmsis-nn), got arm");
    fail(where, sidecar->path + " says the program needs NS ops, which need engine.backend ns, got arm");
  }
  if (sidecar_needs_ns_ops && !config.ns_ops) {
    fail(where, "false, but " + sidecar->path + " says the program needs NS ops (requires_ns_ops: true)");
  }
  config.portable_ops = keys.portable_ops.value_or(sidecar && sidecar->portable_ops ? *sidecar->portable_ops
                                                                                    : std::vector<std::string>{});
  // Without any size the program's own memory plan sizes the arena.
  config.planned_arena_size = keys.planned_arena_size ? keys.planned_arena_size
                              : config.arena_size     ? config.arena_size
                              : sidecar               ? sidecar->planned_arena_size
                                                      : std::nullopt;
  config.method_arena_size = keys.method_arena_size;
  config.temporary_arena_size = keys.temporary_arena_size;
  config.input_size = keys.input_size ? keys.input_size : sidecar ? sidecar->input_size : std::nullopt;
  config.output_size = keys.output_size ? keys.output_size : sidecar ? sidecar->output_size : std::nullopt;

  Json engine_config = Json::object();
  // Recorded only: etns's runtime is built in, so no checkout is read.
  engine_config["source_path"] = or_null(keys.source_path);
  engine_config["ns_ops"] = config.ns_ops;
  engine_config["portable_ops"] = config.portable_ops;
  engine_config["planned_arena_size"] = or_null(config.planned_arena_size);
  engine_config["method_arena_size"] = config.method_arena_size;
  engine_config["temporary_arena_size"] = config.temporary_arena_size;
  engine_config["input_size"] = or_null(config.input_size);
  engine_config["output_size"] = or_null(config.output_size);
  engine_config["planned_arena_location"] = or_null(keys.planned_arena_location);
  engine_config["method_arena_location"] = or_null(keys.method_arena_location);
  engine_config["temporary_arena_location"] = or_null(keys.temporary_arena_location);
  engine_config["io_location"] = or_null(keys.io_location);
  engine_config["cmsis_nn_path"] = or_null(keys.cmsis_nn_path);
  engine_config["cmsis_nn_ref"] = or_null(keys.cmsis_nn_ref);

  Json resolved = Json::object();
  resolved["type"] = "executorch";
  resolved["backend"] = config.backend;
  resolved["config"] = std::move(engine_config);
  resolved["config_path"] = or_null(keys.config_path);
  return resolved;
}

}  // namespace

ProfileConfig load_profile_config(const std::string& path, const std::vector<std::string>& overrides) {
  ProfileConfig config;
  const Json root = load_tree(path, overrides, &config.config_path);
  const Section top(root, "");
  for (const char* owned : {"platform_registry", "compatibility_baseline", "compatibility"}) {
    if (top.find(owned) != nullptr) fail(owned, "belongs to the tool itself and cannot be set in a config");
  }
  top.expect_keys({"model", "engine", "target", "profiling", "power", "output", "timeouts", "build", "frozen",
                   "work_dir", "clean", "verbose"});

  // Keys and types first, then the files they name.
  Json model = read_model(top.child("model"), config);
  const EngineKeys engine = read_engine(top.child("engine"));
  Json target = read_target(top.child("target"), config);
  Json profiling = read_profiling(top.child("profiling"), config);
  Json power = read_power(top.child("power"));
  Json output = read_output(top.child("output"), config);
  Json timeouts = read_timeouts(top.child("timeouts"), config);
  Json build = read_build(top.child("build"), top);
  const std::optional<std::string> work_dir = top.optional_path("work_dir");
  const bool clean = top.boolean("clean", false);
  config.verbose = top.boolean("verbose", false);

  const std::vector<uint8_t> model_bytes = read_model_file(config.model_path);
  const std::optional<Sidecar> sidecar = read_sidecar(config.model_path, model_bytes);

  Json& resolved = config.resolved;
  resolved = Json::object();
  resolved["model"] = std::move(model);
  resolved["engine"] = resolve_engine(engine, sidecar, config);
  resolved["target"] = std::move(target);
  resolved["profiling"] = std::move(profiling);
  resolved["power"] = std::move(power);
  resolved["output"] = std::move(output);
  resolved["timeouts"] = std::move(timeouts);
  const bool offline = build["offline"].get<bool>();
  resolved["build"] = std::move(build);
  resolved["frozen"] = offline;  // the deprecated alias, as it took effect
  resolved["work_dir"] = or_null(work_dir);
  resolved["clean"] = clean;
  resolved["verbose"] = config.verbose;
  return config;
}

}  // namespace etns::tools
