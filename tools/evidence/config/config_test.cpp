#include "tools/evidence/config/config.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/sha256.h"
#include "tools/evidence/config/config_keys.h"
#include "tools/evidence/config/config_test_fixture.h"
#include "tools/evidence/runner/qemu_session.h"

namespace etns::tools {
namespace {

using namespace config_testing;  // NOLINT: the fixture and its constants

// ---------------------------------------------------------------------------
// Defaults and the resolved configuration.

TEST_F(ProfileConfigTest, MinimalConfigTakesTheDefaults) {
  const ProfileConfig config = load(kMinimal);
  EXPECT_EQ(config.config_path, at("config.yaml"));
  EXPECT_EQ(config.model_path, at("model.pte"));
  EXPECT_FALSE(config.arena_size);
  EXPECT_FALSE(config.arena_location);
  EXPECT_FALSE(config.weights_location);
  EXPECT_EQ(config.backend, protocol::Provider::Arm);
  EXPECT_FALSE(config.ns_ops());
  EXPECT_TRUE(config.portable_ops.empty());
  EXPECT_FALSE(config.planned_arena_size);
  EXPECT_EQ(config.method_arena_size, 65536);
  EXPECT_EQ(config.temporary_arena_size, 32768);
  EXPECT_FALSE(config.input_size);
  EXPECT_FALSE(config.output_size);
  EXPECT_EQ(config.target, "qemu-m55");
  EXPECT_EQ(config.toolchain, "arm-none-eabi-gcc");
  EXPECT_EQ(config.run_timeout_s, 900);
  EXPECT_EQ(config.groups, std::vector<std::string>({"cpu"}));
  EXPECT_EQ(names_of(config.counters),
            std::vector<std::string>({"INST_RETIRED", "BR_RETIRED", "LE_RETIRED", "FP_RETIRED", "CPU_CYCLES"}));
  EXPECT_TRUE(config.per_layer);
  EXPECT_EQ(config.iterations, 100);
  EXPECT_EQ(config.warmup, 5);
  EXPECT_EQ(config.aggregation, "median");
  EXPECT_EQ(config.output_format, "csv");
  EXPECT_EQ(config.output_dir, at("results/model-qemu-m55"));  // the current folder's, per program and target
  EXPECT_FALSE(config.detailed);
  EXPECT_FALSE(config.verbose);
}

TEST_F(ProfileConfigTest, ResolvedHoldsEveryKeyWithItsDefault) {
  const nlohmann::ordered_json resolved = load(kMinimal).resolved;
  EXPECT_EQ(keys_of(resolved),
            std::vector<std::string>({"model", "engine", "target", "profiling", "power", "output", "timeouts", "build",
                                      "frozen", "work_dir", "clean", "verbose"}));
  EXPECT_EQ(resolved["model"], nlohmann::ordered_json::parse(R"({"path": ")" + at("model.pte") +
                                                             R"(", "arena_size": null, "arena_location": null,
                                                             "weights_location": null})"));
  EXPECT_EQ(resolved["engine"]["type"], "executorch");
  EXPECT_EQ(resolved["engine"]["backend"], "arm");
  EXPECT_EQ(resolved["engine"]["config_path"], nullptr);
  EXPECT_EQ(resolved["engine"]["config"], nlohmann::ordered_json::parse(R"({
      "source_path": null, "ns_ops": false, "portable_ops": [], "planned_arena_size": null,
      "method_arena_size": 65536, "temporary_arena_size": 32768, "input_size": null, "output_size": null,
      "planned_arena_location": null, "method_arena_location": null, "temporary_arena_location": null,
      "io_location": null, "cmsis_nn_path": null, "cmsis_nn_ref": null})"));
  EXPECT_EQ(resolved["target"], nlohmann::ordered_json::parse(R"({
      "board": "qemu-m55", "toolchain": "arm-none-eabi-gcc", "transport": "rtt", "clock": {"cpu": null},
      "jlink_serial": null, "usb_port": null, "segger_rtt_path": null, "rtt_buffer_size_up": null,
      "heartbeat": {"enabled": true, "every_n_ops": 8, "every_ms": 2000, "host_timeout_s": 30,
                    "overall_timeout_s": null},
      "psram": {"clock_hz": 48000000}, "custom_socs": null, "custom_boards": null,
      "ensure_board_powered": false})"));
  EXPECT_EQ(resolved["profiling"], nlohmann::ordered_json::parse(R"({
      "pmu_counters": {"cpu": ["INST_RETIRED", "BR_RETIRED", "LE_RETIRED", "FP_RETIRED", "CPU_CYCLES"]},
      "per_layer": true, "iterations": 100, "warmup": 5, "aggregation": "median", "input": null,
      "window_mode": "auto",
      "window_target_ms": 1000, "window_min": 10, "window_max": 500000, "clean_window_probe": "infer",
      "clean_window_trace": false, "force_shared_sram": false, "extreme_mode": false})"));
  EXPECT_EQ(resolved["power"], nlohmann::ordered_json::parse(R"({"enabled": false})"));
  EXPECT_EQ(resolved["output"], nlohmann::ordered_json::parse(R"({"format": "csv", "dir": ")" + at("results/model-qemu-m55") +
                                                              R"(", "model_explorer": true, "detailed": false})"));
  EXPECT_EQ(resolved["timeouts"], nlohmann::ordered_json::parse(
                                      R"({"configure": 120, "build": 300, "flash": 120, "probe": 10, "run": 900})"));
  EXPECT_EQ(resolved["build"], nlohmann::ordered_json::parse(R"({"channel": null, "module_overrides": null,
      "compiler_launcher": null, "update_dependencies": false, "offline": false})"));
  EXPECT_EQ(resolved["frozen"], false);
  EXPECT_EQ(resolved["work_dir"], nullptr);
  EXPECT_EQ(resolved["clean"], false);
  EXPECT_EQ(resolved["verbose"], false);
}

