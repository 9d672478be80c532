// The firmware images' symbol tables: no heap, and each provider links the
// kernels its registry names and no others.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/exec/budget.h"
#include "tests/support/qemu.h"
#include "tools/evidence/elf/elf_image.h"

namespace etns {
namespace {

// Mangled names carry namespaces as <length><name>: "11cortex_m_ns".
bool has_symbol_containing(const tools::ElfImage& image, const std::string& text) {
  for (const tools::ElfSymbol& symbol : image.symbols()) {
    if (symbol.defined && symbol.kind == tools::ElfSymbol::Kind::Function &&
        symbol.name.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

class FirmwareImage : public ::testing::Test {
 protected:
  void SetUp() override { ETNS_REQUIRE_FIRMWARE(); }
};

TEST_F(FirmwareImage, NeitherImageCanAllocateFromAHeapOrThrow) {
  for (const char* provider : {"arm", "ns"}) {
    const tools::ElfImage image = tools::ElfImage::load(testing::firmware_image(provider));
    EXPECT_EQ(image.machine(), "ARM");
    EXPECT_TRUE(tools::heap_symbols(image).empty()) << provider << ": " << joined(tools::heap_symbols(image));
  }
}

// The link checks the runtime's planned-memory limit against the port's
// planned memory (an547.ld asserts etns_planned_memory_budget fits): the
// runner images must publish it, or the assertion would have nothing to check.
TEST_F(FirmwareImage, RunnerImagesPublishThePlannedMemoryLimitTheLinkChecks) {
  for (const char* provider : {"arm", "ns"}) {
    const tools::ElfImage image = tools::ElfImage::load(testing::firmware_image(provider));
    const tools::ElfSymbol* budget = image.find("etns_planned_memory_budget");
    ASSERT_NE(budget, nullptr) << provider;
    EXPECT_TRUE(budget->defined) << provider;
    EXPECT_EQ(budget->address, runtime::kPlannedMemoryBytes) << provider;
    const tools::ElfSymbol* start = image.find("__planned_start");
    const tools::ElfSymbol* end = image.find("__planned_end");
    ASSERT_TRUE(start != nullptr && end != nullptr) << provider;
    EXPECT_GE(end->address - start->address, budget->address) << provider;
  }
}

TEST_F(FirmwareImage, HeapCheckFindsAllocationInAHostBinary) {
  // The check itself must be able to fail: the host CLI allocates and throws.
  const tools::ElfImage host = tools::ElfImage::load(ETNS_CLI_PATH);
  const std::vector<std::string> found = tools::heap_symbols(host);
  EXPECT_NE(std::find(found.begin(), found.end(), "__cxa_throw"), found.end()) << joined(found);
  EXPECT_NE(std::find(found.begin(), found.end(), "_Znwm"), found.end()) << joined(found);
}

TEST_F(FirmwareImage, EachProviderLinksExactlyItsKernels) {
  const tools::ElfImage arm = tools::ElfImage::load(testing::firmware_image("arm"));
  const tools::ElfImage ns = tools::ElfImage::load(testing::firmware_image("ns"));
  for (const char* kernel : {"8cortex_m10conv2d_run", "8cortex_m12quantize_run", "8cortex_m14dequantize_run",
                             "8cortex_m11minimum_run", "8cortex_m11maximum_run", "8cortex_m7mul_run",
                             "8cortex_m7add_run", "8cortex_m14avg_pool2d_run", "8cortex_m14max_pool2d_run"}) {
    EXPECT_TRUE(has_symbol_containing(arm, kernel)) << "arm lacks " << kernel;
    EXPECT_TRUE(has_symbol_containing(ns, kernel)) << "ns lacks " << kernel;
  }
  // The portable fallbacks of the default ETNS_PORTABLE_OPS.
  for (const char* kernel : {"8portable9clamp_run", "8portable14leaky_relu_run", "8portable8mean_run",
                             "8portable7sub_run"}) {
    EXPECT_TRUE(has_symbol_containing(arm, kernel)) << "arm lacks " << kernel;
  }
  EXPECT_FALSE(has_symbol_containing(arm, "11cortex_m_ns")) << "the arm image carries cortex_m_ns code";
  for (const char* kernel : {"11cortex_m_ns7sub_run", "11cortex_m_ns13hardswish_run", "11cortex_m_ns8mean_run",
                             "11cortex_m_ns8relu_run", "11cortex_m_ns14leaky_relu_run"}) {
    EXPECT_TRUE(has_symbol_containing(ns, kernel)) << "ns lacks " << kernel;
  }
}

}  // namespace
}  // namespace etns
