#include "tools/evidence/config/config_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "protocol/provider.h"
#include "tools/evidence/config/config_tree.h"

namespace etns::tools {
namespace {

using config_detail::Json;

// One table row, written as a chain: Key(...).at_least(1).unit("bytes").
class Key {
 public:
  Key(std::string path, KeyType type, Json fallback, std::string help) {
    spec_.path = std::move(path);
    spec_.type = type;
    spec_.nullable = fallback.is_null();
    spec_.fallback = std::move(fallback);
    spec_.help = std::move(help);
    spec_.targets = profile_targets();
  }
  // The key changes nothing on any target: checked and frozen into the bundle only.
  Key&& recorded_only() && {
    spec_.targets.clear();
    return std::move(*this);
  }
  // The key changes what runs on these targets only.
  Key&& only_on(std::vector<std::string> targets) && {
    spec_.targets = std::move(targets);
    return std::move(*this);
  }
  Key&& at_least(int64_t min) && {
    spec_.min = min;
    return std::move(*this);
  }
  Key&& at_most(int64_t max, std::string reason) && {
    spec_.max = max;
    spec_.max_reason = std::move(reason);
    return std::move(*this);
  }
  Key&& one_of(std::vector<Json> choices) && {
    spec_.choices = std::move(choices);
    return std::move(*this);
  }
  Key&& refuse(std::vector<Json> values, std::string message) && {
    spec_.refusals.push_back({std::move(values), std::move(message)});
    return std::move(*this);
  }
  Key&& kind(std::string text) && {
    spec_.kind = std::move(text);
    return std::move(*this);
  }
  Key&& other(std::string message) && {
    spec_.other = std::move(message);
    return std::move(*this);
  }
  Key&& unit(std::string text) && {
    spec_.unit = std::move(text);
    return std::move(*this);
  }
  Key&& derived(std::string text) && {
    spec_.default_text = std::move(text);
    return std::move(*this);
  }
  Key&& not_null() && {
    spec_.nullable = false;
    return std::move(*this);
  }
  operator KeySpec() && { return std::move(spec_); }  // NOLINT: rows convert implicitly

