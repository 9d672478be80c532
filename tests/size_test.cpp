// `etns size` through the built CLI on both firmware images: the components
// add up to the section totals within the unattributed bytes, kernels are
// listed per operator and variant, each image has exactly its providers'
// kernels, and a stripped or missing image is a one-line usage error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tools/common/process.h"

namespace etns {
namespace {

nlohmann::json size_json(const std::string& elf) {
  const testing::CliResult result = testing::run_cli("size --json " + elf);
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_EQ(result.stderr_text, "");
  return nlohmann::json::parse(result.stdout_text);
}

const nlohmann::json* find_named(const nlohmann::json& list, const std::string& name) {
  for (const nlohmann::json& item : list) {
    if (item["name"] == name) return &item;
  }
  return nullptr;
}

std::vector<std::string> part_names(const nlohmann::json& item) {
  std::vector<std::string> names;
  for (const nlohmann::json& part : item.value("parts", nlohmann::json::array())) names.push_back(part["name"]);
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  for (const std::string& candidate : names) {
    if (candidate == name) return true;
  }
  return false;
}

// build/firmware-ref: the same images with every kernel's reference variant.
std::string reference_image(const std::string& provider) {
  return (std::filesystem::path(testing::firmware_image(provider)).parent_path().parent_path() / "firmware-ref" /
          ("etns_m55_" + provider + ".elf"))
      .string();
}

class Size : public ::testing::Test {
 protected:
  void SetUp() override { ETNS_REQUIRE_FIRMWARE(); }
};

TEST_F(Size, ComponentsAddUpToTheSectionTotals) {
  for (const char* provider : {"arm", "ns"}) {
    SCOPED_TRACE(provider);
    const nlohmann::json json = size_json(testing::firmware_image(provider));
    EXPECT_EQ(json["schema"], "etns.size");
    EXPECT_EQ(json["schema_version"], 1);
    uint64_t flash = 0, ram = 0;
    for (const nlohmann::json& component : json["components"]) {
      flash += component["flash_bytes"].get<uint64_t>();
      ram += component["ram_bytes"].get<uint64_t>();
      if (!component.contains("parts")) continue;
      uint64_t parts_flash = 0;
      for (const nlohmann::json& part : component["parts"]) parts_flash += part["flash_bytes"].get<uint64_t>();
      EXPECT_EQ(parts_flash, component["flash_bytes"].get<uint64_t>()) << component["name"];
    }
    const nlohmann::json& sections = json["section_totals"];
    const nlohmann::json& unattributed = json["unattributed"];
    EXPECT_EQ(flash, json["total"]["flash_bytes"].get<uint64_t>());
    EXPECT_EQ(flash + unattributed["flash_bytes"].get<uint64_t>(), sections["flash_bytes"].get<uint64_t>());
    EXPECT_EQ(ram + unattributed["ram_bytes"].get<uint64_t>(), sections["ram_bytes"].get<uint64_t>());
    // String literals and padding only: well under a sixth of the flash.
    EXPECT_LT(unattributed["flash_bytes"].get<uint64_t>() * 6, sections["flash_bytes"].get<uint64_t>());
    EXPECT_EQ(unattributed["ram_bytes"], 0);
    // Each named part of the image is there.
    for (const char* name : {"runtime core", "program verifier", "kernels (cortex_m)", "portable kernels",
                             "firmware runner", "port and start-up", "C library and compiler runtime"}) {
      const nlohmann::json* component = find_named(json["components"], name);
      ASSERT_NE(component, nullptr) << name;
      EXPECT_GT((*component)["flash_bytes"].get<uint64_t>(), 0u) << name;
    }
  }
}

TEST_F(Size, Conv2dListsItsVariants) {
  const nlohmann::json json = size_json(testing::firmware_image("arm"));
  const nlohmann::json* kernels = find_named(json["components"], "kernels (cortex_m)");
  ASSERT_NE(kernels, nullptr);
  const nlohmann::json* conv2d = find_named((*kernels)["parts"], "conv2d");
  ASSERT_NE(conv2d, nullptr);
  const std::vector<std::string> variants = part_names(*conv2d);
  for (const char* variant : {"mve", "mve_3x3", "mve_gemm", "common"}) {
    EXPECT_TRUE(has(variants, variant)) << variant << " not in " << nlohmann::json(variants).dump();
  }
  // The text table indents operators under their group and variants under their operator.
  const testing::CliResult text = testing::run_cli("size " + testing::firmware_image("arm"));
  EXPECT_EQ(text.exit_code, 0) << text.stderr_text;
  EXPECT_NE(text.stdout_text.find("\nkernels (cortex_m) "), std::string::npos) << text.stdout_text;
  EXPECT_NE(text.stdout_text.find("\n  conv2d "), std::string::npos) << text.stdout_text;
  EXPECT_NE(text.stdout_text.find("\n    mve_3x3 "), std::string::npos) << text.stdout_text;

  // The shipped images link only the fast variants; the reference images link conv2d's reference.
  const std::string reference = reference_image("arm");
  if (!std::filesystem::exists(reference)) GTEST_SKIP() << "no reference image " << reference;
  const nlohmann::json ref_json = size_json(reference);
  const nlohmann::json* ref_kernels = find_named(ref_json["components"], "kernels (cortex_m)");
  ASSERT_NE(ref_kernels, nullptr);
  const nlohmann::json* ref_conv2d = find_named((*ref_kernels)["parts"], "conv2d");
  ASSERT_NE(ref_conv2d, nullptr);
  EXPECT_TRUE(has(part_names(*ref_conv2d), "ref")) << ref_conv2d->dump();
}

TEST_F(Size, OnlyTheNsImageHasCortexMNsKernels) {
  const nlohmann::json arm = size_json(testing::firmware_image("arm"));
  EXPECT_EQ(find_named(arm["components"], "kernels (cortex_m_ns)"), nullptr);
  const nlohmann::json ns = size_json(testing::firmware_image("ns"));
  const nlohmann::json* kernels = find_named(ns["components"], "kernels (cortex_m_ns)");
  ASSERT_NE(kernels, nullptr);
  for (const char* op : {"sub", "hardswish", "mean", "relu", "leaky_relu"}) {
    EXPECT_NE(find_named((*kernels)["parts"], op), nullptr) << op;
  }
}

TEST_F(Size, AStrippedImageIsOneLineAndExit2) {
  const testing::TempDir dir;
  const std::string stripped = dir.path() + "/stripped.elf";
  const std::string image = testing::firmware_image("arm");
  std::vector<std::string> argv;
  if (const std::string strip = tools::find_executable("arm-none-eabi-strip"); !strip.empty()) {
    argv = {strip, "--strip-all", "-o", stripped, image};
  } else if (const std::string objcopy = tools::find_executable("objcopy"); !objcopy.empty()) {
    argv = {objcopy, "--strip-all", image, stripped};
  } else {
    GTEST_SKIP() << "neither arm-none-eabi-strip nor objcopy is installed";
  }
  const tools::ProcessResult strip = tools::run_process(argv, dir.path(), 60);
  ASSERT_EQ(strip.exit_status, 0) << strip.stderr_text;
  const testing::CliResult result = testing::run_cli("size " + stripped);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stdout_text, "");
  EXPECT_EQ(result.stderr_text,
            "etns: " + stripped + ": no symbol table (stripped?): size needs an unstripped image\n");
}

TEST(SizeArguments, AMissingOrNonElfFileIsAUsageError) {
  const testing::TempDir dir;
  testing::CliResult result = testing::run_cli("size " + dir.path() + "/absent.elf");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stdout_text, "");
  EXPECT_EQ(result.stderr_text.rfind("etns: cannot read " + dir.path() + "/absent.elf", 0), 0u) << result.stderr_text;
  EXPECT_EQ(std::count(result.stderr_text.begin(), result.stderr_text.end(), '\n'), 1);
  const std::string text_file = dir.path() + "/notes.txt";
  ASSERT_EQ(std::system(("echo not an image > " + text_file).c_str()), 0);
  result = testing::run_cli("size " + text_file);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.stderr_text.rfind("etns: " + text_file + ": not an ELF file", 0), 0u) << result.stderr_text;
}

}  // namespace
}  // namespace etns