TEST_F(ProfileConfigTest, ResolvedLoadsBackToItself) {
  const ProfileConfig first = load(
      "model: {path: model.pte, arena_size: 4096, arena_location: sram, weights_location: mram}\n"
      "engine: {config: {portable_ops: [aten::sub.out], cmsis_nn_ref: v7.29.2}}\n"
      "target: {jlink_serial: 801012345, clock: {cpu: lp}}\n"
      "profiling: {pmu_counters: {memory: default, cpu: [INST_RETIRED]}, iterations: 25}\n"
      "output: {format: json, dir: out, detailed: true}\n"
      "frozen: true\n");
  // JSON is YAML: the snapshot in a bundle is itself a valid configuration.
  const std::string again = write("again.yaml", first.resolved.dump(2));
  EXPECT_EQ(load_profile_config(again, {}, read_model_facts).resolved, first.resolved);
  EXPECT_EQ(first.resolved["target"]["jlink_serial"], "801012345");
  EXPECT_EQ(first.resolved["build"]["offline"], true);
  EXPECT_EQ(first.resolved["engine"]["config"]["planned_arena_size"], 4096);  // model.arena_size
}

TEST_F(ProfileConfigTest, ModelPathCanComeFromAnOverrideAlone) {
  write("config.yaml", "");
  EXPECT_EQ(load_profile_config(at("config.yaml"), {"model.path=model.pte"}, read_model_facts).model_path, at("model.pte"));
  const ProfileConfig no_file = load_profile_config("", {"model.path=model.pte"}, read_model_facts);
  EXPECT_EQ(no_file.model_path, at("model.pte"));
  EXPECT_EQ(no_file.config_path, "");
}

// ---------------------------------------------------------------------------
// The file and the overrides.

TEST_F(ProfileConfigTest, RejectsAFileItCannotReadOrParse) {
  EXPECT_EQ(error_loading(at("missing.yaml"), {}),
            "config error: " + at("missing.yaml") + ": cannot read (no such file)");
  fs::create_directory(at("folder"));
  EXPECT_EQ(error_loading(at("folder"), {}), "config error: " + at("folder") + ": cannot read (is a directory)");
  EXPECT_EQ(error("model: [1, 2\n"),
            "config error: " + at("config.yaml") + ": invalid YAML (line 2, column 1: end of sequence flow not found)");
  EXPECT_EQ(error("model:\n  path: a.pte\n  path: b.pte\n"), in_file() + "model.path: duplicate key");
}

TEST_F(ProfileConfigTest, TopLevelMustBeAMapping) {
  EXPECT_EQ(error("- model\n- engine\n"),
            "config error: " + at("config.yaml") + ": the top level must be a mapping, got a list");
  EXPECT_EQ(error("hello\n"), "config error: " + at("config.yaml") + ": the top level must be a mapping, got 'hello'");
  EXPECT_EQ(error("profiling: 5\n" + kMinimal), in_file() + "profiling: expected a mapping, got 5");
}

TEST_F(ProfileConfigTest, RejectsMalformedOverrides) {
  EXPECT_EQ(error(kMinimal, {"profiling.iterations"}),
            "config error: override 'profiling.iterations': expected key=value");
  EXPECT_EQ(error(kMinimal, {"=25"}), "config error: override '=25': empty key");
  EXPECT_EQ(error(kMinimal, {"profiling..iterations=25"}),
            "config error: override 'profiling..iterations=25': empty key segment in 'profiling..iterations'");
  EXPECT_EQ(error(kMinimal, {"profiling.iterations=[1"}),
            "config error: override 'profiling.iterations=[1': invalid YAML value (line 1, column 1: end of sequence "
            "flow not found)");
}

TEST_F(ProfileConfigTest, OverridesDeepMergeMappingsAndReplaceEverythingElse) {
  const ProfileConfig config =
      load(kMinimal +
               "engine:\n  backend: ns\n  config:\n    ns_ops: true\n"
               "    portable_ops: [aten::clamp.out, aten::sub.out]\n"
               "profiling:\n  iterations: 10\n  warmup: 2\n  pmu_counters: {cpu: default}\n",
           {"profiling={iterations: 25}", "engine.config.portable_ops=[aten::mean.out]",
            "profiling.pmu_counters={mve: [MVE_INST_RETIRED]}", "verbose=true", "output.format=json"});
  EXPECT_EQ(config.iterations, 25);  // the override's
  EXPECT_EQ(config.warmup, 2);       // the file's, kept by the merge
  EXPECT_EQ(config.backend, protocol::Provider::Ns);
  EXPECT_TRUE(config.ns_ops());
  EXPECT_EQ(config.portable_ops, std::vector<std::string>({"aten::mean.out"}));  // lists replace
  EXPECT_EQ(config.groups, std::vector<std::string>({"cpu", "mve"}));            // mappings merge
  EXPECT_TRUE(config.verbose);
  EXPECT_EQ(config.output_format, "json");
}

