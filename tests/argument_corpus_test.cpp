// The `arguments` fuzz corpus (fuzz/corpus/arguments: the single-operator
// seeds, what the campaigns kept, fixed crashers) run where 32-bit size
// arithmetic really is 32 bits: each program goes through `etns run` on the
// host and on the Cortex-M55 firmware under QEMU. Both refuse it with the
// same line, or both run it and give the same bytes. No fault, no hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/core/scalar_type.h"
#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tools/common/files.h"
#include "tools/writers/program/program_model.h"

namespace etns {
namespace {

// The committed corpus, or the folder $ETNS_ARGUMENT_CORPUS names (a
// campaign's working corpus, build-fuzz/corpus/arguments: docs/fuzzing.md).
const char* corpus_override() {
  const char* folder = std::getenv("ETNS_ARGUMENT_CORPUS");
  return folder != nullptr && *folder != '\0' ? folder : nullptr;
}

std::vector<std::string> corpus_files() {
  const std::string folder = corpus_override() != nullptr ? corpus_override() : ETNS_SOURCE_DIR "/fuzz/corpus/arguments";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// An input of the size the program's first input declares (a fixed byte
// pattern), or none when the program cannot say: then the load's refusal,
// or the input's, is what both targets must agree on.
std::vector<uint8_t> input_for(const std::vector<uint8_t>& program) {
  constexpr uint64_t kMaxInputBytes = 4 << 20;
  try {
    const tools::ProgramModel model = tools::read_program(program);
    if (model.inputs.empty()) return {};
    const tools::ModelValue& value = model.values.at(static_cast<size_t>(model.inputs[0]));
    if (value.kind != runtime::ValueKind::Tensor) return {};
    const size_t bytes = value.tensor.nbytes();
    if (bytes > kMaxInputBytes) return {};
    std::vector<uint8_t> input(bytes);
    for (size_t k = 0; k < bytes; ++k) input[k] = static_cast<uint8_t>(k * 37 + 11);
    return input;
  } catch (const std::exception&) {
    return {};
  }
}

TEST(ArgumentCorpus, EachProgramGetsOneVerdictOnTheHostAndOnTheM55) {
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  const std::vector<std::string> files = corpus_files();
  ASSERT_FALSE(files.empty());
  size_t ran = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> input = input_for(tools::read_file(path));
    const std::string in = dir.path() + "/in.bin";
    tools::write_file_atomic(in, input.data(), input.size());
    const std::string run = "run " + path + " --provider ns --input " + in + " --output ";
    std::filesystem::remove(dir.path() + "/host.bin");
    std::filesystem::remove(dir.path() + "/m55.bin");
    const testing::CliResult host = testing::run_cli(run + dir.path() + "/host.bin");
    const testing::CliResult m55 = testing::run_cli(run + dir.path() + "/m55.bin --target qemu-m55 --timeout 60");
    ASSERT_TRUE(host.exit_code == 0 || host.exit_code == 1) << host.stderr_text;
    EXPECT_EQ(m55.exit_code, host.exit_code) << "host: " << host.stderr_text << "m55: " << m55.stderr_text;
    if (host.exit_code != 0 || m55.exit_code != 0) {
      EXPECT_EQ(m55.stderr_text, host.stderr_text) << "the firmware refuses it with the same line";
      continue;
    }
    ++ran;
    EXPECT_EQ(tools::read_file(dir.path() + "/m55.bin"), tools::read_file(dir.path() + "/host.bin"));
  }
  std::printf("argument corpus: %zu programs, %zu ran on both targets, %zu refused alike\n", files.size(), ran,
              files.size() - ran);
  // The seeds run: a corpus that only holds refusals would test one path.
  if (corpus_override() == nullptr) {
    EXPECT_GT(ran, 60U) << ran << " of " << files.size() << " ran";
  }
}

}  // namespace
}  // namespace etns
