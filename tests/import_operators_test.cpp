// `etns import`, then `etns run`, of one small synthetic TFLite model per
// operator the importer maps, a model with two inputs and one with two
// outputs (tests/support/tflite_cases.h): on the host and on the Cortex-M55
// under QEMU each program gives the same bytes, TensorFlow Lite Micro's
// (tests/support/tflm_reference.h computes them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/tflite_cases.h"
#include "tools/common/files.h"
#include "tools/writers/tflite/tflite_test_writer.h"

namespace etns {
namespace {

using Bytes = std::vector<uint8_t>;

// The case's model written to `dir` and imported; the program's path, or ""
// after a failed expectation.
std::string import_case(const testing::ImportCase& c, const testing::TempDir& dir) {
  const std::string model = dir.path() + "/" + c.name + ".tflite";
  const Bytes bytes = tools::tflite::write_tflite(c.model);
  tools::write_file_atomic(model, bytes.data(), bytes.size());
  const std::string program = dir.path() + "/" + c.name + ".pte";
  const testing::CliResult r = testing::run_cli("import " + model + " -o " + program);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  return r.exit_code == 0 ? program : "";
}

// The program run once on `target` with the case's inputs: its outputs.
std::vector<Bytes> run_case(const std::string& program, const testing::ImportCase& c, const testing::TempDir& dir,
                            const std::string& target) {
  std::string arguments = "run " + program + " --provider arm";
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const std::string path = dir.path() + "/" + c.name + ".in" + std::to_string(i) + ".bin";
    tools::write_file_atomic(path, c.inputs[i].data(), c.inputs[i].size());
    arguments += " --input " + path;
  }
  std::vector<std::string> outputs;
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    outputs.push_back(dir.path() + "/" + c.name + "." + target + ".out" + std::to_string(i) + ".bin");
    arguments += " --output " + outputs.back();
  }
  if (target == "qemu-m55") arguments += " --target qemu-m55";
  const testing::CliResult r = testing::run_cli(arguments);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  std::vector<Bytes> result;
  if (r.exit_code != 0) return result;
  for (const std::string& path : outputs) result.push_back(tools::read_file(path));
  return result;
}

TEST(ImportOperators, EachOperatorModelComputesTflmsBytesOnTheHost) {
  testing::TempDir dir;
  for (const testing::ImportCase& c : testing::tflite_import_cases()) {
    SCOPED_TRACE(c.name);
    const std::string program = import_case(c, dir);
    if (program.empty()) continue;
    EXPECT_EQ(run_case(program, c, dir, "host"), c.outputs);
  }
}

TEST(ImportOperators, EachOperatorModelComputesTflmsBytesOnTheM55) {
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  for (const testing::ImportCase& c : testing::tflite_import_cases()) {
    SCOPED_TRACE(c.name);
    const std::string program = import_case(c, dir);
    if (program.empty()) continue;
    const std::vector<Bytes> host = run_case(program, c, dir, "host");
    const std::vector<Bytes> m55 = run_case(program, c, dir, "qemu-m55");
    EXPECT_EQ(m55, host) << "the M55 and the host differ";
    EXPECT_EQ(m55, c.outputs);
  }
}

}  // namespace
}  // namespace etns
