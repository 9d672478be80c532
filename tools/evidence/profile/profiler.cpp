#include "tools/evidence/profile/profiler.h"

#include <chrono>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "kernels/registry.h"
#include "runtime/core/crc32.h"
#include "runtime/exec/budget.h"
#include "protocol/bundle.h"
#include "protocol/counter_classes.h"
#include "protocol/job.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/evidence/runner/qemu_session.h"

namespace etns::tools {
namespace {

using Clock = std::chrono::steady_clock;
namespace bundle = protocol::bundle;

// A failure that already knows its issue code; any other Failure is "run.failed".
class StageFailure : public Failure {
 public:
  StageFailure(const std::string& message, std::string code) : Failure(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

Issue make_issue(const std::string& code, const std::string& severity, const std::string& message,
                 nlohmann::json context = nlohmann::json::object()) {
  return Issue{code, severity, message, std::move(context)};
}

const CounterSpec& primary_counter(const std::string& target) {
  for (const CounterSpec& counter : counter_catalogue(target)) {
    if (counter.source == kEtnsClassNames[kEtnsClassTotal] || counter.source == "wall_ns") return counter;
  }
  throw Failure("target " + target + " has no primary counter");
}

std::string first_line_of_file(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) == 0) {
      const size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "";
}

// What the program is, from an unbound load: sizes, operators, planned memory.
struct ProgramFacts {
  std::vector<std::string> operators;       // the operator table, in order
  std::set<std::string> used_operators;     // those the instructions call
  std::vector<size_t> input_sizes;          // bytes of each input
  std::vector<size_t> planned_bytes;
  uint64_t planned_arena_bytes = 0;  // laid out as the runtime places them (runtime/exec/budget.h)
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  size_t inputs = 0;
  size_t outputs = 0;
};

ProgramFacts read_program_facts(const std::string& path) {
  std::unique_ptr<HostSession> loaded;
  try {
    loaded = std::make_unique<HostSession>(path, nullptr);
  } catch (const Failure& failure) {
    throw StageFailure(failure.what(), "run.load_failed");
  }
  const HostSession& session = *loaded;
  ProgramFacts facts;
  const runtime::Method& method = session.method();
  for (size_t i = 0; i < method.operator_count(); ++i) facts.operators.push_back(method.operator_name(i));
  for (size_t i = 0; i < method.instruction_count(); ++i) {
    if (method.instruction(i).operator_name != nullptr) facts.used_operators.insert(method.instruction(i).operator_name);
  }
  for (size_t i = 0; i < method.input_count(); ++i) facts.input_sizes.push_back(method.input(i).nbytes);
  for (size_t i = 0; i < method.meta().planned_buffer_count; ++i) {
    facts.planned_bytes.push_back(method.meta().planned_buffer_bytes[i]);
  }
  facts.planned_arena_bytes = runtime::planned_memory_needed(method.meta());
  facts.inputs = method.input_count();
  facts.outputs = method.output_count();
  if (facts.inputs > 0) facts.input_bytes = method.input(0).nbytes;
  if (facts.outputs > 0) facts.output_bytes = method.output(0).nbytes;
  return facts;
}

// The configuration's promises about memory and kernels, checked before the
// run as the reference's build and load would (profiler.md §3.8, §5.2).
void check_against_config(const ProfileConfig& config, const ProgramFacts& facts, ProfileResult& result) {
  // The arena must hold the buffers as the runtime places them, each starting
  // 16-byte aligned (place_planned_buffers), not only their plain sum.
  const uint64_t planned = facts.planned_arena_bytes;
  const std::optional<int64_t> arena = config.planned_arena_size ? config.planned_arena_size : config.arena_size;
  if (arena && static_cast<uint64_t>(*arena) < planned) {
    const std::string layout = facts.planned_bytes.size() > 1
                                   ? " (" + std::to_string(facts.planned_bytes.size()) +
                                         " buffers, each starting 16-byte aligned)"
                                   : "";
    result.issues.push_back(make_issue("memory.planned_arena_too_small", bundle::kSeverityError,
                                       "the planned arena is " + std::to_string(*arena) + " bytes, the program plans " +
                                           std::to_string(planned) + layout,
                                       {{"configured", *arena}, {"required", planned}}));
  }
  if (facts.inputs != 1 || facts.outputs != 1) {
    result.issues.push_back(make_issue("run.io_count", bundle::kSeverityError,
                                       "the method has " + std::to_string(facts.inputs) + " inputs and " +
                                           std::to_string(facts.outputs) + " outputs; profiling takes one of each"));
  }
  if (config.input_size && static_cast<size_t>(*config.input_size) < facts.input_bytes) {
    result.issues.push_back(make_issue("memory.input_buffer_too_small", bundle::kSeverityError,
                                       "engine.config.input_size is " + std::to_string(*config.input_size) +
                                           " bytes, input 0 needs " + std::to_string(facts.input_bytes)));
  }
  if (config.output_size && static_cast<size_t>(*config.output_size) < facts.output_bytes) {
    result.issues.push_back(make_issue("memory.output_buffer_too_small", bundle::kSeverityError,
                                       "engine.config.output_size is " + std::to_string(*config.output_size) +
                                           " bytes, output 0 needs " + std::to_string(facts.output_bytes)));
  }
  // A selective build registers only the listed portable kernels. The
  // program's own set (the default) holds every one its instructions call;
  // a set from the config may leave one out.
  const std::set<std::string> allowed(config.portable_ops.begin(), config.portable_ops.end());
  for (const std::string& op : facts.operators) {
    if (op.rfind("aten::", 0) == 0 && facts.used_operators.count(op) > 0 && allowed.count(op) == 0) {
      result.issues.push_back(make_issue(
          "run.load_failed", bundle::kSeverityError,
          "missing operator " + op + ": the program calls it and engine.config.portable_ops leaves it out (drop the "
              "key to use the program's own set)",
          {{"operator", op}}));
    }
  }
}

// Each method input's bytes: its profiling.input file, or zeros. The config
// checked every file's size against the program; one that changed since is
// refused, not cut.
std::vector<std::vector<uint8_t>> input_bytes_of(const ProfileConfig& config, const ProgramFacts& facts,
                                                 ProfileResult& result) {
  if (!config.inputs.empty() && config.inputs.size() != facts.input_sizes.size()) {
    throw Failure(std::to_string(config.inputs.size()) + " input files for " + std::to_string(facts.input_sizes.size()) +
                  " method inputs (one per method input, in order)");
  }
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t i = 0; i < facts.input_sizes.size(); ++i) {
    if (config.inputs.empty()) {
      inputs.emplace_back(facts.input_sizes[i], 0);
      result.inputs.push_back({std::nullopt, facts.input_sizes[i], "zeros"});
      continue;
    }
    const std::string& file = config.inputs[i];
    std::vector<uint8_t> bytes = read_file(file);
    if (bytes.size() != facts.input_sizes[i]) {
      throw Failure(file + ": " + std::to_string(bytes.size()) + " bytes, input " + std::to_string(i) + " expects " +
                    std::to_string(facts.input_sizes[i]) + " (the file changed after the configuration was checked)");
    }
    result.inputs.push_back({file, bytes.size(), sha256_hex(bytes.data(), bytes.size())});
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

void record_qemu(const QemuRun& run, const ProfileConfig& config, ProfileResult& result) {
  auto value = [&](const ClassCounts& counts, const std::string& source) { return counts.get(run.classes, source); };
  // Without the per-instruction pass the firmware recorded no visits: no rows.
  for (size_t i = 0; config.per_layer && i < run.instructions.size(); ++i) {
    const QemuInstruction& instruction = run.instructions[i];
    LayerResult layer;
    layer.id = instruction.id;
    layer.operator_name = instruction.operator_name;
    layer.samples.resize(result.counters.size());
    std::vector<uint64_t> primary;
    for (const ClassCounts& visit : instruction.visits) {
      for (size_t c = 0; c < result.counters.size(); ++c) layer.samples[c].push_back(value(visit, result.counters[c].source));
      primary.push_back(value(visit, result.primary.source));
    }
    result.layers.push_back(std::move(layer));
    result.layer_primary.push_back(std::move(primary));
  }
  result.clean_counters.resize(result.counters.size());
  for (const ClassCounts& visit : run.clean_visits) {
    result.clean.push_back(value(visit, result.primary.source));
    for (size_t c = 0; c < result.counters.size(); ++c) {
      result.clean_counters[c].push_back(value(visit, result.counters[c].source));
    }
  }
  result.load = value(run.load, result.primary.source);
  result.cycle_model = run.cycle_model;
  result.output_crc32 = run.per_instruction_crc32;
  result.output_crc32.insert(result.output_crc32.end(), run.clean_crc32.begin(), run.clean_crc32.end());
  result.method_arena_bytes = run.method_arena_bytes;
  result.scratch_bytes = run.scratch_bytes;
}

void run_on_qemu_target(const ProfileConfig& config, const std::vector<std::vector<uint8_t>>& inputs,
                        const ProgressFn& progress, ProfileResult& result) {
  QemuTools tools = resolve_qemu_tools(config.backend, QemuTools{});
  result.target_details = {{"board", "qemu-mps3-an547"},
                           {"qemu", tools.qemu},
                           {"qemu_version", qemu_version(tools.qemu)},
                           {"firmware", tools.firmware},
                           {"firmware_sha256", sha256_hex_file(tools.firmware)},
                           {"firmware_provider", protocol::to_string(config.backend)},
                           {"plugin", tools.plugin},
                           {"counts", "instructions executed by the guest, counted by the etns QEMU plugin; "
                                      "CPU_CYCLES: Cortex-M55 cycles the plugin estimates from them, not measured"}};
  QemuJob job;
  job.program = read_file(config.model_path);
  job.inputs = inputs;
  job.warmup = static_cast<uint32_t>(config.warmup);
  job.iterations = static_cast<uint32_t>(config.iterations);
  job.per_instruction_pass = config.per_layer;
  job.clean_pass = true;
  job.timeout_seconds = config.run_timeout_s;
  const uint32_t iterations = job.iterations;
  job.on_line = [&](const std::string& line) {
    std::istringstream words(line);
    std::string kind, pass, k;
    words >> kind >> pass >> k;
    if (kind == protocol::console::kIteration && progress) {
      progress((pass == protocol::console::kPassClean ? "clean pass" : "per-instruction pass") +
               std::string(": iteration ") +
               std::to_string(std::stoul(k) + 1) + " of " + std::to_string(iterations));
    }
  };
  try {
    record_qemu(run_on_qemu(tools, job, config.model_path), config, result);
  } catch (const FirmwareStopped& stopped) {
    const bool fault = stopped.stage() == FirmwareStopped::Stage::Fault;
    const bool load = stopped.stage() == FirmwareStopped::Stage::Load;
    throw StageFailure(stopped.what(), fault ? "run.fault" : load ? "run.load_failed" : "run.failed");
  }
}

struct HostTimer {
  std::vector<Clock::time_point> begin;
  std::vector<std::vector<uint64_t>>* samples = nullptr;  // [layer][iteration]

  static void before(void* user, size_t index) {
    static_cast<HostTimer*>(user)->begin[index] = Clock::now();
  }
  static void after(void* user, size_t index) {
    auto* self = static_cast<HostTimer*>(user);
    const auto elapsed = Clock::now() - self->begin[index];
    (*self->samples)[index].push_back(
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()));
  }
};

uint32_t outputs_crc32(const HostSession& session) {
  uint32_t crc = 0;
  for (size_t i = 0; i < session.method().output_count(); ++i) {
    const std::vector<uint8_t> bytes = session.output_bytes(i);
    crc = runtime::crc32_update(crc, bytes.data(), bytes.size());
  }
  return crc;
}

void run_on_host_target(const ProfileConfig& config, const std::vector<std::vector<uint8_t>>& inputs,
                        const ProgressFn& progress, ProfileResult& result) {
  result.target_details = {{"board", "host"},
                           {"cpu", first_line_of_file("/proc/cpuinfo", "model name")},
                           {"compiler", std::string("g++ ") + __VERSION__},
                           {"counts", "wall-clock nanoseconds, steady monotonic clock"}};
  const auto load_start = Clock::now();
  std::unique_ptr<HostSession> loaded;
  try {
    loaded = std::make_unique<HostSession>(config.model_path, &kernels::registry_of(config.backend));
  } catch (const Failure& failure) {
    throw StageFailure(failure.what(), "run.load_failed");
  }
  HostSession& session = *loaded;
  result.load = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - load_start).count());
  // The Cortex-M55 figure, as the firmware reports it: one rule for both targets.
  result.method_arena_bytes = session.method_arena_arm32_bytes();
  result.scratch_bytes = session.method().max_scratch_bytes();
  const size_t layers = session.method().instruction_count();
  auto set_inputs = [&] {
    for (size_t i = 0; i < inputs.size(); ++i) session.set_input(i, inputs[i]);
  };
  auto run_once = [&](const runtime::ExecuteHooks* hooks) {
    set_inputs();
    session.execute(hooks);
  };

