// Every golden tensor of ../shared/golden (arm programs, inputs A-C, every
// instruction and the final output) reproduced bit for bit by `etns run
// --dump-dir`, on the host and on the Cortex-M55 firmware under QEMU.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/shared_data.h"

namespace etns {
namespace {

size_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

// Runs every (program, input) pair of the golden index with `etns run
// <target_arguments>` and compares every tensor.
void expect_every_golden_tensor(const std::string& shared, const std::string& target_arguments) {
  const std::vector<uint8_t> index_bytes = testing::read_file(shared + "/golden/golden.json");
  const nlohmann::json index = nlohmann::json::parse(index_bytes.begin(), index_bytes.end());

  // Group the golden files by (program, input).
  std::map<std::pair<std::string, std::string>, std::vector<nlohmann::json>> runs;
  for (const nlohmann::json& file : index["files"]) {
    runs[{file["pte"].get<std::string>(), file["input_id"].get<std::string>()}].push_back(file);
  }
  ASSERT_EQ(runs.size(), 6u) << "two arm programs x inputs A, B, C";

  size_t compared = 0;
  for (const auto& [key, files] : runs) {
    const auto& [pte, input_id] = key;
    SCOPED_TRACE(pte + " input " + input_id);
    const std::string golden = shared + "/golden/" + pte + "." + input_id;
    testing::TempDir dir;
    // golden.json names programs relative to the shared folder's parent: "shared/models/...".
    std::string relative = index["ptes"][pte]["pte_file"];
    const std::string prefix = "shared/";
    ASSERT_EQ(relative.rfind(prefix, 0), 0u) << relative;
    const std::string program = shared + "/" + relative.substr(prefix.size());
    const testing::CliResult result =
        testing::run_cli("run " + program + target_arguments + " --provider arm --input " + golden + ".input.bin --output " +
                         dir.path() + "/out.bin --dump-dir " + dir.path() + "/dump");
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;

    for (const nlohmann::json& file : files) {
      const std::string kind = file["kind"];
      if (kind == "input") continue;
      const std::string ours = kind == "output"
                                   ? dir.path() + "/out.bin"
                                   : dir.path() + "/dump/" + file["instruction_id"].get<std::string>() + ".bin";
      const std::vector<uint8_t> want = testing::read_file(shared + "/golden/" + file["file"].get<std::string>());
      const std::vector<uint8_t> got = testing::read_file(ours);
      ASSERT_EQ(want.size(), file["byte_size"].get<size_t>());
      EXPECT_EQ(got.size(), want.size()) << file["file"];
      EXPECT_TRUE(got == want) << file["file"] << " (" << file["operator"] << "): first difference at byte "
                               << first_difference(got, want);
      ++compared;
    }
  }
  // 12 + 1 tensors per tier1 run, 5 + 1 per tier1mean run.
  EXPECT_EQ(compared, 3u * 13 + 3u * 6);
}

TEST(Golden, HostReproducesEveryArmTensorBitForBit) {
  ETNS_REQUIRE_SHARED(shared);
  expect_every_golden_tensor(shared, "");
}

TEST(Golden, QemuCortexM55ReproducesEveryArmTensorBitForBit) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  expect_every_golden_tensor(shared, " --target qemu-m55");
}

}  // namespace
}  // namespace etns