TEST_F(ProfileConfigTest, OverrideValuesAreYaml) {
  EXPECT_EQ(load(kMinimal, {"profiling.iterations=25"}).iterations, 25);
  EXPECT_EQ(error(kMinimal, {"profiling.iterations='25'"}),
            in_override("profiling.iterations='25'") + "profiling.iterations: expected a positive integer, got '25'");
  EXPECT_EQ(load("model: not-a-mapping\n", {"model.path=model.pte"}).model_path, at("model.pte"));
  EXPECT_FALSE(load("model:\n  path: model.pte\n  arena_size: 1024\n", {"model.arena_size="}).arena_size);
}

TEST_F(ProfileConfigTest, PlainScalarsFollowTheYamlCoreSchema) {
  const ProfileConfig config = load(kMinimal + "profiling: {iterations: 0x10, warmup: 0o17, window_min: +3}\n");
  EXPECT_EQ(config.iterations, 16);
  EXPECT_EQ(config.warmup, 15);
  EXPECT_EQ(config.resolved["profiling"]["window_min"], 3);
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: 1e3}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got 1000.0");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: 99999999999999999999}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got '99999999999999999999'");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: !!str 25}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got '25'");
  EXPECT_EQ(error(kMinimal + "profiling: {per_layer: on}\n"),
            in_file() + "profiling.per_layer: expected true or false, got 'on'");
  EXPECT_FALSE(load(kMinimal + "profiling: {per_layer: False}\n").per_layer);
}

TEST_F(ProfileConfigTest, PathsInTheFileFollowTheFileAndOverridesTheCurrentFolder) {
  write("cfg/config.yaml",
        "model: {path: ../model.pte}\noutput: {dir: out/./run/}\nwork_dir: ../work\n"
        "engine: {config_path: engine.yaml, config: {source_path: ../nsx-executorch, cmsis_nn_path: cmsis}}\n");
  const ProfileConfig from_file = load_profile_config(at("cfg/config.yaml"), {}, read_model_facts);
  EXPECT_EQ(from_file.model_path, at("model.pte"));
  EXPECT_EQ(from_file.output_dir, at("cfg/out/run"));
  EXPECT_EQ(from_file.resolved["work_dir"], at("work"));
  EXPECT_EQ(from_file.resolved["engine"]["config_path"], at("cfg/engine.yaml"));
  EXPECT_EQ(from_file.resolved["engine"]["config"]["source_path"], at("nsx-executorch"));
  EXPECT_EQ(from_file.resolved["engine"]["config"]["cmsis_nn_path"], at("cfg/cmsis"));
  EXPECT_EQ(from_file.resolved["output"]["dir"], at("cfg/out/run"));

  write("cfg/model.pte", "nothing to see");  // would fail if the override resolved against cfg/
  const ProfileConfig overridden =
      load_profile_config(at("cfg/config.yaml"), {"model.path=model.pte", "output={dir: results}"}, read_model_facts);
  EXPECT_EQ(overridden.model_path, at("model.pte"));
  EXPECT_EQ(overridden.output_dir, at("results"));
  EXPECT_EQ(load_profile_config(at("cfg/config.yaml"), {"model.path=" + at("model.pte")}, read_model_facts).model_path, at("model.pte"));
}

// ---------------------------------------------------------------------------
// Unknown keys and types.

TEST_F(ProfileConfigTest, UnknownKeysAreRejectedAtEveryDepthWithASuggestion) {
  EXPECT_EQ(error(kMinimal + "modle: {}\n"), in_file() + "modle: unknown key (did you mean 'model'?)");
  EXPECT_EQ(error(kMinimal + "profiling: {iteratons: 25}\n"),
            in_file() + "profiling.iteratons: unknown key (did you mean 'iterations'?)");
  EXPECT_EQ(error(kMinimal + "profiling: {Iterations: 25}\n"),
            in_file() + "profiling.Iterations: unknown key (did you mean 'iterations'?)");
  EXPECT_EQ(error(kMinimal + "engine: {config: {portable_op: []}}\n"),
            in_file() + "engine.config.portable_op: unknown key (did you mean 'portable_ops'?)");
  EXPECT_EQ(error(kMinimal + "target: {heartbeat: {enable: false}}\n"),
            in_file() + "target.heartbeat.enable: unknown key (did you mean 'enabled'?)");
  EXPECT_EQ(error(kMinimal + "target: {clock: {cpu_mhz: 96}}\n"),
            in_file() + "target.clock.cpu_mhz: unknown key (did you mean 'cpu'?)");
  EXPECT_EQ(error(kMinimal + "power: {rail: vdd}\n"), in_file() + "power.rail: unknown key (valid: enabled)");
  EXPECT_EQ(error(kMinimal, {"timeouts.qemu=5"}),
            in_override("timeouts.qemu=5") + "timeouts.qemu: unknown key (valid: configure, build, flash, probe, run)");
}