  if (config.per_layer) {
    std::vector<std::vector<uint64_t>> samples(layers);
    HostTimer timer;
    timer.begin.resize(layers);
    timer.samples = &samples;
    runtime::ExecuteHooks hooks;
    hooks.user = &timer;
    hooks.before_instruction = &HostTimer::before;
    hooks.after_instruction = &HostTimer::after;
    for (int64_t k = 0; k < config.warmup; ++k) run_once(nullptr);
    for (int64_t k = 0; k < config.iterations; ++k) {
      if (progress) {
        progress("per-instruction pass: iteration " + std::to_string(k + 1) + " of " + std::to_string(config.iterations));
      }
      run_once(&hooks);
      result.output_crc32.push_back(outputs_crc32(session));
    }
    for (size_t i = 0; i < layers; ++i) {
      LayerResult layer;
      layer.id = session.method().instruction(i).id;
      layer.operator_name = session.method().instruction(i).operator_name;
      layer.samples.assign(result.counters.size(), samples[i]);  // one counter on host: WALL_NS
      result.layers.push_back(std::move(layer));
      result.layer_primary.push_back(samples[i]);
    }
  }
  for (int64_t k = 0; k < config.warmup; ++k) run_once(nullptr);
  for (int64_t k = 0; k < config.iterations; ++k) {
    if (progress) progress("clean pass: iteration " + std::to_string(k + 1) + " of " + std::to_string(config.iterations));
    set_inputs();
    const auto start = Clock::now();
    session.execute(nullptr);
    const auto elapsed = Clock::now() - start;
    result.clean.push_back(
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()));
    result.output_crc32.push_back(outputs_crc32(session));
  }
  result.clean_counters.assign(result.counters.size(), result.clean);
}

