#pragma once

#include <string>
#include <vector>

#include "protocol/provider.h"
#include "tools/evidence/elf/elf_image.h"

// Which kernels an ELF links, checked against the build flavour it was declared
// to be (spec/profiler.md §11, read from the symbol table instead of nm): the
// provider registry, the cortex_m_ns and portable kernels, and for Arm images
// no heap. Used by `etns verify-kernels`.
namespace etns::tools {

// protocol/provider.h's enum; its to_string comes with it.
using KernelProvider = protocol::Provider;

struct KernelFlavor {
  KernelProvider provider = KernelProvider::Arm;
  bool ns_ops = false;           // the image must link cortex_m_ns kernels; without it, none
  bool expect_portable = false;  // the image must link portable kernels; without it, no rule
  // A selective build (etns kernels): when `selective`, the image must link the
  // selected registry and the kernels of exactly these operators (the
  // programs' operators, "cortex_m::quantized_conv2d.out"), no other's.
  bool selective = false;
  std::vector<std::string> selected_operators;
};

struct KernelCheck {
  enum class Status { Pass, Fail, Skip };
  Status status = Status::Pass;
  std::string rule;    // what was required: "--ns-ops: cortex_m_ns kernels linked"
  std::string detail;  // Fail: what was found instead; Skip: why the rule does not apply
};

// The symbol classes (defined symbols, mangled, de-duplicated and sorted) and
// one check per rule that applies, in the order they are printed.
struct KernelVerification {
  std::string path;
  std::string machine;  // "ARM", "x86-64", ...
  KernelFlavor flavor;
  std::vector<std::string> provider_registries;
  std::vector<std::string> cortex_m_kernels;  // informational: no rule reads it
  std::vector<std::string> cortex_m_ns_kernels;
  std::vector<std::string> portable_kernels;
  std::vector<std::string> heap_symbols;  // defined or referenced, as heap_symbols() reports them
  // The operators whose kernels are linked, found by their run functions:
  // "cortex_m::conv2d", "portable::mean" (namespace :: operator_stem).
  std::vector<std::string> linked_operators;
  std::vector<KernelCheck> checks;

  bool passed() const;  // no check failed
};

// Mangled names of the two provider registries, etns::kernels::registry_arm() and
// registry_ns(), and of a selective build's registry_selected().
extern const char* const kArmRegistrySymbol;
extern const char* const kNsRegistrySymbol;
extern const char* const kSelectedRegistrySymbol;

// "cortex_m::quantized_conv2d.out" -> "cortex_m::conv2d", "aten::mean.out" ->
// "portable::mean": the kernel namespace and operator_stem, as linked_operators names them.
std::string kernel_operator_key(const std::string& operator_name);

// Classifies the symbols of `image` and applies the rules of `flavor`. The
// no-heap rule applies to Arm images only; on any other machine (a host
// binary, which may allocate) it is a Skip.
KernelVerification verify_kernels(const ElfImage& image, const KernelFlavor& flavor);

// The report `etns verify-kernels` prints on stdout: the declared flavour, each
// class's symbols demangled and grouped by operator (`operator_names`, the
// registries' names such as "cortex_m::quantized_conv2d.out", say which
// operators there are; functions of none of them are listed as "other"), one
// "PASS: " / "FAIL: " / "SKIP: " line per check, and, when nothing failed, the
// final "PASS: linked kernels match the declared build flavor".
std::string render_kernel_verification(const KernelVerification& verification,
                                       const std::vector<std::string>& operator_names);

// Every operator name this build's registries hold, for the grouping above.
std::vector<std::string> registered_operator_names();

// The name a symbol is grouped by: its demangled name without the
// parameter list, template arguments, namespaces and clone suffixes
// ("etns::cortex_m::conv2d_s8_mve(...)" -> "conv2d_s8_mve"); a k-constant in
// CamelCase becomes snake case ("kConv2dArgs" -> "conv2d_args").
std::string symbol_stem(std::string demangled);

// The words of a snake_case name, empty ones dropped: "conv2d__mve_3x3" ->
// {"conv2d", "mve", "3x3"}.
std::vector<std::string> snake_words(const std::string& snake);

// "cortex_m::quantized_conv2d.out" -> "conv2d": the operator as its kernel's
// folder and functions name it.
std::string operator_stem(const std::string& name);

// The operator of `stems` sharing the most leading words with the symbol's
// stem (at least one); "other" when none does (helpers several share).
// `symbol` may be mangled or plain ("conv2d_mve_3x3").
std::string operator_of(const std::string& symbol, const std::vector<std::string>& stems);

}  // namespace etns::tools