TEST_F(ProfileConfigTest, KeysOfTheToolItselfAreRejected) {
  EXPECT_EQ(error(kMinimal + "platform_registry: x.yaml\n"),
            in_file() + "platform_registry: belongs to the tool itself and cannot be set in a config");
  EXPECT_EQ(error(kMinimal, {"compatibility={}"}),
            in_override("compatibility={}") +
                "compatibility: belongs to the tool itself and cannot be set in a config");
  EXPECT_EQ(error(kMinimal + "engine: {config: {backend: ns}}\n"),
            in_file() + "engine.config.backend: use engine.backend");
}

TEST_F(ProfileConfigTest, IterationsMustBeAPositiveInteger) {
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: 0}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got 0");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: -1}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got -1");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: abc}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got 'abc'");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: true}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got true");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: 2.5}\n"),
            in_file() + "profiling.iterations: expected a positive integer, got 2.5");
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: }\n"),
            in_file() + "profiling.iterations: expected a positive integer, got null");
}

TEST_F(ProfileConfigTest, OtherTypesAreCheckedToo) {
  EXPECT_EQ(error(kMinimal + "profiling: {per_layer: yes}\n"),
            in_file() + "profiling.per_layer: expected true or false, got 'yes'");
  EXPECT_EQ(error(kMinimal + "profiling: {warmup: -1}\n"),
            in_file() + "profiling.warmup: expected a non-negative integer, got -1");
  EXPECT_EQ(error(kMinimal + "profiling: {aggregation: max}\n"),
            in_file() + "profiling.aggregation: expected one of median, mean, trimmed, got 'max'");
  EXPECT_EQ(error(kMinimal + "profiling: {window_min: 20, window_max: 10}\n"),
            in_file() + "profiling.window_max: must be >= window_min (20), got 10");
  EXPECT_EQ(error("model: {path: model.pte, arena_size: 0}\n"),
            in_file() + "model.arena_size: expected a positive integer or null, got 0");
  EXPECT_EQ(error(kMinimal + "engine: {config: {portable_ops: [aten::sub.out, 3]}}\n"),
            in_file() + "engine.config.portable_ops[1]: expected an operator name, got 3");
  EXPECT_EQ(error(kMinimal + "engine: {config: {cmsis_nn_ref: ''}}\n"),
            in_file() + "engine.config.cmsis_nn_ref: expected a git ref or null, got ''");
  EXPECT_EQ(error(kMinimal + "engine: {config: {cmsis_nn_ref: main, cmsis_nn_path: cmsis}}\n"),
            in_file() + "engine.config.cmsis_nn_ref: cannot be combined with engine.config.cmsis_nn_path");
  EXPECT_EQ(error(kMinimal + "target: {psram: {clock_hz: 50000000}}\n"),
            in_file() + "target.psram.clock_hz: expected one of 12000000, 24000000, 48000000, 96000000, "
            "125000000, 192000000, 250000000 (Hz), got 50000000");
  EXPECT_EQ(error(kMinimal + "timeouts: {run: 0}\n"), in_file() + "timeouts.run: expected a positive integer, got 0");
  EXPECT_EQ(load(kMinimal + "timeouts: {run: 60}\n").run_timeout_s, 60);
}

// ---------------------------------------------------------------------------
// Every problem in one run, and keys that change nothing on the target.

TEST_F(ProfileConfigTest, EveryProblemIsReportedNotOnlyTheFirst) {
  EXPECT_EQ(errors(kMinimal + "profiling: {iteratons: 3, warmup: -1, aggregation: max}\n",
                   {"target.board=apollo510_evb"}),
            std::vector<std::string>({
                in_override("target.board=apollo510_evb") +
                    "target.board: no etns port for 'apollo510_evb' yet (supported: qemu-m55, host; see docs/porting.md)",
                in_file() + "profiling.iteratons: unknown key (did you mean 'iterations'?)",
                in_file() + "profiling.warmup: expected a non-negative integer, got -1",
                in_file() + "profiling.aggregation: expected one of median, mean, trimmed, got 'max'",
            }));
  // Rules across keys and the files they name are checked too, each once.
  EXPECT_EQ(errors("model: {path: none.pte}\nprofiling: {window_min: 20, window_max: 10, pmu_counters: {cpu: "
                   "[STALL, NOPE]}}\n"),
            std::vector<std::string>({
                in_file() + "profiling.pmu_counters.cpu[0]: STALL cannot be counted on qemu-m55: the cycle estimate "
                            "gives total core cycles only (CPU_CYCLES), no stall, predication or bus cycles (valid: " +
                    kQemuCounters + ")",
                in_file() + "profiling.pmu_counters.cpu[1]: unknown counter 'NOPE' on qemu-m55 (valid: " +
                    kQemuCounters + ")",
                in_file() + "profiling.window_max: must be >= window_min (20), got 10",
                in_file() + "model.path: " + at("none.pte") + ": no such file",
            }));
  // A key with a problem is not used again: a bad board does not also fail every counter.
  EXPECT_EQ(errors(kMinimal + "target: {board: x}\nprofiling: {pmu_counters: {mve: default}}\n").size(), 1u);
}