// Findings about the measurements themselves (profiler.md §8, plus ours).
void evaluate(const ProfileConfig& config, ProfileResult& result) {
  if (static_cast<int64_t>(result.method_arena_bytes) > config.method_arena_size) {
    result.issues.push_back(make_issue("memory.method_arena_too_small", bundle::kSeverityError,
                                       "the method arena is " + std::to_string(config.method_arena_size) +
                                           " bytes, the load used " + std::to_string(result.method_arena_bytes)));
  }
  for (size_t k = 1; k < result.output_crc32.size(); ++k) {
    if (result.output_crc32[k] != result.output_crc32[0]) {
      result.issues.push_back(make_issue("output.nondeterministic", bundle::kSeverityError,
                                         "the outputs differ between iterations (CRC-32 of iteration 0 and " +
                                             std::to_string(k) + ")",
                                         {{"iteration", k}}));
      break;
    }
  }
  if (config.per_layer && result.layers.empty()) {
    result.issues.push_back(make_issue("pmu.missing", bundle::kSeverityError, "no per-instruction measurement was recorded"));
  }
  for (size_t i = 0; i < result.layers.size(); ++i) {
    bool moved = false;
    for (uint64_t sample : result.layer_primary[i]) moved = moved || sample > 0;
    if (!moved) {
      result.issues.push_back(make_issue("counters.frozen", bundle::kSeverityWarning,
                                         result.layers[i].id + " (" + result.layers[i].operator_name + "): " +
                                             result.primary.name + " is 0 in every iteration",
                                         {{"instruction", result.layers[i].id}}));
    }
  }
  if (!result.clean.empty() && aggregate(result.clean, config.aggregation) == 0) {
    result.issues.push_back(make_issue("profile.clean_window_frozen", bundle::kSeverityWarning,
                                       "the clean end-to-end measurement is 0"));
  }
}

}  // namespace

