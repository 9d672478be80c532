#include "tools/evidence/elf/verify_kernels.h"


#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/registry.h"
#include "tools/common/failure.h"

namespace etns::tools {

const char* const kArmRegistrySymbol = "_ZN4etns7kernels12registry_armEv";
const char* const kNsRegistrySymbol = "_ZN4etns7kernels11registry_nsEv";
const char* const kSelectedRegistrySymbol = "_ZN4etns7kernels17registry_selectedEv";

namespace {

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

// "first, second, third and 2 more": demangled, for FAIL details.
std::string name_list(const std::vector<std::string>& names, size_t limit) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < limit; ++i) text += (i == 0 ? "" : ", ") + demangle(names[i]);
  if (names.size() > limit) text += " and " + std::to_string(names.size() - limit) + " more";
  return text;
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

}  // namespace

// The name a symbol is grouped by: its demangled name without the
// parameter list, template arguments, namespaces and clone suffixes
// ("etns::cortex_m::conv2d_s8_mve(...)" -> "conv2d_s8_mve"); a k-constant in
// CamelCase becomes snake case ("kConv2dArgs" -> "conv2d_args").
std::string symbol_stem(std::string demangled) {
  demangled = without_anonymous_namespaces(std::move(demangled));
  std::string name;
  int depth = 0;
  for (const char c : demangled) {
    if (c == '(' && depth == 0) break;
    if (c == '<' || c == '(') ++depth;
    if (depth == 0) name += c;
    if ((c == '>' || c == ')') && depth > 0) --depth;
  }
  const size_t scope = name.rfind("::");
  if (scope != std::string::npos) name = name.substr(scope + 2);
  const size_t clone = name.find('.');
  if (clone != std::string::npos) name = name.substr(0, clone);
  if (name.size() > 1 && name[0] == 'k' && std::isupper(static_cast<unsigned char>(name[1]))) {
    std::string snake;
    for (size_t i = 1; i < name.size(); ++i) {
      const char c = name[i];
      if (std::isupper(static_cast<unsigned char>(c))) {
        if (!snake.empty()) snake += '_';
        snake += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else {
        snake += c;
      }
    }
    name = snake;
  }
  return name;
}

std::vector<std::string> snake_words(const std::string& snake) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : snake + "_") {
    if (c == '_') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

namespace {

}  // namespace

// "cortex_m::quantized_conv2d.out" -> "conv2d": the operator as its kernel's
// folder and functions name it.
std::string operator_stem(const std::string& name) {
  std::string stem = name.substr(name.rfind("::") == std::string::npos ? 0 : name.rfind("::") + 2);
  const size_t overload = stem.find('.');
  if (overload != std::string::npos) stem = stem.substr(0, overload);
  if (stem.rfind("quantized_", 0) == 0) stem = stem.substr(10);
  return stem;
}

// The operator of `stems` sharing the most leading words with the symbol's
// stem (at least one); "other" when none does (helpers several share).
std::string operator_of(const std::string& symbol, const std::vector<std::string>& stems) {
  const std::vector<std::string> words = snake_words(symbol_stem(demangle(symbol)));
  std::string best = "other";
  size_t best_words = 0;
  for (const std::string& stem : stems) {
    const std::vector<std::string> op_words = snake_words(stem);
    size_t common = 0;
    while (common < words.size() && common < op_words.size() && words[common] == op_words[common]) ++common;
    if (common > best_words || (common == best_words && common > 0 && stem.size() < best.size())) {
      best = stem;
      best_words = common;
    }
  }
  return best;
}

namespace {

// One class: "<label>: N symbols, M functions by operator" and then one line
// per operator, "  conv2d: conv2d_prepare, conv2d_run, ..." with each name once.
std::string class_lines(const std::string& label, const std::vector<std::string>& names,
                        const std::vector<std::string>& stems) {
  if (names.empty()) return label + ": none\n";
  // Functions only: the data symbols are argument tables and constants.
  std::map<std::string, std::set<std::string>> by_operator;
  size_t functions = 0;
  for (const std::string& name : names) {
    std::string demangled = demangle(name);
    static const std::string kAnonymous = "(anonymous namespace)";
    for (size_t at = demangled.find(kAnonymous); at != std::string::npos; at = demangled.find(kAnonymous)) {
      demangled.erase(at, kAnonymous.size());
    }
    if (demangled.find('(') == std::string::npos) continue;
    const std::string stem = symbol_stem(demangled);
    if (stem.empty()) continue;
    by_operator[operator_of(name, stems)].insert(stem);
    ++functions;
  }
  std::string text = label + ": " + std::to_string(names.size()) + (names.size() == 1 ? " symbol" : " symbols") +
                     ", " + std::to_string(functions) + " functions by operator\n";
  for (const auto& [op, functions] : by_operator) {
    text += "  " + op + ": ";
    bool first = true;
    for (const std::string& function : functions) {
      text += (first ? "" : ", ") + function;
      first = false;
    }
    text += "\n";
  }
  return text;
}

}  // namespace

std::string kernel_operator_key(const std::string& operator_name) {
  const char* kernel_namespace = "portable";  // aten:: and dim_order_ops::
  if (operator_name.rfind("cortex_m_ns::", 0) == 0) {
    kernel_namespace = "cortex_m_ns";
  } else if (operator_name.rfind("cortex_m::", 0) == 0) {
    kernel_namespace = "cortex_m";
  }
  return std::string(kernel_namespace) + "::" + operator_stem(operator_name);
}

namespace {

// The operators whose run functions ("etns::cortex_m::conv2d_run(...)") the
// image defines: every registry row points at one, so a linked kernel has it.
std::vector<std::string> linked_operators(const ElfImage& image) {
  std::map<std::string, std::vector<std::string>> stems_by_namespace;
  for (const std::string& name : registered_operator_names()) {
    const std::string key = kernel_operator_key(name);
    const size_t split = key.find("::");
    stems_by_namespace[key.substr(0, split)].push_back(key.substr(split + 2));
  }
  std::set<std::string> linked;
  for (const ElfSymbol& symbol : image.symbols()) {
    if (!symbol.defined) continue;
    const std::string demangled = demangle(symbol.name);
    for (const auto& [kernel_namespace, stems] : stems_by_namespace) {
      if (demangled.rfind("etns::" + kernel_namespace + "::", 0) != 0) continue;
      const std::string stem = symbol_stem(demangled);
      if (stem.size() <= 4 || stem.compare(stem.size() - 4, 4, "_run") != 0) continue;
      const std::string op = operator_of(stem, stems);
      if (op != "other") linked.insert(kernel_namespace + "::" + op);
    }
  }
  return std::vector<std::string>(linked.begin(), linked.end());
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

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
    if (name == kArmRegistrySymbol || name == kNsRegistrySymbol || name == kSelectedRegistrySymbol) {
      registries.insert(name);
    }
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

  result.linked_operators = linked_operators(image);

  const bool has_arm = contains(result.provider_registries, kArmRegistrySymbol);
  const bool has_ns = contains(result.provider_registries, kNsRegistrySymbol);
  if (flavor.selective) {
    const bool has_selected = contains(result.provider_registries, kSelectedRegistrySymbol);
    std::string detail = has_selected ? "" : "no selected registry " + demangle(kSelectedRegistrySymbol);
    for (const char* whole : {kArmRegistrySymbol, kNsRegistrySymbol}) {
      if (contains(result.provider_registries, whole)) {
        detail += (detail.empty() ? "found " : "; found ") + demangle(whole);
      }
    }
    result.checks.push_back(
        check(detail.empty(), "--programs: the selected registry linked, no whole provider's", detail));
    std::set<std::string> needed;
    for (const std::string& name : flavor.selected_operators) needed.insert(kernel_operator_key(name));
    const std::set<std::string> linked(result.linked_operators.begin(), result.linked_operators.end());
    std::vector<std::string> missing, extra;
    std::set_difference(needed.begin(), needed.end(), linked.begin(), linked.end(), std::back_inserter(missing));
    std::set_difference(linked.begin(), linked.end(), needed.begin(), needed.end(), std::back_inserter(extra));
    std::string operators_detail;
    if (!missing.empty()) operators_detail = "needed, not linked: " + joined(missing);
    if (!extra.empty()) {
      operators_detail += std::string(operators_detail.empty() ? "" : "; ") + "linked, not needed: " + joined(extra);
    }
    result.checks.push_back(check(missing.empty() && extra.empty(),
                                  "--programs: kernels of exactly the programs' " + std::to_string(needed.size()) +
                                      " operators linked",
                                  operators_detail));
  } else if (flavor.provider == KernelProvider::Ns) {
    result.checks.push_back(check(has_ns, "--provider ns: ns registry linked",
                                  std::string("no ns registry ") + demangle(kNsRegistrySymbol)));
  } else {
    std::string detail = has_arm ? "" : std::string("no arm registry ") + demangle(kArmRegistrySymbol);
    if (has_ns) detail += (detail.empty() ? "" : "; ") + std::string("found the ns registry ") + demangle(kNsRegistrySymbol);
    result.checks.push_back(
        check(has_arm && !has_ns, "--provider arm: arm registry linked and ns registry not linked", detail));
  }
  if (flavor.selective) {
    // The exact operator set above already decides which cortex_m_ns kernels belong.
  } else if (flavor.ns_ops) {
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

std::vector<std::string> registered_operator_names() {
  // The ns registry holds every operator: arm's rows, the portable ones and its own.
  std::vector<std::string> names;
  for (const runtime::KernelEntry& entry : kernels::registry_of(protocol::Provider::Ns).entries) {
    names.push_back(entry.name);
  }
  return names;
}

std::string render_kernel_verification(const KernelVerification& verification,
                                       const std::vector<std::string>& operator_names) {
  const KernelFlavor& flavor = verification.flavor;
  std::set<std::string> stem_set;
  for (const std::string& name : operator_names) stem_set.insert(operator_stem(name));
  const std::vector<std::string> stems(stem_set.begin(), stem_set.end());
  std::string text;
  text += "ELF: " + verification.path + "\n";
  text += "machine: " + verification.machine + "\n";
  text += std::string("declared: provider ") + to_string(flavor.provider) + ", cortex_m_ns kernels " +
          (flavor.ns_ops ? "required" : "forbidden") + ", portable kernels " +
          (flavor.expect_portable ? "required" : "allowed") + "\n";
  std::string registries;
  for (const std::string& name : verification.provider_registries) {
    registries += (registries.empty() ? "" : ", ") + demangle(name);
  }
  text += "provider registry: " + (registries.empty() ? std::string("none") : registries) + "\n";
  text += "operators linked (" + std::to_string(verification.linked_operators.size()) + ", by their run functions): " +
          (verification.linked_operators.empty() ? std::string("none") : joined(verification.linked_operators)) + "\n";
  text += class_lines("cortex_m kernels", verification.cortex_m_kernels, stems);
  text += class_lines("cortex_m_ns kernels", verification.cortex_m_ns_kernels, stems);
  text += class_lines("portable kernels", verification.portable_kernels, stems);
  std::string heap;
  for (const std::string& name : verification.heap_symbols) heap += (heap.empty() ? "" : ", ") + demangle(name);
  text += "heap symbols: " + (heap.empty() ? std::string("none") : heap) + "\n";
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
