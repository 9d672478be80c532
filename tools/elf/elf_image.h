#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etns::tools {

struct ElfSymbol {
  enum class Kind { Function, Object, Other };
  std::string name;
  uint64_t address = 0;  // Thumb functions have bit 0 set, as in the symbol table
  uint64_t size = 0;
  Kind kind = Kind::Other;
  bool defined = false;  // false: the image only references it
  bool global = false;   // global or weak binding
};

// The symbol table of an ELF file (firmware image or host binary), read with
// libelf. Throws Failure naming the file when it is missing, not ELF, has no
// symbol table (stripped), or is damaged: "<path>: corrupt ELF: <where>" for a
// bad class byte, a section or the section header table past the end of the
// file (truncated), or a symbol name outside its string table.
class ElfImage {
 public:
  static ElfImage load(const std::string& path);

  const std::string& path() const { return path_; }
  const std::string& machine() const { return machine_; }  // "ARM", "x86-64", ...
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
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
  Sizes sizes_;
};

// Symbols that mean the image can allocate from a heap or throw: malloc,
// free, realloc, calloc, _sbrk (and newlib's _r variants), operator new and
// new[] (any overload), __cxa_throw, __cxa_allocate_exception. Device images
// must have none.
std::vector<std::string> heap_symbols(const ElfImage& image);

}  // namespace etns::tools
