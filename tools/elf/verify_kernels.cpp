#include "tools/elf/verify_kernels.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tools/common/failure.h"

namespace etns::tools {

const char* const kArmRegistrySymbol = "_ZN4etns7kernels12registry_armEv";
const char* const kNsRegistrySymbol = "_ZN4etns7kernels11registry_nsEv";

namespace {

constexpr size_t kListedNames = 12;

// Mangled names carry each namespace as <length><name>, so "11cortex_m_ns" is
// etns::cortex_m_ns and "4etns8portable" is etns::portable.
bool is_cortex_m_ns_kernel(const std::string& name) { return name.find("11cortex_m_ns") != std::string::npos; }

bool is_portable_kernel(const std::string& name) { return name.find("4etns8portable") != std::string::npos; }

// "8cortex_m" then the length of the next name: excludes "11cortex_m_ns".
bool is_cortex_m_kernel(const std::string& name) {
  static const std::string kNamespace = "8cortex_m";
  for (size_t at = name.find(kNamespace); at != std::string::npos; at = name.find(kNamespace, at + 1)) {
    const size_t next = at + kNamespace.size();
    if (next < name.size() && std::isdigit(static_cast<unsigned char>(name[next]))) return true;
  }
  return false;
}

// ['first', 'second', ...]: mangled, as in the class, so the list is its sorted head.
std::string name_list(const std::vector<std::string>& names, size_t limit) {
  std::string text = "[";
  for (size_t i = 0; i < names.size() && i < limit; ++i) text += (i == 0 ? "'" : ", '") + names[i] + "'";
  if (names.size() > limit) text += ", ...";
  return text + "]";
}

std::string found(const std::vector<std::string>& names) {
  return "found " + std::to_string(names.size()) + ": " + name_list(names, 3);
}

bool contains(const std::vector<std::string>& names, const char* name) {
  return std::binary_search(names.begin(), names.end(), std::string(name));
}

KernelCheck check(bool passed, std::string rule, std::string detail) {
  return {passed ? KernelCheck::Status::Pass : KernelCheck::Status::Fail, std::move(rule),
          passed ? std::string() : std::move(detail)};
}

const char* python_bool(bool value) { return value ? "True" : "False"; }

}  // namespace

bool KernelVerification::passed() const {
  return std::none_of(checks.begin(), checks.end(),
                      [](const KernelCheck& check) { return check.status == KernelCheck::Status::Fail; });
}

KernelVerification verify_kernels(const ElfImage& image, const KernelFlavor& flavor) {
  KernelVerification result;
  result.path = image.path();
  result.machine = image.machine();
  result.flavor = flavor;

  std::set<std::string> registries, cortex_m, cortex_m_ns, portable;
  for (const ElfSymbol& symbol : image.symbols()) {
    if (!symbol.defined) continue;
    const std::string& name = symbol.name;
    if (name == kArmRegistrySymbol || name == kNsRegistrySymbol) registries.insert(name);
    if (is_cortex_m_ns_kernel(name)) cortex_m_ns.insert(name);
    if (is_portable_kernel(name)) portable.insert(name);
    if (is_cortex_m_kernel(name)) cortex_m.insert(name);
  }
  const std::vector<std::string> heap = heap_symbols(image);
  const std::set<std::string> heap_set(heap.begin(), heap.end());
  result.provider_registries.assign(registries.begin(), registries.end());
  result.cortex_m_kernels.assign(cortex_m.begin(), cortex_m.end());
  result.cortex_m_ns_kernels.assign(cortex_m_ns.begin(), cortex_m_ns.end());
  result.portable_kernels.assign(portable.begin(), portable.end());
  result.heap_symbols.assign(heap_set.begin(), heap_set.end());

  const bool has_arm = contains(result.provider_registries, kArmRegistrySymbol);
  const bool has_ns = contains(result.provider_registries, kNsRegistrySymbol);
  if (flavor.provider == KernelProvider::Ns) {
    result.checks.push_back(check(has_ns, "--provider ns: ns registry linked",
                                  std::string("no ns registry ") + kNsRegistrySymbol));
  } else {
    std::string detail = has_arm ? "" : std::string("no arm registry ") + kArmRegistrySymbol;
    if (has_ns) detail += (detail.empty() ? "" : "; ") + std::string("found the ns registry ") + kNsRegistrySymbol;
    result.checks.push_back(
        check(has_arm && !has_ns, "--provider arm: arm registry linked and ns registry not linked", detail));
  }
  if (flavor.ns_ops) {
    result.checks.push_back(
        check(!result.cortex_m_ns_kernels.empty(), "--ns-ops: cortex_m_ns kernels linked", "none found"));
  } else {
    result.checks.push_back(check(result.cortex_m_ns_kernels.empty(), "no --ns-ops: no cortex_m_ns kernels linked",
                                  found(result.cortex_m_ns_kernels)));
  }
  if (flavor.expect_portable) {
    result.checks.push_back(
        check(!result.portable_kernels.empty(), "--expect-portable: portable kernels linked", "none found"));
  }
  const std::string heap_rule = "no heap: no allocation or throw symbols";
  if (result.machine == "ARM") {
    result.checks.push_back(check(result.heap_symbols.empty(), heap_rule, found(result.heap_symbols)));
  } else {
    result.checks.push_back({KernelCheck::Status::Skip, heap_rule,
                             "machine " + result.machine + " is not a device image; host binaries may allocate"});
  }
  return result;
}

std::string render_kernel_verification(const KernelVerification& verification) {
  const KernelFlavor& flavor = verification.flavor;
  std::string text;
  text += "ELF: " + verification.path + "\n";
  text += std::string("declared flavor: provider=") + to_string(flavor.provider) +
          " ns_ops=" + python_bool(flavor.ns_ops) + " expect_portable=" + python_bool(flavor.expect_portable) + "\n";
  text += "machine: " + verification.machine + "\n";
  const auto add_class = [&text](const char* label, const std::vector<std::string>& names) {
    text += std::string(label) + " (" + std::to_string(names.size()) + "): " + name_list(names, kListedNames) + "\n";
  };
  add_class("provider registries", verification.provider_registries);
  add_class("cortex_m kernel symbols", verification.cortex_m_kernels);
  add_class("cortex_m_ns kernel symbols", verification.cortex_m_ns_kernels);
  add_class("portable kernel symbols", verification.portable_kernels);
  add_class("heap symbols", verification.heap_symbols);
  for (const KernelCheck& check : verification.checks) {
    switch (check.status) {
      case KernelCheck::Status::Pass: text += "PASS: " + check.rule + "\n"; break;
      case KernelCheck::Status::Fail: text += "FAIL: " + check.rule + ": " + check.detail + "\n"; break;
      case KernelCheck::Status::Skip: text += "SKIP: " + check.rule + ": " + check.detail + "\n"; break;
    }
  }
  if (verification.passed()) text += "PASS: linked kernels match the declared build flavor\n";
  return text;
}

}  // namespace etns::tools