TEST_F(ProfileConfigTest, KeysDeclareTheTargetsTheyAffect) {
  const auto spec = [](const std::string& path) {
    for (const KeySpec& key : profile_config_keys()) {
      if (key.path == path) return key;
    }
    ADD_FAILURE() << path;
    return KeySpec();
  };
  EXPECT_EQ(spec("profiling.iterations").targets, std::vector<std::string>({"qemu-m55", "host"}));
  EXPECT_EQ(spec("timeouts.run").targets, std::vector<std::string>({"qemu-m55"}));
  EXPECT_EQ(spec("target.toolchain").targets, std::vector<std::string>({"qemu-m55"}));
  EXPECT_TRUE(spec("target.jlink_serial").targets.empty());
  EXPECT_TRUE(spec("target.psram.clock_hz").targets.empty());
  size_t without_effect = 0;
  for (const KeySpec& key : profile_config_keys()) {
    const bool settable = key.type != KeyType::Section && key.type != KeyType::Reserved;
    without_effect += settable && !(affects(key, "qemu-m55") && affects(key, "host")) ? 1 : 0;
  }
  EXPECT_GE(without_effect, 40u);  // the reference's board and build settings
}

TEST_F(ProfileConfigTest, AKeyWithoutEffectOnTheTargetWarnsAndIsIgnored) {
  const ProfileConfig host = load(kMinimal + "target: {board: host, jlink_serial: 1234, psram: {clock_hz: 96000000}}\n"
                                             "timeouts: {run: 60}\n",
                                  {"profiling.window_mode=fixed"});
  const std::string file = at("config.yaml") + ": ";
  EXPECT_EQ(host.warnings, std::vector<std::string>({
                               file + "target.jlink_serial: has no effect on target host; ignored",
                               file + "target.psram.clock_hz: has no effect on target host; ignored",
                               "override 'profiling.window_mode=fixed': profiling.window_mode: has no effect on "
                               "target host; ignored",
                               file + "timeouts.run: has no effect on target host; ignored",
                           }));
  // QEMU honours timeouts.run; a key given as null is not given; defaults never warn.
  EXPECT_EQ(load(kMinimal + "timeouts: {run: 60}\ntarget: {jlink_serial: null}\n").warnings,
            std::vector<std::string>());
  EXPECT_EQ(load(kMinimal).warnings, std::vector<std::string>());
  EXPECT_EQ(load("model: {path: model.pte, arena_location: sram}\n").warnings,
            std::vector<std::string>({file + "model.arena_location: has no effect on target qemu-m55; ignored"}));
}

// ---------------------------------------------------------------------------
// What comes from the program: its portable operators, the size of its input.

TEST_F(ProfileConfigTest, PortableOpsDefaultToTheProgramsOwn) {
  write("dscnn_arm.pte", exported_bytes("dscnn_arm.pte"));
  const ProfileConfig program = load("model: {path: dscnn_arm.pte}\n");
  EXPECT_EQ(program.portable_ops, std::vector<std::string>({"aten::view_copy.out"}));
  EXPECT_EQ(program.portable_ops_source, "program");
  EXPECT_EQ(program.resolved["engine"]["config"]["portable_ops"], nlohmann::ordered_json({"aten::view_copy.out"}));
  const ProfileConfig given = load("model: {path: dscnn_arm.pte}\n", {"engine.config.portable_ops=[aten::sub.out]"});
  EXPECT_EQ(given.portable_ops, std::vector<std::string>({"aten::sub.out"}));
  EXPECT_EQ(given.portable_ops_source, "config");
  write("tier1_ns.pte", exported_bytes("tier1_ns.pte"));
  EXPECT_TRUE(load("model: {path: tier1_ns.pte}\n").portable_ops.empty());
}

