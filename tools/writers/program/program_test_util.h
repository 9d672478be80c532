#pragma once

// Helpers shared by the program-builder, export and lower tests: the four
// shared programs, and loading and running bytes through the real loader
// (HostSession).

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/registry.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/writers/program/program_model.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::tools::export_test {

struct SharedProgram {
  const char* name;            // tier1_arm: models/tier1/<name>.pte
  const char* provider;        // the registry that runs it
  const char* input;           // golden/<input>: the model's golden input A
  uint64_t upstream_arena;     // non_const_buffer_sizes[1] of the shared file
};

inline const SharedProgram kSharedPrograms[] = {
    {"tier1_arm", "arm", "tier1_arm.A.input.bin", 196608},
    {"tier1_ns", "ns", "tier1_arm.A.input.bin", 98304},
    {"tier1mean_arm", "arm", "tier1mean_arm.A.input.bin", 81920},
    {"tier1mean_ns", "ns", "tier1mean_arm.A.input.bin", 81920},
};

inline std::string pte_path(const std::string& shared, const SharedProgram& p) {
  return shared + "/models/tier1/" + p.name + ".pte";
}
inline std::string input_path(const std::string& shared, const SharedProgram& p) {
  return shared + "/golden/" + p.input;
}

// Writes `bytes` to `dir/name` and returns the path.
inline std::string write_temp(const TemporaryDirectory& dir, const std::string& name,
                              const std::vector<uint8_t>& bytes) {
  const std::string path = dir.path() + "/" + name;
  write_file_atomic(path, bytes.data(), bytes.size());
  return path;
}

// Loads `path` bound to `provider`, sets input 0 and returns output 0's bytes.
inline std::vector<uint8_t> run_once(const std::string& path, const std::string& provider,
                                     const std::vector<uint8_t>& input) {
  const runtime::KernelRegistry* registry = kernels::find_registry(provider.c_str());
  if (registry == nullptr) throw Failure("no provider " + provider);
  HostSession session(path, registry);
  session.set_input(0, input);
  session.execute();
  return session.output_bytes(0);
}

}  // namespace etns::tools::export_test
