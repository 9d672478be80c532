#pragma once

// Bundles of a made-up host run for the bundle, compare and policy tests:
// written by the real writer, so that they are exactly what `etns profile`
// writes, without running a program.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/evidence/bundle/bundle.h"
#include "tools/common/files.h"
#include "tools/common/sha256.h"

namespace etns::tools::testing {

inline CounterSpec wall_counter() { return {"WALL_NS", "cpu", "wall_ns", "ns", "wall-clock nanoseconds", true}; }

// A host run of two instructions, three iterations, into `dir`/<name>.
inline ProfileConfig synthetic_config(const std::string& dir, const std::string& name) {
  ProfileConfig config;
  config.model_path = dir + "/model_arm.pte";
  if (!std::filesystem::exists(config.model_path)) write_file_atomic(config.model_path, std::string("not a program"));
  config.resolved = {{"model", {{"path", config.model_path}}}};
  config.backend = protocol::Provider::Arm;
  config.target = "host";
  config.toolchain = "gcc";
  config.arena_size = 4096;
  config.arena_location = "sram";
  config.groups = {"cpu"};
  config.counters = {wall_counter()};
  config.iterations = 3;
  config.warmup = 1;
  config.output_format = "csv";
  config.output_dir = dir + "/" + name;
  config.detailed = true;
  return config;
}

inline ProfileResult synthetic_result() {
  ProfileResult result;
  result.target = "host";
  result.counters = {wall_counter()};
  result.primary = wall_counter();
  result.layers = {{"c0i0", "cortex_m::quantized_add.out", {{10, 12, 11}}}, {"c0i1", "aten::sub.out", {{30, 31, 29}}}};
  result.layer_primary = {{10, 12, 11}, {30, 31, 29}};
  result.clean = {45, 44, 46};
  result.clean_counters = {{45, 44, 46}};
  result.load = 100;
  result.output_crc32 = {0xdeadbeef, 0xdeadbeef, 0xdeadbeef};
  result.planned_bytes = {64};
  result.input_bytes = 16;
  result.output_bytes = 16;
  result.inputs = {{std::nullopt, 16, "zeros"}};
  result.target_details = {{"board", "host"}, {"cpu", "test cpu"}, {"compiler", "g++"}};
  return result;
}

// A qemu-m55 run of the same shape that asked for the cycle estimate:
// INST_RETIRED and CPU_CYCLES, as the catalogue defines them.
inline const char* const kSyntheticCycleModel =
    "LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55; board profile an547: no wait states";

inline std::vector<CounterSpec> qemu_counters_with_cycles() {
  std::vector<CounterSpec> counters;
  for (const CounterSpec& counter : counter_catalogue("qemu-m55")) {
    if (counter.name == "INST_RETIRED" || counter.name == kCycleCounter) counters.push_back(counter);
  }
  return counters;
}

inline ProfileConfig synthetic_qemu_config(const std::string& dir, const std::string& name,
                                           const std::string& program = "model_arm.pte") {
  ProfileConfig config = synthetic_config(dir, name);
  config.model_path = dir + "/" + program;
  if (!std::filesystem::exists(config.model_path)) write_file_atomic(config.model_path, "program " + program);
  config.resolved = {{"model", {{"path", config.model_path}}}};
  config.target = "qemu-m55";
  config.counters = qemu_counters_with_cycles();
  return config;
}

// One instruction of a synthetic QEMU run: the same counts in every iteration.
struct SyntheticInstruction {
  std::string id;
  std::string operator_name;
  uint64_t instructions = 0;
  uint64_t cycles = 0;
};

inline ProfileResult synthetic_qemu_result(const std::vector<SyntheticInstruction>& instructions,
                                           uint64_t clean_instructions, uint64_t clean_cycles) {
  ProfileResult result = synthetic_result();
  result.target = "qemu-m55";
  result.counters = qemu_counters_with_cycles();
  result.primary = result.counters[0];
  result.layers.clear();
  result.layer_primary.clear();
  for (const SyntheticInstruction& i : instructions) {
    const std::vector<uint64_t> counts(3, i.instructions), cycles(3, i.cycles);
    result.layers.push_back({i.id, i.operator_name, {counts, cycles}});
    result.layer_primary.push_back(counts);
  }
  result.clean = std::vector<uint64_t>(3, clean_instructions);
  result.clean_counters = {result.clean, std::vector<uint64_t>(3, clean_cycles)};
  result.cycle_model = kSyntheticCycleModel;
  result.target_details = {{"board", "qemu-mps3-an547"}, {"qemu_version", "QEMU emulator version 7.2.19"}};
  return result;
}

// Writes the synthetic run as bundle `name` in `dir`; returns its folder.
inline std::string write_synthetic_bundle(const std::string& dir, const std::string& name,
                                          const ProfileResult& result = synthetic_result()) {
  const ProfileConfig config = synthetic_config(dir, name);
  write_bundle(config, result);
  return config.output_dir;
}

inline nlohmann::json read_document(const std::string& bundle, const std::string& file) {
  return read_json_file(bundle + "/" + file);
}

// Replaces one file of a bundle with `text` and re-hashes the manifest, so
// that only the schema can object.
inline void rewrite_in_bundle(const std::string& bundle, const std::string& file, const std::string& text) {
  write_file_atomic(bundle + "/" + file, text);
  nlohmann::json manifest = read_document(bundle, "manifest.json");
  for (nlohmann::json& artifact : manifest["artifacts"]) {
    if (artifact["path"] == file) {
      artifact["size_bytes"] = text.size();
      artifact["sha256"] = sha256_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    }
  }
  write_file_atomic(bundle + "/manifest.json", manifest.dump(2) + "\n");
}

inline void rewrite_in_bundle(const std::string& bundle, const std::string& file, const nlohmann::json& content) {
  rewrite_in_bundle(bundle, file, content.dump(2) + "\n");
}

}  // namespace etns::tools::testing
