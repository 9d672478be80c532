#include "tools/evidence/elf/size_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/elf/elf_image.h"

namespace etns::tools {
namespace {

const std::vector<std::string> kStems = {"add", "conv2d", "depthwise_conv2d", "sub", "transpose", "transpose_conv2d"};
const std::vector<std::string> kVariants = {"mve", "mve_3x3", "mve_gemm", "ref", "sse41"};

SymbolHome home_of(const std::string& name, const std::string& file = "") {
  return classify_symbol(name, file, kStems, kVariants);
}

TEST(SizeReport, KernelSymbolsGoToTheirOperatorAndTheVariantTheirNameSays) {
  // etns::cortex_m::conv2d_s8_mve_3x3(int), conv2d_s8_ref(int), conv2d_prepare(int)
  SymbolHome home = home_of("_ZN4etns8cortex_m17conv2d_s8_mve_3x3Ei");
  EXPECT_EQ(home.component, kCortexMKernels);
  EXPECT_EQ(home.operator_name, "conv2d");
  EXPECT_EQ(home.variant, "mve_3x3");
  home = home_of("_ZN4etns8cortex_m13conv2d_s8_refEi");
  EXPECT_EQ(home.operator_name, "conv2d");
  EXPECT_EQ(home.variant, "ref");
  home = home_of("_ZN4etns8cortex_m14conv2d_prepareEi");
  EXPECT_EQ(home.operator_name, "conv2d");
  EXPECT_EQ(home.variant, "common");
  // The 3x3 front-door check names no ISA: common, not mve_3x3.
  EXPECT_EQ(home_of("_ZN4etns8cortex_m18conv2d_3x3_handlesEv").variant, "common");
  // Words in another order still name the variant; the longest operator wins.
  home = home_of("_ZN4etns8cortex_m27depthwise_conv2d_3x3_s8_mveEi");
  EXPECT_EQ(home.operator_name, "depthwise_conv2d");
  EXPECT_EQ(home.variant, "mve_3x3");
  home = home_of("_ZN4etns8cortex_m23transpose_conv2d_s8_mveEi");
  EXPECT_EQ(home.operator_name, "transpose_conv2d");
  EXPECT_EQ(home.variant, "mve");
}

TEST(SizeReport, ProvidersAreSeparateComponents) {
  SymbolHome home = home_of("_ZN4etns11cortex_m_ns10sub_s8_mveEi");
  EXPECT_EQ(home.component, kCortexMNsKernels);
  EXPECT_EQ(home.operator_name, "sub");
  EXPECT_EQ(home.variant, "mve");
  home = home_of("_ZN4etns8portable7sub_runEi");
  EXPECT_EQ(home.component, kPortableKernels);
  EXPECT_EQ(home.operator_name, "sub");
  EXPECT_EQ(home.variant, "common");
  EXPECT_EQ(home_of("_ZN4etns7kernels10check_rankEi").component, kKernelSupport);
}

TEST(SizeReport, RuntimeVerifierPortRunnerAndCLibrary) {
  EXPECT_EQ(home_of("_ZN4etns7runtime6Method7executeEv").component, kRuntimeCore);
  EXPECT_EQ(home_of("_ZN4etns7runtime7Program4loadEi").component, kProgramVerifier);
  EXPECT_EQ(home_of("_ZNK11flatbuffers8Verifier20VerifyVectorOrStringEv").component, kProgramVerifier);
  EXPECT_EQ(home_of("_ZN4etns7runtime8platform14write_log_lineEPKc").component, kPortAndStartup);
  EXPECT_EQ(home_of("_ZN4etns8firmware4port13console_writeEPKc").component, kPortAndStartup);
  EXPECT_EQ(home_of("etns_reset_handler").component, kPortAndStartup);
  EXPECT_EQ(home_of("_ZN4etns8firmware13provider_nameEv").component, kFirmwareRunner);
  EXPECT_EQ(home_of("etns_firmware_main").component, kFirmwareRunner);
  EXPECT_EQ(home_of("memcpy").component, kCLibrary);
  EXPECT_EQ(home_of("__aeabi_uldivmod").component, kCLibrary);
  // etns::unknown::thing(): a namespace no component claims.
  EXPECT_EQ(home_of("_ZN4etns7unknown5thingEv").component, kOther);
}

TEST(SizeReport, LocalSymbolsUseTheirFile) {
  // etns::cortex_m::(anonymous namespace)::layout(int) in conv2d_mve_3x3.cpp.
  const SymbolHome home = home_of("_ZN4etns8cortex_m12_GLOBAL__N_16layoutEi", "conv2d_mve_3x3.cpp");
  EXPECT_EQ(home.component, kCortexMKernels);
  EXPECT_EQ(home.operator_name, "conv2d");
  EXPECT_EQ(home.variant, "mve_3x3");
  EXPECT_EQ(home_of("_ZN4etns8cortex_m12_GLOBAL__N_16layoutEi", "conv2d.cpp").variant, "common");
  // The port's helpers share etns::firmware with the runner: the file decides.
  EXPECT_EQ(home_of("_ZN4etns8firmware12_GLOBAL__N_16helperEv", "port.cpp").component, kPortAndStartup);
  EXPECT_EQ(home_of("_ZN4etns8firmware12_GLOBAL__N_16helperEv", "runner.cpp").component, kFirmwareRunner);
  // A compiler's switch table is left to its file's other symbols.
  EXPECT_EQ(home_of("CSWTCH.12", "format.cpp").component, "");
}

// This test binary (x86-64, with its symbol table) holds the runtime and the
// kernels: every component is there and the bytes add up.
TEST(SizeReport, ComponentsAndUnattributedBytesAddUpToTheSections) {
  const ElfImage image = ElfImage::load("/proc/self/exe");
  const SizeReport report = size_report(image, {"cortex_m::quantized_conv2d.out", "cortex_m_ns::quantized_sub.out"});
  const SizeBytes sum = report.attributed();
  EXPECT_EQ(sum.flash() + report.unattributed.flash(), report.section_totals.flash());
  EXPECT_EQ(sum.ram() + report.unattributed.ram(), report.section_totals.ram());
  EXPECT_EQ(sum.text + sum.rodata + report.unattributed.text + report.unattributed.rodata,
            report.section_totals.text + report.section_totals.rodata);
  bool runtime = false, cortex_m = false;
  for (const SizeComponent& component : report.components) {
    runtime = runtime || component.name == kRuntimeCore;
    cortex_m = cortex_m || component.name == kCortexMKernels;
    SizeBytes parts;
    for (const SizeComponent& part : component.parts) parts += part.bytes;
    if (!component.parts.empty()) {
      EXPECT_EQ(parts.flash(), component.bytes.flash()) << component.name;
    }
  }
  EXPECT_TRUE(runtime);
  EXPECT_TRUE(cortex_m);
  for (size_t i = 1; i < report.components.size(); ++i) {
    EXPECT_GE(report.components[i - 1].bytes.flash(), report.components[i].bytes.flash());
  }
  const nlohmann::json json = nlohmann::json::parse(size_report_json(report));
  EXPECT_EQ(json["schema"], "etns.size");
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_EQ(json["total"]["flash_bytes"], sum.flash());
  const std::string text = render_size_report(report);
  EXPECT_NE(text.find("\ntotal "), std::string::npos) << text;
}

TEST(SizeReport, TheImageNamesItsSectionsAndSourceFiles) {
  const ElfImage image = ElfImage::load("/proc/self/exe");
  ASSERT_TRUE(image.has_symbol_table());
  bool text = false;
  for (const ElfSection& section : image.sections()) {
    if (section.name == ".text") text = section.allocated && section.executable && section.has_contents;
  }
  EXPECT_TRUE(text);
  bool own_file = false;
  for (const ElfSymbol& symbol : image.symbols()) {
    own_file = own_file || (symbol.kind == ElfSymbol::Kind::File && symbol.name == "size_report_test.cpp");
    if (symbol.defined && symbol.size > 0) {
      ASSERT_LT(symbol.section, image.sections().size()) << symbol.name;
    }
  }
  EXPECT_TRUE(own_file);
}

TEST(SizeReport, AStrippedImageSaysSizeNeedsItsSymbols) {
  const std::string objcopy = find_executable("objcopy");
  if (objcopy.empty()) GTEST_SKIP() << "objcopy is not installed";
  const TemporaryDirectory dir;
  const std::string stripped = dir.path() + "/stripped";
  const ProcessResult strip = run_process({objcopy, "--strip-all", "/proc/self/exe", stripped}, dir.path(), 60);
  ASSERT_EQ(strip.exit_status, 0) << strip.stderr_text;
  const ElfImage image = ElfImage::load(stripped, ElfImage::SymbolTable::Optional);
  EXPECT_FALSE(image.has_symbol_table());
  try {
    size_report(image, {});
    FAIL() << "a stripped image was measured";
  } catch (const Failure& failure) {
    EXPECT_EQ(std::string(failure.what()), stripped + ": no symbol table (stripped?): size needs an unstripped image");
    EXPECT_EQ(failure.exit_code(), 2);
  }
  EXPECT_THROW(ElfImage::load(stripped), Failure);
}

}  // namespace
}  // namespace etns::tools
