#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/evidence/elf/elf_image.h"

// What each part of a firmware image costs in flash and RAM, read from its
// symbol table: `etns size` (docs/porting.md, "What each part costs").
namespace etns::tools {

// Bytes by kind. text: functions in read-only sections; rodata: the other
// sized symbols there (constants, tables; the M55 linker script places
// .rodata inside .text); data: writable with an initial value, which flash
// holds and start-up copies to RAM; bss: writable, zeroed, RAM only.
struct SizeBytes {
  uint64_t text = 0;
  uint64_t rodata = 0;
  uint64_t data = 0;
  uint64_t bss = 0;

  uint64_t flash() const { return text + rodata + data; }
  uint64_t ram() const { return data + bss; }
  SizeBytes& operator+=(const SizeBytes& other);
};

// One line of the report: a component, an operator of a kernel group, or a
// variant of an operator ("ref", "mve", "mve_3x3"; "common" for what the
// operator's variants share: prepare, run, argument tables, helpers).
struct SizeComponent {
  std::string name;
  SizeBytes bytes;
  uint64_t symbols = 0;
  std::vector<SizeComponent> parts;  // largest flash first, then by name
};

// One allocated section, with the bytes no symbol covers (alignment padding).
struct SizeSection {
  std::string name;
  std::string kind;  // "text", "rodata", "data" or "bss"
  uint64_t size_bytes = 0;
  uint64_t unattributed_bytes = 0;
};

struct SizeSymbol {
  std::string name;  // demangled
  std::string file;  // a local symbol's source file, else ""
  std::string section;
  uint64_t size_bytes = 0;
};

struct SizeReport {
  std::string path;
  std::string machine;
  // Largest flash first (RAM, then the name, break ties). Kernel groups hold
  // one part per operator, and an operator one part per variant.
  std::vector<SizeComponent> components;
  std::vector<SizeSection> sections;  // allocated sections, in section header order
  // The allocated sections by their flags: text = executable, rodata = other
  // read-only, data = writable with contents, bss = writable without.
  SizeBytes section_totals;
  // The bytes of those sections no sized symbol covers, by the section's kind:
  // string literals (the linker merges them, without symbols) and padding.
  // Every covered byte belongs to exactly one component, so the components'
  // flash plus unattributed flash is the sections' flash, and the same for RAM.
  SizeBytes unattributed;
  std::vector<SizeSymbol> other_symbols;  // the "other" component's symbols, largest first

  SizeBytes attributed() const;  // the sum of the components
};

// The component names (kernel groups hold operators).
extern const char* const kRuntimeCore;
extern const char* const kProgramVerifier;
extern const char* const kCortexMKernels;
extern const char* const kCortexMNsKernels;
extern const char* const kPortableKernels;
extern const char* const kKernelSupport;
extern const char* const kFirmwareRunner;
extern const char* const kPortAndStartup;
extern const char* const kCLibrary;
extern const char* const kOther;
extern const char* const kApplicationData;  // a user firmware's embedded program and inputs

// Where one symbol's bytes go. `name` is the symbol table's (mangled or C)
// name; `file` the source file of a local symbol ("conv2d_mve_3x3.cpp"), ""
// for a global one. component is one of the names above, or "" when the name
// alone does not decide (a local symbol without a namespace, such as a
// compiler's switch table: its file's other symbols decide). For a kernel
// group, operator_name is the operator's stem ("shared helpers" when the name
// names none) and variant the variant the name or, for a local symbol, its file
// names, else "common".
struct SymbolHome {
  std::string component;
  std::string operator_name;
  std::string variant;
};
SymbolHome classify_symbol(const std::string& name, const std::string& file, const std::vector<std::string>& stems,
                           const std::vector<std::string>& variants);

// The variants the source files of `image` name ("conv2d_mve_3x3.cpp" names
// "mve_3x3"), with the bare ISA words ref, mve and sse41: the names
// classify_symbol matches against.
std::vector<std::string> variant_names(const ElfImage& image, const std::vector<std::string>& stems);

// Attributes every allocated byte that a sized function or object covers to
// one component (symbols sharing bytes, such as aliases, count once; a
// section without any such symbol is a component of its own). `operator_names`
// are the registries' names ("cortex_m::quantized_conv2d.out"). Throws
// Failure (exit 2) when the image has no symbol table.
SizeReport size_report(const ElfImage& image, const std::vector<std::string>& operator_names);

// The table `etns size` prints: component, flash B, RAM B, share of flash;
// kernel operators indented under their group and variants under their
// operator; a totals line; the section totals and the unattributed bytes.
std::string render_size_report(const SizeReport& report);
// The same as JSON, schema etns.size version 1.
std::string size_report_json(const SizeReport& report);

}  // namespace etns::tools