 private:
  KeySpec spec_;
};

Key section(std::string path, std::string help) {
  return Key(std::move(path), KeyType::Section, nullptr, std::move(help));
}
Key boolean(std::string path, Json fallback, std::string help) {
  return Key(std::move(path), KeyType::Boolean, std::move(fallback), std::move(help));
}
Key integer(std::string path, Json fallback, int64_t min, std::string help) {
  return Key(std::move(path), KeyType::Integer, std::move(fallback), std::move(help)).at_least(min);
}
Key bytes(std::string path, Json fallback, std::string help) {
  return integer(std::move(path), std::move(fallback), 1, std::move(help)).unit("bytes");
}
Key text(std::string path, std::string help) { return Key(std::move(path), KeyType::String, nullptr, std::move(help)); }
Key path(std::string path, std::string help) { return Key(std::move(path), KeyType::Path, nullptr, std::move(help)); }
Key choice(std::string path, Json fallback, std::vector<Json> choices, std::string help) {
  return Key(std::move(path), KeyType::Choice, std::move(fallback), std::move(help)).one_of(std::move(choices));
}
Key unsupported(std::string path) {
  return Key(std::move(path), KeyType::Unsupported, nullptr, "not supported by etns").recorded_only();
}
Key reserved(std::string path, std::string why) {
  return Key(std::move(path), KeyType::Reserved, nullptr, std::move(why));
}

constexpr const char* kQemu = "qemu-m55";
const std::vector<Json> kLocations = {"tcm", "sram", "mram", "psram"};
const std::vector<Json> kBufferLocations = {"tcm", "sram"};
const char* const kToolOwned = "belongs to the tool itself and cannot be set in a config";

// engine.backend's values: the providers' own names.
std::vector<Json> provider_names() {
  std::vector<Json> names;
  for (const protocol::Provider provider : protocol::kProviders) names.emplace_back(protocol::to_string(provider));
  return names;
}

// The reference's warm-up and iteration counts are unbounded; etns keeps every
// sample and hands the firmware 32-bit counts, so it stops well short of both.
constexpr int64_t kMaxIterations = 10000;
constexpr int64_t kMaxWarmup = 1000;

// model and engine: the program and how it runs.
std::vector<KeySpec> model_and_engine_keys() {
  return {
      section("model", "the program to profile"),
      path("model.path", "the .pte program (required; relative to the config file)"),
      bytes("model.arena_size", nullptr, "the planned arena, when engine.config.planned_arena_size is not set"),
      choice("model.arena_location", nullptr, kLocations, "where the planned arena lives")
          .recorded_only()
          .refuse({"mram", "psram"}, "'{}' is not supported for executorch (use tcm or sram)"),
      choice("model.weights_location", nullptr, kLocations, "where the weights live")
          .recorded_only()
          .refuse({"psram"}, "'{}' is not supported for executorch (use tcm, sram or mram)"),

      section("engine", "the inference engine"),
      choice("engine.type", "executorch", {"tflm", "helia-rt", "helia-aot", "executorch"}, "the runtime")
          .refuse({"tflm", "helia-rt", "helia-aot"}, "'{}' is not supported by etns (only executorch)"),
      choice("engine.backend", nullptr, provider_names(), "the kernel provider")
          .derived("the sidecar's kernel_provider, else arm"),
      section("engine.config", "ExecuTorch settings, checked like every other section"),
      reserved("engine.config.backend", "use engine.backend"),
      path("engine.config.source_path", "an ExecuTorch checkout; the runtime is built in").recorded_only(),
      boolean("engine.config.ns_ops", nullptr,
              "run the cortex_m_ns Tier-1 kernels: follows engine.backend, a value that disagrees is refused")
          .derived("true for engine.backend ns, false for arm"),
      Key("engine.config.portable_ops", KeyType::OperatorList, nullptr,
          "the aten:: operators the selective build registers")
          .not_null()
          .derived("the program's own: the aten:: operators its instructions use"),
      bytes("engine.config.planned_arena_size", nullptr, "the planned (activation) arena")
          .derived("model.arena_size, else the sidecar's, else the program's plan"),
      bytes("engine.config.method_arena_size", 65536, "the method arena (built at load)"),
      bytes("engine.config.temporary_arena_size", 32768, "the kernels' scratch arena"),
      bytes("engine.config.input_size", nullptr, "the input buffer").derived("the sidecar's first input"),
      bytes("engine.config.output_size", nullptr, "the output buffer").derived("the sidecar's first output"),
      choice("engine.config.planned_arena_location", nullptr, kBufferLocations, "memory of the planned arena")
          .recorded_only(),
      choice("engine.config.method_arena_location", nullptr, kBufferLocations, "memory of the method arena")
          .recorded_only(),
      choice("engine.config.temporary_arena_location", nullptr, kBufferLocations, "memory of the temporary arena")
          .recorded_only(),
      choice("engine.config.io_location", nullptr, kBufferLocations, "memory of the input and output")
          .recorded_only(),
      path("engine.config.cmsis_nn_path", "a CMSIS-NN checkout").recorded_only(),
      text("engine.config.cmsis_nn_ref", "a CMSIS-NN git ref, not with cmsis_nn_path")
          .kind("a git ref")
          .recorded_only(),
      path("engine.config_path", "an engine configuration file").recorded_only(),
  };
}

// target: where the program runs, and the reference's board settings.
std::vector<KeySpec> target_keys() {
  return {
      section("target", "where the program runs"),
      choice("target.board", "qemu-m55", {"qemu-m55", "host"},
             "qemu-m55: executed instructions and estimated cycles under QEMU; host: wall-clock time")
          .kind("a board name")
          .other("no etns port for '{}' yet (supported: qemu-m55, host; see docs/porting.md)"),
      choice("target.toolchain", "arm-none-eabi-gcc", {"arm-none-eabi-gcc", "gcc", "armclang", "atfe"},
             "the firmware's compiler; gcc means arm-none-eabi-gcc")
          .only_on({kQemu})
          .refuse({"armclang", "atfe"}, "etns builds with arm-none-eabi-gcc only, got '{}'"),
      choice("target.transport", "rtt", {"rtt", "usb_cdc", "swo", "uart"}, "the board link").recorded_only(),
      section("target.clock", "clocks"),
      text("target.clock.cpu", "the CPU clock mode").recorded_only(),
      Key("target.jlink_serial", KeyType::Serial, nullptr, "the J-Link probe's serial number").recorded_only(),
      text("target.usb_port", "the board's USB port").recorded_only(),
      text("target.segger_rtt_path", "the SEGGER RTT folder").recorded_only(),
      bytes("target.rtt_buffer_size_up", nullptr, "the RTT up-buffer").recorded_only(),
      section("target.heartbeat", "the firmware's liveness messages"),
      boolean("target.heartbeat.enabled", true, "send heartbeats").recorded_only(),
      integer("target.heartbeat.every_n_ops", 8, 0, "a heartbeat every N operators").recorded_only(),
      integer("target.heartbeat.every_ms", 2000, 0, "a heartbeat every N ms").unit("ms").recorded_only(),
      integer("target.heartbeat.host_timeout_s", 30, 1, "silence the host tolerates").unit("s").recorded_only(),
      integer("target.heartbeat.overall_timeout_s", nullptr, 1, "the whole run's limit").unit("s").recorded_only(),
      section("target.psram", "external RAM"),
      integer("target.psram.clock_hz", 48000000, 1, "the PSRAM clock")
          .one_of({12000000, 24000000, 48000000, 96000000, 125000000, 192000000, 250000000})
          .unit("Hz")
          .recorded_only(),
      unsupported("target.custom_socs"),
      unsupported("target.custom_boards"),
      boolean("target.ensure_board_powered", false, "power the board first").recorded_only(),
  };
}

// profiling and power: what is measured and how often.
std::vector<KeySpec> profiling_keys() {
  return {
      section("profiling", "what is measured and how often"),
      Key("profiling.pmu_counters", KeyType::CounterSelection, {{"cpu", "default"}},
          "counter group -> default, all or a list of counters; a null group is dropped")
          .kind("a mapping of counter group to default, all or a list of counters"),
      boolean("profiling.per_layer", true, "run the per-instruction pass"),
      integer("profiling.iterations", 100, 1, "measured runs per pass")
          .at_most(kMaxIterations,
                   "every sample is kept in memory and in profile_results.json, and the firmware counts in 32 bits"),
      integer("profiling.warmup", 5, 0, "unmeasured runs before each pass")
          .at_most(kMaxWarmup, "warm-up runs are not measured; more only take time"),
      choice("profiling.aggregation", "median", {"median", "mean", "trimmed"}, "how iterations reduce to one value"),
      Key("profiling.input", KeyType::PathList, nullptr,
          "the input's bytes, one file per method input (relative to the config file); --input overrides it")
          .derived("all zeros"),
      choice("profiling.window_mode", "auto", {"auto", "fixed"}, "clean-window sizing").recorded_only(),
      integer("profiling.window_target_ms", 1000, 1, "clean-window target").unit("ms").recorded_only(),
      integer("profiling.window_min", 10, 1, "clean-window minimum runs").recorded_only(),
      integer("profiling.window_max", 500000, 1, "clean-window maximum runs, >= window_min").recorded_only(),
      choice("profiling.clean_window_probe", "infer", {"infer", "busy_loop"}, "clean-window probe")
          .refuse({"busy_loop"}, "{} is not supported for executorch (use infer)"),
      boolean("profiling.clean_window_trace", false, "trace the clean window").recorded_only(),
      boolean("profiling.force_shared_sram", false, "force shared SRAM").recorded_only(),
      boolean("profiling.extreme_mode", false, "the reference's extreme mode").recorded_only(),

      section("power", "power measurement"),
      boolean("power.enabled", false, "measure power").refuse({true}, "etns cannot measure power for executorch"),
  };
}

// output, timeouts, build and the top-level keys.
std::vector<KeySpec> output_and_build_keys() {
  return {
      section("output", "the bundle"),
      choice("output.format", "csv", {"csv", "json"}, "csv adds profile_results.csv to the JSON")
          .refuse({"model-explorer"}, "'{}' is not a primary format (use csv or json)"),
      path("output.dir", "the bundle folder (--out sets it)").derived("./results/<program>-<target>"),
      boolean("output.model_explorer", true, "a Model Explorer overlay").recorded_only(),
      boolean("output.detailed", false, "detailed/profile_<group>.csv per counter group"),

      section("timeouts", "limits in seconds"),
      integer("timeouts.configure", 120, 1, "configure step").unit("s").recorded_only(),
      integer("timeouts.build", 300, 1, "build step").unit("s").recorded_only(),
      integer("timeouts.flash", 120, 1, "flash step").unit("s").recorded_only(),
      integer("timeouts.probe", 10, 1, "probe step").unit("s").recorded_only(),
      integer("timeouts.run", 900, 1, "one QEMU run").unit("s").only_on({kQemu}),

      section("build", "the reference's build settings"),
      text("build.channel", "the dependency channel").recorded_only(),
      Key("build.module_overrides", KeyType::Mapping, nullptr, "module name -> source").recorded_only(),
      text("build.compiler_launcher", "e.g. ccache").recorded_only(),
      boolean("build.update_dependencies", false, "update dependencies first, not when offline").recorded_only(),
      boolean("build.offline", nullptr, "build without the network").derived("frozen, else false").recorded_only(),
      boolean("frozen", nullptr, "deprecated alias of build.offline").derived("build.offline").recorded_only(),
      path("work_dir", "the reference's work folder").recorded_only(),
      boolean("clean", false, "start from a clean build").recorded_only(),
      boolean("verbose", false, "more output").recorded_only(),
      reserved("platform_registry", kToolOwned),
      reserved("compatibility_baseline", kToolOwned),
      reserved("compatibility", kToolOwned),
  };
}

// Every key in schema order: the order of the resolved configuration.
std::vector<KeySpec> make_table() {
  std::vector<KeySpec> table;
  for (const auto part : {model_and_engine_keys, target_keys, profiling_keys, output_and_build_keys}) {
    std::vector<KeySpec> keys = part();
    table.insert(table.end(), std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
  }
  return table;
}

std::string as_yaml(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_object()) return value.dump();
  std::string out;
  for (const auto& item : value.items()) out += (out.empty() ? "" : ", ") + item.key() + ": " + as_yaml(item.value());
  return "{" + out + "}";
}

std::string listed(const std::vector<Json>& values) {
  std::vector<std::string> words;
  for (const Json& value : values) words.push_back(as_yaml(value));
  return config_detail::join(words);
}

// The type column: what a value must be, with its limit and unit.
std::string type_text(const KeySpec& spec) {
  if (spec.type == KeyType::Section) return "section";
  if (spec.type == KeyType::Reserved) return "not settable";
  if (spec.type == KeyType::Unsupported) return "null only";
  std::string text = expected_kind(spec);
  if (spec.max != std::numeric_limits<int64_t>::max()) text += fmt::format(", at most {}", spec.max);
  if (!spec.unit.empty()) text += " (" + spec.unit + ")";
  return text;
}

std::string default_text(const KeySpec& spec) {
  if (!spec.default_text.empty()) return spec.default_text;
  if (spec.type == KeyType::Section || spec.type == KeyType::Reserved) return "";
  return spec.fallback.is_null() ? "null" : as_yaml(spec.fallback);
}

std::string help_text(const KeySpec& spec) {
  std::string help = spec.help;
  const bool settable = spec.type != KeyType::Section && spec.type != KeyType::Reserved &&
                        spec.type != KeyType::Unsupported;
  if (settable && spec.targets.empty()) {
    help += " (recorded only)";
  } else if (settable && spec.targets != profile_targets()) {
    help += " (" + config_detail::join(spec.targets) + " only)";
  }
  std::vector<Json> refused;
  for (const Refusal& refusal : spec.refusals) {
    refused.insert(refused.end(), refusal.values.begin(), refusal.values.end());
  }
  if (!refused.empty()) help += "; etns refuses " + listed(refused);
  if (!spec.max_reason.empty()) help += fmt::format(" (at most {}: {})", spec.max, spec.max_reason);
  return help;
}

}  // namespace

const std::vector<std::string>& profile_targets() {
  static const std::vector<std::string> kTargets = {kQemu, "host"};
  return kTargets;
}

bool affects(const KeySpec& spec, const std::string& target) {
  return std::find(spec.targets.begin(), spec.targets.end(), target) != spec.targets.end();
}

const std::vector<KeySpec>& profile_config_keys() {
  static const std::vector<KeySpec> kKeys = make_table();
  return kKeys;
}

std::string expected_kind(const KeySpec& spec) {
  if (!spec.kind.empty()) return spec.kind;
  if (!spec.choices.empty()) return "one of " + listed(spec.choices);
  switch (spec.type) {
    case KeyType::Boolean:
      return "true or false";
    case KeyType::Integer:
      return config_detail::integer_kind(spec.min);
    case KeyType::Path:
      return "a path";
    case KeyType::PathList:
      return "a path or a list of paths";
    case KeyType::OperatorList:
      return "a list of operator names";
    case KeyType::Section:
    case KeyType::Mapping:
    case KeyType::CounterSelection:
      return "a mapping";
    case KeyType::Unsupported:
      return "null";
    case KeyType::Reserved:
      return "nothing";
    case KeyType::String:
    case KeyType::Serial:
    case KeyType::Choice:
      break;
  }
  return "a non-empty string";
}

std::string key_listing_text() {
  std::string out;
  for (const KeySpec& spec : profile_config_keys()) {
    const std::string fallback = default_text(spec);
    out += fmt::format("{:<40} {:<46} {}{}\n", spec.path, type_text(spec), help_text(spec),
                       fallback.empty() ? "" : " (default: " + fallback + ")");
  }
  return out;
}

std::string key_reference_markdown() {
  // Prose cells may hold "<program>" or "a | b": escaped so Markdown shows them as written.
  const auto prose = [](const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '|' ? "\\|" : std::string(1, c);
    return out;
  };
  const auto code = [](const std::string& text) { return text.empty() ? std::string() : "`" + text + "`"; };
  std::string out = "| key | type | default | description |\n|---|---|---|---|\n";
  for (const KeySpec& spec : profile_config_keys()) {
    const std::string key = spec.type == KeyType::Section ? "**" + code(spec.path) + "**" : code(spec.path);
    const std::string fallback = spec.default_text.empty() ? code(default_text(spec)) : prose(spec.default_text);
    out += fmt::format("| {} | {} | {} | {} |\n", key, prose(type_text(spec)), fallback, prose(help_text(spec)));
  }
  return out;
}

}  // namespace etns::tools