ProfileResult run_profile(const ProfileConfig& config, const ProgressFn& progress) {
  const auto start = Clock::now();
  ProfileResult result;
  result.target = config.target;
  result.counters = config.counters;
  result.primary = primary_counter(config.target);
  try {
    const ProgramFacts facts = read_program_facts(config.model_path);
    result.planned_bytes = facts.planned_bytes;
    result.input_bytes = facts.input_bytes;
    result.output_bytes = facts.output_bytes;
    check_against_config(config, facts, result);
    const std::vector<std::vector<uint8_t>> inputs = input_bytes_of(config, facts, result);
    if (validity_of(result.issues) == bundle::kInvalid) {
      // Every finding, one line each with its issue code (not only the first).
      for (const Issue& issue : result.issues) {
        result.failure += (result.failure.empty() ? "" : "\n") + config.model_path + ": " + issue.severity + " " +
                          issue.code + ": " + issue.message;
      }
    } else if (config.target == "qemu-m55") {
      run_on_qemu_target(config, inputs, progress, result);
    } else {
      run_on_host_target(config, inputs, progress, result);
    }
  } catch (const Failure& failure) {
    // The run stops; the bundle still says why.
    const auto* staged = dynamic_cast<const StageFailure*>(&failure);
    const std::string message = failure.what();
    result.failure = message;
    result.issues.push_back(make_issue(staged != nullptr ? staged->code() : "run.failed", bundle::kSeverityError,
                                       message.substr(0, message.find('\n')), {{"detail", message}}));
    result.layers.clear();
    result.layer_primary.clear();
  }
  if (result.failure.empty()) evaluate(config, result);
  result.duration_s = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace etns::tools
