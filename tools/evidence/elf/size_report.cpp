#include "tools/evidence/elf/size_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/common/failure.h"
#include "tools/common/text.h"
#include "tools/evidence/elf/verify_kernels.h"

namespace etns::tools {

const char* const kRuntimeCore = "runtime core";
const char* const kProgramVerifier = "program verifier";
const char* const kCortexMKernels = "kernels (cortex_m)";
const char* const kCortexMNsKernels = "kernels (cortex_m_ns)";
const char* const kPortableKernels = "portable kernels";
const char* const kKernelSupport = "kernel helpers and registries";
const char* const kFirmwareRunner = "firmware runner";
const char* const kPortAndStartup = "port and start-up";
const char* const kCLibrary = "C library and compiler runtime";
const char* const kOther = "other";
const char* const kApplicationData = "application data (embedded program, inputs)";

namespace {

constexpr size_t kOtherSymbolsListed = 50;
const char* const kCommonVariant = "common";
// A kernel group's functions that serve several of its operators.
const char* const kSharedHelpers = "shared helpers";

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

bool is_kernel_group(const std::string& component) {
  return component == kCortexMKernels || component == kCortexMNsKernels || component == kPortableKernels;
}

std::string join_words(const std::vector<std::string>& words, size_t from) {
  std::string text;
  for (size_t i = from; i < words.size(); ++i) text += (text.empty() ? "" : "_") + words[i];
  return text;
}

// How many leading words `words` shares with the operator stem `op`.
size_t shared_prefix(const std::vector<std::string>& words, const std::string& op) {
  const std::vector<std::string> op_words = snake_words(op);
  size_t common = 0;
  while (common < words.size() && common < op_words.size() && words[common] == op_words[common]) ++common;
  return common;
}

// "conv2d_mve_3x3.cpp" -> "conv2d_mve_3x3".
std::string file_stem(const std::string& file) {
  const size_t dot = file.rfind('.');
  return dot == std::string::npos ? file : file.substr(0, dot);
}

// The function or object a demangled name defines, with its namespaces and
// without return type, parameters or anonymous namespaces:
// "bool flatbuffers::Verifier::VerifyTable<T>(T const*)" -> "flatbuffers::Verifier::VerifyTable<T>",
// "etns::runtime::(anonymous namespace)::format_general(...)::kPowers" -> "etns::runtime::format_general".
std::string qualified_name(std::string demangled) {
  demangled = without_anonymous_namespaces(std::move(demangled));
  int depth = 0;
  size_t end = demangled.size();
  size_t start = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (depth == 0 && c == '(') {
      end = i;
      break;
    }
    if (c == '<' || c == '[' || c == '{') ++depth;
    if ((c == '>' || c == ']' || c == '}') && depth > 0) --depth;
    if (depth == 0 && c == ' ') start = i + 1;  // after a return type or "vtable for "
  }
  return demangled.substr(start, end - start);
}

// Local symbols of these firmware sources belong to their file, whatever
// namespace they are in (the port's helpers live in etns::firmware, as the
// runner's do).
std::string component_of_file(const std::string& file) {
  static const std::pair<const char*, const char*> kFiles[] = {
      {"startup.cpp", kPortAndStartup},   {"startup.c", kPortAndStartup}, {"port.cpp", kPortAndStartup},
      {"semihosting.cpp", kPortAndStartup}, {"runner.cpp", kFirmwareRunner},
      {"program.cpp", kProgramVerifier},  {"extended_header.cpp", kProgramVerifier},
  };
  for (const auto& [name, component] : kFiles) {
    if (file == name) return component;
  }
  if (starts_with(file, "provider_") && file.size() > 4 && file.substr(file.size() - 4) == ".cpp") {
    return kFirmwareRunner;
  }
  return "";
}

// A file none of whose symbols has a namespace: C sources and assembler
// objects of newlib and libgcc.
bool is_c_library_file(const std::string& file) {
  for (const char* extension : {".c", ".o", ".S", ".s"}) {
    const std::string suffix = extension;
    if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

// The component a symbol's own name decides, or "" when it does not.
std::string component_of_name(const std::string& name, bool local) {
  if (!starts_with(name, "_Z")) {
    for (const char* port : {"etns_reset_handler", "etns_fault_entry", "etns_fault_report", "etns_marker_table"}) {
      if (name == port) return kPortAndStartup;
    }
    if (name == "etns_firmware_main") return kFirmwareRunner;
    if (local) return "";  // a compiler's table (CSWTCH.12) or a file-local C name: its file decides
    return starts_with(name, "etns") ? kOther : kCLibrary;
  }
  const std::string q = qualified_name(demangle(name));
  static const std::pair<const char*, const char*> kPrefixes[] = {
      {"etns::cortex_m_ns::", kCortexMNsKernels},
      {"etns::cortex_m::", kCortexMKernels},
      {"etns::portable::", kPortableKernels},
      {"etns::kernels::", kKernelSupport},
      {"etns::runtime::platform::", kPortAndStartup},
      {"etns::runtime::Program::", kProgramVerifier},
      {"etns::runtime::ExtendedHeader", kProgramVerifier},
      {"etns::runtime::read_extended_header", kProgramVerifier},
      {"flatbuffers::", kProgramVerifier},
      {"executorch_flatbuffer::", kProgramVerifier},
      {"etns::runtime::", kRuntimeCore},
      {"etns::firmware::port::", kPortAndStartup},
      {"etns::firmware::semihosting::", kPortAndStartup},
      {"etns::firmware::", kFirmwareRunner},
      {"std::", kCLibrary},
      {"__gnu_cxx::", kCLibrary},
      {"__cxxabiv1::", kCLibrary},
  };
  for (const auto& [prefix, component] : kPrefixes) {
    if (starts_with(q, prefix)) return component;
  }
  return local ? "" : kOther;  // etns::protocol's constants, for one, are their file's
}

// The variant in `variants` whose words all appear in `words`, the one with
// the most words; "common" when none does.
std::string variant_of_words(const std::vector<std::string>& words, const std::vector<std::string>& variants) {
  std::string best = kCommonVariant;
  size_t best_words = 0;
  for (const std::string& variant : variants) {
    const std::vector<std::string> needed = snake_words(variant);
    const bool all = std::all_of(needed.begin(), needed.end(), [&](const std::string& word) {
      return std::find(words.begin(), words.end(), word) != words.end();
    });
    if (all && needed.size() > best_words) {
      best = variant;
      best_words = needed.size();
    }
  }
  return best;
}

// The operator and variant of a kernel group's symbol.
void place_kernel_symbol(SymbolHome& home, const std::string& name, const std::string& file,
                         const std::vector<std::string>& stems, const std::vector<std::string>& variants) {
  const std::string stem = file.empty() ? "" : file_stem(file);
  const std::string file_op = stem.empty() ? "other" : operator_of(stem, stems);
  home.operator_name = starts_with(name, "_Z") ? operator_of(name, stems) : "other";
  if (home.operator_name == "other") home.operator_name = file_op;
  if (!stem.empty() && file_op == home.operator_name && file_op != "other") {
    // A local symbol's file says which variant it serves ("conv2d_mve_3x3.cpp").
    const std::vector<std::string> words = snake_words(stem);
    const std::string rest = join_words(words, shared_prefix(words, file_op));
    home.variant = rest.empty() ? kCommonVariant : variant_of_words(snake_words(rest), variants);
    if (home.variant == kCommonVariant && !rest.empty()) home.variant = rest;
    return;
  }
  if (home.operator_name == "other" || !starts_with(name, "_Z")) {
    if (home.operator_name == "other") home.operator_name = kSharedHelpers;
    home.variant = kCommonVariant;
    return;
  }
  const std::vector<std::string> words = snake_words(symbol_stem(demangle(name)));
  const size_t shared = shared_prefix(words, home.operator_name);
  home.variant = variant_of_words(std::vector<std::string>(words.begin() + static_cast<long>(shared), words.end()),
                                  variants);
}

// Where a section's symbols' bytes are counted.
std::string section_kind(const ElfSection& section) {
  if (!section.has_contents) return "bss";
  if (section.writable) return "data";
  return section.executable ? "text" : "rodata";
}

void add_kind(SizeBytes& bytes, const std::string& kind, uint64_t count) {
  if (kind == "text") bytes.text += count;
  if (kind == "rodata") bytes.rodata += count;
  if (kind == "data") bytes.data += count;
  if (kind == "bss") bytes.bss += count;
}

// A symbol with the bytes it covers in its section.
struct Placed {
  const ElfSymbol* symbol = nullptr;
  std::string file;
  uint64_t start = 0;
  uint64_t end = 0;
  uint64_t attributed = 0;
};

bool larger_first(const SizeComponent& a, const SizeComponent& b) {
  return std::make_tuple(b.bytes.flash(), b.bytes.ram(), a.name) <
         std::make_tuple(a.bytes.flash(), a.bytes.ram(), b.name);
}

void sort_parts(std::vector<SizeComponent>& parts) {
  std::sort(parts.begin(), parts.end(), larger_first);
  for (SizeComponent& part : parts) sort_parts(part.parts);
}

SizeComponent& part_named(std::vector<SizeComponent>& parts, const std::string& name) {
  for (SizeComponent& part : parts) {
    if (part.name == name) return part;
  }
  parts.push_back(SizeComponent{name, {}, 0, {}});
  return parts.back();
}

void add_to(SizeComponent& component, const SizeBytes& bytes) {
  component.bytes += bytes;
  ++component.symbols;
}

std::string percent(uint64_t part, uint64_t whole) {
  char text[16];
  const double share = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  std::snprintf(text, sizeof(text), "%.1f%%", share);
  return text;
}

// A line of the table: name left, the figures right-aligned.
std::string table_row(const std::string& name, size_t name_width, const std::string& flash, const std::string& ram,
                      const std::string& share) {
  char text[256];
  std::snprintf(text, sizeof(text), "%-*s %11s %11s %7s\n", static_cast<int>(name_width), name.c_str(), flash.c_str(),
                ram.c_str(), share.c_str());
  return text;
}

void render_rows(const std::vector<SizeComponent>& parts, const std::string& indent, size_t name_width,
                 uint64_t flash_total, std::string& text) {
  for (const SizeComponent& part : parts) {
    text += table_row(indent + part.name, name_width, grouped(part.bytes.flash()), grouped(part.bytes.ram()),
                      percent(part.bytes.flash(), flash_total));
    // An operator whose variants are only its common part lists none.
    const bool only_common = part.parts.size() == 1 && part.parts[0].name == kCommonVariant;
    if (!only_common) render_rows(part.parts, indent + "  ", name_width, flash_total, text);
  }
}

size_t widest_name(const std::vector<SizeComponent>& parts, size_t indent) {
  size_t width = 0;
  for (const SizeComponent& part : parts) {
    width = std::max({width, indent + part.name.size(), widest_name(part.parts, indent + 2)});
  }
  return width;
}

nlohmann::ordered_json bytes_json(const SizeBytes& bytes) {
  return {{"flash_bytes", bytes.flash()}, {"ram_bytes", bytes.ram()}, {"text_bytes", bytes.text},
          {"rodata_bytes", bytes.rodata}, {"data_bytes", bytes.data}, {"bss_bytes", bytes.bss}};
}

nlohmann::ordered_json component_json(const SizeComponent& component) {
  nlohmann::ordered_json json = {{"name", component.name}};
  json.update(bytes_json(component.bytes));
  json["symbols"] = component.symbols;
  if (!component.parts.empty()) {
    nlohmann::ordered_json parts = nlohmann::ordered_json::array();
    for (const SizeComponent& part : component.parts) parts.push_back(component_json(part));
    json["parts"] = parts;
  }
  return json;
}

}  // namespace

SizeBytes& SizeBytes::operator+=(const SizeBytes& other) {
  text += other.text;
  rodata += other.rodata;
  data += other.data;
  bss += other.bss;
  return *this;
}

SizeBytes SizeReport::attributed() const {
  SizeBytes sum;
  for (const SizeComponent& component : components) sum += component.bytes;
  return sum;
}

namespace {

// A user's firmware (examples/kws-app) names its own globals in C: its start-up
// (main, the vector table, the exception handlers) and the data it embeds (a
// program, an input), which would otherwise count as the C library's. Global
// C library objects start with an underscore (_impure_ptr, __ctype_ptr__).
void refine_application_symbol(const ElfSymbol& symbol, SymbolHome& home) {
  if (home.component != kCLibrary || !symbol.global) return;
  const std::string& name = symbol.name;
  const bool handler = name.size() > 8 && name.compare(name.size() - 8, 8, "_handler") == 0;
  if (name == "main" || name == "vector_table" || handler) {
    home.component = kPortAndStartup;
  } else if (symbol.kind == ElfSymbol::Kind::Object && !starts_with(name, "_")) {
    home.component = kApplicationData;
  }
}

}  // namespace

SymbolHome classify_symbol(const std::string& name, const std::string& file, const std::vector<std::string>& stems,
                           const std::vector<std::string>& variants) {
  SymbolHome home;
  const bool local = !file.empty();
  home.component = local ? component_of_file(file) : "";
  if (home.component.empty()) home.component = component_of_name(name, local);
  if (is_kernel_group(home.component)) place_kernel_symbol(home, name, file, stems, variants);
  return home;
}

std::vector<std::string> variant_names(const ElfImage& image, const std::vector<std::string>& stems) {
  std::set<std::string> names = {"ref", "mve", "sse41"};
  for (const ElfSymbol& symbol : image.symbols()) {
    if (symbol.kind != ElfSymbol::Kind::File) continue;
    const std::string stem = file_stem(symbol.name);
    const std::string op = operator_of(stem, stems);
    if (op == "other") continue;
    const std::vector<std::string> words = snake_words(stem);
    const size_t shared = shared_prefix(words, op);
    const auto is_isa = [](const std::string& word) { return word == "ref" || word == "mve" || word == "sse41"; };
    const bool names_isa = std::any_of(words.begin() + static_cast<long>(shared), words.end(), is_isa);
    if (names_isa) names.insert(join_words(words, shared));
  }
  return {names.begin(), names.end()};
}

namespace {

// The sized functions and objects of allocated sections, each with its file,
// by section index.
std::map<uint32_t, std::vector<Placed>> sized_symbols(const ElfImage& image) {
  const std::vector<ElfSection>& sections = image.sections();
  const bool thumb = image.machine() == "ARM";
  std::map<uint32_t, std::vector<Placed>> by_section;
  std::string file;
  for (const ElfSymbol& symbol : image.symbols()) {
    if (symbol.kind == ElfSymbol::Kind::File) file = symbol.name;
    if (symbol.global) file.clear();  // the globals follow every file's locals
    const bool sized = symbol.kind == ElfSymbol::Kind::Function || symbol.kind == ElfSymbol::Kind::Object;
    if (!sized || !symbol.defined || symbol.size == 0 || symbol.section == 0 || symbol.section >= sections.size()) {
      continue;
    }
    const ElfSection& section = sections[symbol.section];
    if (!section.allocated) continue;
    uint64_t start = symbol.address;
    if (thumb && symbol.kind == ElfSymbol::Kind::Function) start &= ~uint64_t{1};
    const uint64_t section_end = section.address + section.size;
    start = std::clamp(start, section.address, section_end);
    const uint64_t end = std::clamp(start + symbol.size, start, section_end);
    by_section[symbol.section].push_back({&symbol, symbol.global ? "" : file, start, end, 0});
  }
  return by_section;
}

// Each byte once: aliases (__aeabi_dadd and __adddf3) and overlapping entry
// points go to the first symbol by address, a global before a local. Fills
// the report's sections and totals; returns the symbols that own bytes.
std::vector<Placed> attribute_bytes(const ElfImage& image, std::map<uint32_t, std::vector<Placed>>& by_section,
                                    SizeReport& report) {
  const std::vector<ElfSection>& sections = image.sections();
  std::vector<Placed> placed;
  for (uint32_t index = 0; index < sections.size(); ++index) {
    const ElfSection& section = sections[index];
    if (!section.allocated || section.size == 0) continue;
    const std::string kind = section_kind(section);
    add_kind(report.section_totals, kind, section.size);
    std::vector<Placed>& symbols = by_section[index];
    std::sort(symbols.begin(), symbols.end(), [](const Placed& a, const Placed& b) {
      return std::make_tuple(a.start, !a.symbol->global, b.end, a.symbol->name) <
             std::make_tuple(b.start, !b.symbol->global, a.end, b.symbol->name);
    });
    uint64_t cursor = section.address;
    uint64_t covered = 0;
    for (Placed& symbol : symbols) {
      const uint64_t from = std::max(symbol.start, cursor);
      symbol.attributed = symbol.end > from ? symbol.end - from : 0;
      cursor = std::max(cursor, symbol.end);
      covered += symbol.attributed;
      if (symbol.attributed > 0) placed.push_back(symbol);
    }
    SizeSection described{section.name, kind, section.size, section.size - covered};
    if (symbols.empty()) {
      // Reserved space no symbol names (the stack): a component of its own.
      SizeComponent whole{"section " + section.name + " (no symbols)", {}, 0, {}};
      add_kind(whole.bytes, kind, section.size);
      report.components.push_back(whole);
      described.unattributed_bytes = 0;
    } else {
      add_kind(report.unattributed, kind, described.unattributed_bytes);
    }
    report.sections.push_back(described);
  }
  return placed;
}

// Where each placed symbol goes. A local symbol its name leaves open
// (CSWTCH.12, a protocol constant) goes where most of its file's decided
// symbols go.
std::vector<SymbolHome> homes_of(const std::vector<Placed>& placed, const std::vector<std::string>& stems,
                                 const std::vector<std::string>& variants) {
  std::vector<SymbolHome> homes;
  std::map<std::string, std::map<std::string, size_t>> file_votes;
  for (const Placed& symbol : placed) {
    homes.push_back(classify_symbol(symbol.symbol->name, symbol.file, stems, variants));
    refine_application_symbol(*symbol.symbol, homes.back());
    if (!symbol.file.empty() && !homes.back().component.empty()) ++file_votes[symbol.file][homes.back().component];
  }
  for (size_t i = 0; i < placed.size(); ++i) {
    const Placed& symbol = placed[i];
    SymbolHome& home = homes[i];
    if (!home.component.empty()) continue;
    const auto votes = file_votes.find(symbol.file);
    if (votes != file_votes.end()) {
      home.component = std::max_element(votes->second.begin(), votes->second.end(), [](const auto& a, const auto& b) {
                         return a.second < b.second;
                       })->first;
    } else {
      home.component = is_c_library_file(symbol.file) ? kCLibrary : kOther;
    }
    if (is_kernel_group(home.component)) place_kernel_symbol(home, symbol.symbol->name, symbol.file, stems, variants);
  }
  return homes;
}

// The components, each symbol's bytes added to its home (kernels by operator
// and variant); the symbols left in "other" listed in the report.
std::map<std::string, SizeComponent> gather_components(const ElfImage& image, const std::vector<Placed>& placed,
                                                       const std::vector<SymbolHome>& homes, SizeReport& report) {
  std::map<std::string, SizeComponent> components;
  for (size_t i = 0; i < placed.size(); ++i) {
    const Placed& symbol = placed[i];
    const SymbolHome& home = homes[i];
    const ElfSection& section = image.sections()[symbol.symbol->section];
    std::string kind = section_kind(section);
    if (kind == "text" && symbol.symbol->kind != ElfSymbol::Kind::Function) kind = "rodata";
    SizeBytes bytes;
    add_kind(bytes, kind, symbol.attributed);
    SizeComponent& component = components[home.component];
    component.name = home.component;
    add_to(component, bytes);
    if (is_kernel_group(home.component)) {
      SizeComponent& op = part_named(component.parts, home.operator_name);
      add_to(op, bytes);
      add_to(part_named(op.parts, home.variant), bytes);
    }
    if (home.component == kOther) {
      report.other_symbols.push_back({demangle(symbol.symbol->name), symbol.file, section.name, symbol.attributed});
    }
  }
  return components;
}

}  // namespace

SizeReport size_report(const ElfImage& image, const std::vector<std::string>& operator_names) {
  if (!image.has_symbol_table()) {
    throw Failure(image.path() + ": no symbol table (stripped?): size needs an unstripped image", 2);
  }
  std::set<std::string> stem_set;
  for (const std::string& name : operator_names) stem_set.insert(operator_stem(name));
  const std::vector<std::string> stems(stem_set.begin(), stem_set.end());
  const std::vector<std::string> variants = variant_names(image, stems);

  std::map<uint32_t, std::vector<Placed>> by_section = sized_symbols(image);
  SizeReport report;
  report.path = image.path();
  report.machine = image.machine();
  const std::vector<Placed> placed = attribute_bytes(image, by_section, report);
  const std::vector<SymbolHome> homes = homes_of(placed, stems, variants);
  for (auto& [name, component] : gather_components(image, placed, homes, report)) {
    report.components.push_back(std::move(component));
  }
  sort_parts(report.components);
  std::sort(report.other_symbols.begin(), report.other_symbols.end(), [](const SizeSymbol& a, const SizeSymbol& b) {
    return std::make_tuple(b.size_bytes, a.name) < std::make_tuple(a.size_bytes, b.name);
  });
  return report;
}

std::string render_size_report(const SizeReport& report) {
  const uint64_t flash_total = report.section_totals.flash();
  const size_t name_width = std::max<size_t>(widest_name(report.components, 0), 10);
  std::string text = "ELF: " + report.path + " (" + report.machine + ")\n";
  text += table_row("component", name_width, "flash B", "RAM B", "flash %");
  render_rows(report.components, "", name_width, flash_total, text);
  const SizeBytes attributed = report.attributed();
  text += table_row("total", name_width, grouped(attributed.flash()), grouped(attributed.ram()),
                    percent(attributed.flash(), flash_total));
  const SizeBytes& sections = report.section_totals;
  text += "sections: text " + grouped(sections.text) + ", rodata " + grouped(sections.rodata) + ", data " +
          grouped(sections.data) + ", bss " + grouped(sections.bss) + " B (flash " + grouped(sections.flash()) +
          " B, RAM " + grouped(sections.ram()) + " B)\n";
  text += "unattributed: flash " + grouped(report.unattributed.flash()) + " B, RAM " +
          grouped(report.unattributed.ram()) + " B (no symbol covers them: string literals, padding)\n";
  if (!report.other_symbols.empty()) {
    std::string largest;
    for (size_t i = 0; i < report.other_symbols.size() && i < 3; ++i) {
      const SizeSymbol& symbol = report.other_symbols[i];
      largest += (i == 0 ? "" : ", ") + symbol.name + (symbol.file.empty() ? "" : " (" + symbol.file + ")") + " " +
                 grouped(symbol.size_bytes) + " B";
    }
    text += "other: " + std::to_string(report.other_symbols.size()) + " symbols, largest " + largest +
            " (--json lists " + std::to_string(kOtherSymbolsListed) + ")\n";
  }
  return text;
}

std::string size_report_json(const SizeReport& report) {
  nlohmann::ordered_json json;
  json["schema"] = "etns.size";
  json["schema_version"] = 1;
  json["elf"] = report.path;
  json["machine"] = report.machine;
  nlohmann::ordered_json components = nlohmann::ordered_json::array();
  for (const SizeComponent& component : report.components) components.push_back(component_json(component));
  json["components"] = components;
  json["total"] = bytes_json(report.attributed());
  json["section_totals"] = bytes_json(report.section_totals);
  json["unattributed"] = bytes_json(report.unattributed);
  nlohmann::ordered_json sections = nlohmann::ordered_json::array();
  for (const SizeSection& section : report.sections) {
    sections.push_back({{"name", section.name},
                        {"kind", section.kind},
                        {"size_bytes", section.size_bytes},
                        {"unattributed_bytes", section.unattributed_bytes}});
  }
  json["sections"] = sections;
  nlohmann::ordered_json others = nlohmann::ordered_json::array();
  for (size_t i = 0; i < report.other_symbols.size() && i < kOtherSymbolsListed; ++i) {
    const SizeSymbol& symbol = report.other_symbols[i];
    others.push_back(
        {{"name", symbol.name}, {"file", symbol.file}, {"section", symbol.section}, {"size_bytes", symbol.size_bytes}});
  }
  json["other_symbol_count"] = report.other_symbols.size();
  json["other_symbols"] = others;
  return json.dump(2) + "\n";
}

}  // namespace etns::tools
