#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etns::tools {

struct ElfSymbol {
  // File: the source file (STT_FILE) of the local symbols that follow it.
  enum class Kind { Function, Object, File, Other };
  std::string name;
  uint64_t address = 0;  // Thumb functions have bit 0 set, as in the symbol table
  uint64_t size = 0;
  Kind kind = Kind::Other;
  bool defined = false;  // false: the image only references it
  bool global = false;   // global or weak binding
  uint32_t section = 0;  // index into ElfImage::sections(); 0 when undefined, absolute or common
};

// One section header. A firmware image's flash holds the allocated sections
// with contents (code, constants, initial values of data); its RAM holds the
// writable ones (data, and bss without contents).
struct ElfSection {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
  bool allocated = false;   // SHF_ALLOC: part of the loaded image
  bool writable = false;    // SHF_WRITE
  bool executable = false;  // SHF_EXECINSTR
  bool has_contents = false;  // not SHT_NOBITS
};

// The symbol table of an ELF file (firmware image or host binary), read with
// libelf. Throws Failure naming the file when it is missing, not ELF, has no
// symbol table (stripped), or is damaged: "<path>: corrupt ELF: <where>" for a
// bad class byte, a section or the section header table past the end of the
// file (truncated), or a symbol name outside its string table.
class ElfImage {
 public:
  // Optional: a stripped file loads with no symbols and has_symbol_table()
  // false, for a caller that words its own error.
  enum class SymbolTable { Required, Optional };
  static ElfImage load(const std::string& path, SymbolTable symbol_table = SymbolTable::Required);

  const std::string& path() const { return path_; }
  const std::string& machine() const { return machine_; }  // "ARM", "x86-64", ...
  // In symbol table order: the local symbols of each object file follow its
  // File symbol, the global ones come last.
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
  bool has_symbol_table() const { return has_symbol_table_; }
  // Every section header, indexed as ElfSymbol::section (entry 0 is the null section).
  const std::vector<ElfSection>& sections() const { return sections_; }
  // Berkeley `size` figures from the allocated sections: text = read-only
  // (code and constants), data = writable with contents, bss = writable
  // without (SHT_NOBITS). What a board's flash and RAM must hold.
  struct Sizes {
    uint64_t text = 0;
    uint64_t data = 0;
    uint64_t bss = 0;
    uint64_t total() const { return text + data + bss; }
  };
  const Sizes& sizes() const { return sizes_; }

  // The first symbol with exactly this name, or null.
  const ElfSymbol* find(const std::string& name) const;
  // "function+0x1c" for a code address inside a defined function, else "".
  std::string describe_address(uint64_t address) const;

 private:
  std::string path_;
  std::string machine_;
  std::vector<ElfSymbol> symbols_;
  std::vector<ElfSection> sections_;
  bool has_symbol_table_ = false;
  Sizes sizes_;
};

// Symbols that mean the image can allocate from a heap or throw: malloc,
// free, realloc, calloc, _sbrk (and newlib's _r variants), operator new and
// new[] (any overload), __cxa_throw, __cxa_allocate_exception. Device images
// must have none.
std::vector<std::string> heap_symbols(const ElfImage& image);

// A mangled C++ name as source spells it ("etns::cortex_m::conv2d_run(...)");
// the name itself when it is not a mangled C++ name. The one place etns
// demangles.
std::string demangle(const std::string& name);
// A demangled name without its "(anonymous namespace)::" parts.
std::string without_anonymous_namespaces(std::string demangled);

}  // namespace etns::tools
