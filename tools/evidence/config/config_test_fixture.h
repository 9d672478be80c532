#pragma once

// The profile configuration tests' shared fixture (config_test.cpp,
// config_keys_test.cpp): a fresh temporary folder with a model in it, and
// helpers that load a configuration or return the one line it fails with.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/sha256.h"
#include "tools/evidence/config/config.h"
#include "tools/writers/export/exporter.h"
#include "tools/evidence/runner/model_facts.h"

namespace etns::tools::config_testing {

namespace fs = std::filesystem;

// Enough of a program for the loader: the "ET" magic at offset 4, like a real .pte.
inline const std::string kModelBytes = "xxxxET12 not really a flatbuffer";
inline const std::string kMinimal = "model:\n  path: model.pte\n";
inline const std::string kQemuCounters =
    "INST_RETIRED, BR_RETIRED, LE_RETIRED, FP_RETIRED, CPU_CYCLES, INST_WEIGHTED_RETIRED, MVE_INST_RETIRED, "
    "MVE_LD_RETIRED, "
    "MVE_ST_RETIRED, MVE_LD_NONCONTIG_RETIRED, MVE_ST_NONCONTIG_RETIRED, MVE_LDST_RETIRED, MVE_LDST_NONCONTIG_RETIRED, "
    "LD_RETIRED, ST_RETIRED";

inline std::vector<std::string> names_of(const std::vector<CounterSpec>& counters) {
  std::vector<std::string> names;
  for (const CounterSpec& counter : counters) names.push_back(counter.name);
  return names;
}

inline std::vector<std::string> keys_of(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

// A file of `etns export` (a program, "dscnn_arm.pte", or an example input,
// "dscnn.input.bin"): real programs for the checks that read one.
inline std::string exported_bytes(const std::string& file) {
  static const Tier1Export kExport = export_tier1();
  for (const ExportedProgram& program : kExport.programs) {
    if (program.file == file) return std::string(program.bytes.begin(), program.bytes.end());
  }
  for (const ExportedFile& input : kExport.inputs) {
    if (input.file == file) return std::string(input.bytes.begin(), input.bytes.end());
  }
  ADD_FAILURE() << file << " is not among etns export's files";
  return "";
}

// Each test runs in a fresh temporary folder, which is also the current folder.
class ProfileConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "etns-config-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = fs::canonical(pattern).string();
    previous_cwd_ = fs::current_path();
    fs::current_path(dir_);
    write("model.pte", kModelBytes);
  }
  void TearDown() override {
    fs::current_path(previous_cwd_);
    std::error_code error;
    fs::remove_all(dir_, error);
  }

  std::string at(const std::string& name) const { return dir_ + "/" + name; }

  // How a problem with a key starts: the file or the override that wrote it.
  std::string in_file() const { return "config error: " + at("config.yaml") + ": "; }
  static std::string in_override(const std::string& text) { return "config error: override '" + text + "': "; }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = at(name);
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  ProfileConfig load(const std::string& yaml, const std::vector<std::string>& overrides = {}) const {
    return load_profile_config(write("config.yaml", yaml), overrides, read_model_facts);
  }

  // The message of the Failure that loading `path` throws; also checks it is
  // a one-line configuration error (exit code 2).
  static std::string error_loading(const std::string& path, const std::vector<std::string>& overrides) {
    try {
      load_profile_config(path, overrides, read_model_facts);
    } catch (const Failure& failure) {
      EXPECT_EQ(failure.exit_code(), 2);
      const std::string message = failure.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      return message;
    }
    return "(no error)";
  }
  std::string error(const std::string& yaml, const std::vector<std::string>& overrides = {}) const {
    return error_loading(write("config.yaml", yaml), overrides);
  }
  // Every line of the Failure that loading `yaml` throws (exit code 2).
  std::vector<std::string> errors(const std::string& yaml, const std::vector<std::string>& overrides = {}) const {
    std::vector<std::string> lines;
    try {
      load_profile_config(write("config.yaml", yaml), overrides, read_model_facts);
    } catch (const Failure& failure) {
      EXPECT_EQ(failure.exit_code(), 2);
      std::string message = failure.what();
      for (size_t end; (end = message.find('\n')) != std::string::npos; message.erase(0, end + 1)) {
        lines.push_back(message.substr(0, end));
      }
      lines.push_back(message);
    }
    return lines;
  }

  // A sidecar for model.pte with the right digest plus `fields` (JSON members).
  void write_sidecar(const std::string& fields) const {
    const std::string digest = sha256_hex(reinterpret_cast<const uint8_t*>(kModelBytes.data()), kModelBytes.size());
    write("model.pte.json", "{\"schema\": \"nsx-executorch.pte-manifest/1\", \"pte_sha256\": \"" + digest + "\"" +
                                (fields.empty() ? "" : ", " + fields) + "}");
  }

  std::string dir_;
  fs::path previous_cwd_;
};

}  // namespace etns::tools::config_testing