TEST_F(ProfileConfigTest, InputFilesAreRelativeToTheConfigAndMatchTheProgramsInputs) {
  write("cfg/dscnn_arm.pte", exported_bytes("dscnn_arm.pte"));
  write("cfg/dscnn.input.bin", exported_bytes("dscnn.input.bin"));
  write("cfg/tier1.input.bin", exported_bytes("tier1.input.bin"));
  const std::string yaml = "model: {path: dscnn_arm.pte}\nprofiling: {input: dscnn.input.bin}\n";
  write("cfg/config.yaml", yaml);
  EXPECT_EQ(load_profile_config(at("cfg/config.yaml"), {}, read_model_facts).inputs, std::vector<std::string>({at("cfg/dscnn.input.bin")}));
  EXPECT_TRUE(load_profile_config(at("cfg/config.yaml"), {"profiling.input=null"}, read_model_facts).inputs.empty());

  const std::string wrong = "model: {path: cfg/dscnn_arm.pte}\nprofiling: {input: cfg/tier1.input.bin}\n";
  EXPECT_EQ(error(wrong), in_file() + "profiling.input: " + at("cfg/tier1.input.bin") +
                              ": 65,536 bytes given, input 0 of dscnn_arm.pte expects 1,960 (float32, 490 elements)");
  // An override (what --input writes) replaces the file's key, relative to the current folder.
  EXPECT_EQ(load(wrong, {"profiling.input=[cfg/dscnn.input.bin]"}).inputs,
            std::vector<std::string>({at("cfg/dscnn.input.bin")}));
  EXPECT_EQ(error(wrong, {"profiling.input=[cfg/dscnn.input.bin, cfg/dscnn.input.bin]"}),
            in_override("profiling.input=[cfg/dscnn.input.bin, cfg/dscnn.input.bin]") +
                "profiling.input: 2 files given, but dscnn_arm.pte has 1 input (one file per method input, in order)");
  EXPECT_EQ(error(wrong, {"profiling.input=none.bin"}),
            in_override("profiling.input=none.bin") + "profiling.input: " + at("none.bin") + ": no such file");
  EXPECT_EQ(error(wrong, {"profiling.input=[]"}),
            in_override("profiling.input=[]") + "profiling.input: expected a path or a list of paths or null, got a list");
}

// ---------------------------------------------------------------------------
// The model file.

TEST_F(ProfileConfigTest, ModelMustBeAnExistingNonEmptyPteWithTheMagic) {
  EXPECT_EQ(error("model: {arena_size: 1024}\n"),
            in_file() + "model.path: missing (give the .pte in the config file or as the override "
            "model.path=<file>)");
  EXPECT_EQ(error("model: {path: gone.pte}\n"), in_file() + "model.path: " + at("gone.pte") + ": no such file");
  fs::create_directory(at("folder.pte"));
  EXPECT_EQ(error("model: {path: folder.pte}\n"),
            in_file() + "model.path: " + at("folder.pte") + ": not a regular file");
  write("model.tflite", kModelBytes);
  EXPECT_EQ(error("model: {path: model.tflite}\n"),
            in_file() + "model.path: " + at("model.tflite") + ": not a .pte file (executorch programs end in .pte)");
  write("empty.pte", "");
  EXPECT_EQ(error("model: {path: empty.pte}\n"), in_file() + "model.path: " + at("empty.pte") + ": empty file");
  write("late.pte", "0123456789abcdeET");  // "ET" starts at byte 15, ends past the first 16
  EXPECT_EQ(error("model: {path: late.pte}\n"),
            in_file() + "model.path: " + at("late.pte") +
                ": no 'ET' magic in the first 16 bytes (not an ExecuTorch program)");
  write("edge.pte", "0123456789abcdET");  // bytes 14 and 15
  EXPECT_EQ(load("model: {path: edge.pte}\n").model_path, at("edge.pte"));
}

TEST_F(ProfileConfigTest, ArenaAndWeightsLocations) {
  EXPECT_EQ(error("model: {path: model.pte, arena_location: psram}\n"),
            in_file() + "model.arena_location: 'psram' is not supported for executorch (use tcm or sram)");
  EXPECT_EQ(error("model: {path: model.pte, arena_location: mram}\n"),
            in_file() + "model.arena_location: 'mram' is not supported for executorch (use tcm or sram)");
  EXPECT_EQ(error("model: {path: model.pte, weights_location: psram}\n"),
            in_file() + "model.weights_location: 'psram' is not supported for executorch (use tcm, sram or mram)");
  EXPECT_EQ(error("model: {path: model.pte, weights_location: flash}\n"),
            in_file() + "model.weights_location: expected one of tcm, sram, mram, psram or null, got 'flash'");
  const ProfileConfig config = load("model: {path: model.pte, arena_location: tcm, weights_location: mram}\n");
  EXPECT_EQ(config.arena_location, "tcm");
  EXPECT_EQ(config.weights_location, "mram");
}

// ---------------------------------------------------------------------------
// Engine, target, profiling, power, output, build.

TEST_F(ProfileConfigTest, EngineMustBeExecutorch) {
  EXPECT_EQ(error(kMinimal + "engine: {type: tflm}\n"),
            in_file() + "engine.type: 'tflm' is not supported by etns (only executorch)");
  EXPECT_EQ(error(kMinimal + "engine: {type: onnx}\n"),
            in_file() + "engine.type: expected one of tflm, helia-rt, helia-aot, executorch, got 'onnx'");
  EXPECT_EQ(error(kMinimal + "engine: {backend: cmsis}\n"),
            in_file() + "engine.backend: expected one of arm, ns or null, got 'cmsis'");
}

// ns_ops follows engine.backend: a value that disagrees would have the bundle
// name one provider while the other provider's image ran.
TEST_F(ProfileConfigTest, NsOpsFollowsTheBackendAndADisagreeingValueIsRefused) {
  const std::string why =
      ": ns_ops follows the backend (the ns image runs the cortex_m_ns kernels, the arm image has none); drop ns_ops "
      "or set engine.backend ";
  EXPECT_EQ(error(kMinimal + "engine: {backend: ns, config: {ns_ops: false}}\n"),
            in_file() + "engine.config.ns_ops: false, but engine.backend is ns" + why + "arm");
  EXPECT_EQ(error(kMinimal + "engine: {backend: arm, config: {ns_ops: true}}\n"),
            in_file() + "engine.config.ns_ops: true, but engine.backend is arm" + why + "ns");
  EXPECT_EQ(error(kMinimal + "engine: {config: {ns_ops: true}}\n"),
            in_file() + "engine.config.ns_ops: true, but engine.backend is arm (the default)" + why + "ns");
  // The line names whoever wrote ns_ops: here an override of a file that is right on its own.
  EXPECT_EQ(error(kMinimal + "engine: {backend: ns, config: {ns_ops: true}}\n", {"engine.config.ns_ops=false"}),
            in_override("engine.config.ns_ops=false") + "engine.config.ns_ops: false, but engine.backend is ns" + why +
                "arm");
  EXPECT_EQ(error(kMinimal + "engine: {backend: ns, config: {ns_ops: 1}}\n"),
            in_file() + "engine.config.ns_ops: expected true or false, got 1");

  // Agreeing or left out, it is the backend's, and the resolved configuration says so.
  for (const char* engine : {"engine: {backend: ns, config: {ns_ops: true}}\n", "engine: {backend: ns}\n"}) {
    const ProfileConfig ns = load(kMinimal + engine);
    EXPECT_EQ(ns.backend, protocol::Provider::Ns);
    EXPECT_TRUE(ns.ns_ops());
    EXPECT_EQ(ns.resolved["engine"]["backend"], "ns");
    EXPECT_EQ(ns.resolved["engine"]["config"]["ns_ops"], true);
  }
  for (const char* engine : {"engine: {backend: arm, config: {ns_ops: false}}\n", "engine: {backend: arm}\n"}) {
    const ProfileConfig arm = load(kMinimal + engine);
    EXPECT_EQ(arm.backend, protocol::Provider::Arm);
    EXPECT_FALSE(arm.ns_ops());
    EXPECT_EQ(arm.resolved["engine"]["config"]["ns_ops"], false);
  }
}

TEST_F(ProfileConfigTest, TargetBoardsAndToolchains) {
  EXPECT_EQ(error(kMinimal + "target: {board: apollo510_evb}\n"),
            in_file() + "target.board: no etns port for 'apollo510_evb' yet (supported: qemu-m55, host; see "
            "docs/porting.md)");
  EXPECT_EQ(error(kMinimal + "target: {toolchain: atfe}\n"),
            in_file() + "target.toolchain: etns builds with arm-none-eabi-gcc only, got 'atfe'");
  EXPECT_EQ(error(kMinimal + "target: {toolchain: armclang}\n"),
            in_file() + "target.toolchain: etns builds with arm-none-eabi-gcc only, got 'armclang'");
  EXPECT_EQ(error(kMinimal + "target: {custom_boards: {my_board: {}}}\n"),
            in_file() + "target.custom_boards: not supported by etns");
  EXPECT_EQ(error(kMinimal + "target: {transport: jtag}\n"),
            in_file() + "target.transport: expected one of rtt, usb_cdc, swo, uart, got 'jtag'");
  const ProfileConfig config = load(kMinimal + "target: {board: host, toolchain: gcc, transport: uart}\n");
  EXPECT_EQ(config.target, "host");
  EXPECT_EQ(config.toolchain, "arm-none-eabi-gcc");
  EXPECT_EQ(config.resolved["target"]["transport"], "uart");
  EXPECT_EQ(names_of(config.counters), std::vector<std::string>({"WALL_NS"}));
}

TEST_F(ProfileConfigTest, PowerCleanWindowAndOutputRejections) {
  EXPECT_EQ(error(kMinimal + "power: {enabled: true}\n"),
            in_file() + "power.enabled: etns cannot measure power for executorch");
  EXPECT_EQ(error(kMinimal + "profiling: {clean_window_probe: busy_loop}\n"),
            in_file() + "profiling.clean_window_probe: busy_loop is not supported for executorch (use infer)");
  EXPECT_EQ(error(kMinimal + "output: {format: model-explorer}\n"),
            in_file() + "output.format: 'model-explorer' is not a primary format (use csv or json)");
  EXPECT_EQ(error(kMinimal + "output: {format: xml}\n"),
            in_file() + "output.format: expected one of csv, json, got 'xml'");
}

TEST_F(ProfileConfigTest, BuildOfflineAndItsDeprecatedAlias) {
  EXPECT_EQ(error(kMinimal + "build: {update_dependencies: true, offline: true}\n"),
            in_file() + "build.update_dependencies: cannot be combined with build.offline");
  EXPECT_EQ(error(kMinimal + "frozen: true\nbuild: {update_dependencies: true}\n"),
            in_file() + "build.update_dependencies: cannot be combined with frozen (alias of build.offline)");
  EXPECT_EQ(error(kMinimal + "frozen: true\nbuild: {offline: false}\n"),
            in_file() + "frozen: deprecated alias of build.offline, which says false (drop frozen)");
  const nlohmann::ordered_json resolved = load(kMinimal + "frozen: true\n").resolved;
  EXPECT_EQ(resolved["build"]["offline"], true);
  EXPECT_EQ(resolved["frozen"], true);
}

// ---------------------------------------------------------------------------
// The PTE sidecar.

TEST_F(ProfileConfigTest, SidecarSuppliesDefaults) {
  write_sidecar(R"("kernel_provider": "ns", "requires_ns_ops": true, "planned_arena_size": 98304,
                   "inputs": [{"size_bytes": 65536}, {"size_bytes": 4}], "outputs": [{"size_bytes": 64}],
                   "operators": {"portable": ["aten::mean.out"]})");
  const ProfileConfig config = load(kMinimal);
  EXPECT_EQ(config.backend, protocol::Provider::Ns);
  EXPECT_TRUE(config.ns_ops());
  EXPECT_EQ(config.planned_arena_size, 98304);
  EXPECT_EQ(config.input_size, 65536);
  EXPECT_EQ(config.output_size, 64);
  // The sidecar's operators.portable is checked, but the program itself says
  // what it calls: this one does not load, so none, and the run says why.
  EXPECT_TRUE(config.portable_ops.empty());
  EXPECT_EQ(config.portable_ops_source, "program");
}

TEST_F(ProfileConfigTest, ExplicitValuesBeatTheSidecar) {
  write_sidecar(R"("kernel_provider": "arm", "planned_arena_size": 98304, "inputs": [{"size_bytes": 65536}],
                   "operators": {"portable": ["aten::mean.out"]})");
  const ProfileConfig config = load(
      "model: {path: model.pte, arena_size: 4096}\n"
      "engine: {backend: ns, config: {input_size: 16, portable_ops: []}}\n");
  EXPECT_EQ(config.backend, protocol::Provider::Ns);
  EXPECT_EQ(config.planned_arena_size, 4096);  // model.arena_size before the sidecar
  EXPECT_EQ(config.input_size, 16);
  EXPECT_FALSE(config.output_size);
  EXPECT_TRUE(config.portable_ops.empty());
  EXPECT_EQ(load(kMinimal + "engine: {config: {planned_arena_size: 512}}\n").planned_arena_size, 512);
}

TEST_F(ProfileConfigTest, SidecarNeedingNsOpsConflictsWithTheArmBackendOrNsOpsFalse) {
  write_sidecar(R"("kernel_provider": "ns", "requires_ns_ops": true)");
  const std::string sidecar = at("model.pte.json");
  EXPECT_EQ(error(kMinimal + "engine: {config: {ns_ops: false}}\n"),
            in_file() + "engine.config.ns_ops: false, but engine.backend is ns (the kernel_provider of " + sidecar +
                "): ns_ops follows the backend (the ns image runs the cortex_m_ns kernels, the arm image has none); "
                "drop ns_ops or set engine.backend arm");
  EXPECT_EQ(error(kMinimal + "engine: {backend: arm}\n"),
            in_file() + "engine.config.ns_ops: " + sidecar +
                " says the program needs NS ops, which need engine.backend ns, but engine.backend is arm");
}

TEST_F(ProfileConfigTest, BadSidecarsAreHardErrors) {
  const std::string where = "config error: " + at("model.pte.json") + ": ";
  write("model.pte.json", R"({"schema": "nsx-executorch.pte-manifest/1", "pte_sha256": "00"})");
  EXPECT_EQ(error(kMinimal), where + "pte_sha256 '00' does not match the model's SHA-256 '" +
                                 sha256_hex(reinterpret_cast<const uint8_t*>(kModelBytes.data()), kModelBytes.size()) +
                                 "'");
  write("model.pte.json", R"({"schema": "other/1"})");
  EXPECT_EQ(error(kMinimal), where + "schema is 'other/1', expected 'nsx-executorch.pte-manifest/1'");
  write("model.pte.json", "{not json");
  const std::string invalid = error(kMinimal);  // the rest of the line is nlohmann's wording
  EXPECT_EQ(invalid.rfind(where + "invalid JSON (parse error at line 1, column 3: ", 0), 0u) << invalid;
  write_sidecar(R"("kernel_provider": "cmsis")");
  EXPECT_EQ(error(kMinimal), where + "kernel_provider: expected arm or ns, got 'cmsis'");
  write_sidecar(R"("requires_ns_ops": "yes")");
  EXPECT_EQ(error(kMinimal), where + "requires_ns_ops: expected a JSON boolean, got 'yes'");
  write_sidecar(R"("planned_arena_size": 0)");
  EXPECT_EQ(error(kMinimal), where + "planned_arena_size: expected a positive integer, got 0");
  write_sidecar(R"("outputs": [{"size_bytes": 64}, {"size_bytes": true}])");
  EXPECT_EQ(error(kMinimal), where + "outputs[1].size_bytes: expected a positive integer, got true");
  write_sidecar(R"("operators": {"portable": ["aten::sub.out", 7]})");
  EXPECT_EQ(error(kMinimal), where + "operators.portable[1]: expected a string, got 7");
}

}  // namespace
}  // namespace etns::tools
