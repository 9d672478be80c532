#include "tools/evidence/elf/elf_image.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cxxabi.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

std::string machine_name(unsigned machine) {
  switch (machine) {
    case EM_ARM: return "ARM";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "x86";
    default: return "machine " + std::to_string(machine);
  }
}

// Owns the descriptor and the libelf handle for one read.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) : path_(path) {
    if (elf_version(EV_CURRENT) == EV_NONE) throw Failure(path + ": libelf is unusable");
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Failure("cannot read " + path + ": " + std::strerror(errno));
    struct stat status {};
    if (fstat(fd_, &status) != 0) {
      release();
      throw Failure("cannot read " + path + ": " + std::strerror(errno));
    }
    size_ = static_cast<uint64_t>(status.st_size);
    elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
    if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
      const std::string reason = elf_ == nullptr ? std::string(" (") + elf_errmsg(-1) + ")" : "";
      // libelf calls an ELF with a bad class byte "not ELF": the magic says otherwise.
      unsigned char ident[EI_NIDENT] = {};
      const bool magic = pread(fd_, ident, sizeof(ident), 0) == static_cast<ssize_t>(sizeof(ident)) &&
                         std::memcmp(ident, ELFMAG, SELFMAG) == 0;
      release();  // a throwing constructor runs no destructor
      if (magic && ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) {
        throw Failure(path + ": corrupt ELF: class byte (offset 4) is " + std::to_string(ident[EI_CLASS]) +
                      ", expected 1 or 2");
      }
      throw Failure(path + ": not an ELF file" + reason);
    }
  }
  ~ElfFile() { release(); }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;
  Elf* get() const { return elf_; }
  uint64_t size() const { return size_; }

 private:
  void release() {
    if (elf_ != nullptr) elf_end(elf_);
    if (fd_ >= 0) close(fd_);
    elf_ = nullptr;
    fd_ = -1;
  }

  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  Elf* elf_ = nullptr;
};

// A file that is ELF but whose structure contradicts itself or the file size.
[[noreturn]] void corrupt(const std::string& path, const std::string& where) {
  throw Failure(path + ": corrupt ELF: " + where);
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// [offset, offset + size) must lie inside the file.
void check_in_file(const std::string& path, const std::string& what, uint64_t offset, uint64_t size,
                   uint64_t file_size) {
  if (offset <= file_size && size <= file_size - offset) return;
  corrupt(path, what + " [" + hex(offset) + ", +" + hex(size) + ") lies past the file's " +
                    std::to_string(file_size) + " bytes (truncated?)");
}

// The header's class and the section header table, before libelf walks them:
// libelf reports a table it cannot read as no sections at all.
void check_layout(const std::string& path, Elf* elf, const GElf_Ehdr& header, uint64_t file_size) {
  // A header of the other class reads as nonsense sizes: the class byte is wrong.
  const bool is_64 = header.e_ident[EI_CLASS] == ELFCLASS64;
  const uint64_t header_bytes = is_64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  const uint64_t section_header_bytes = is_64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  const char* class_name = is_64 ? "64-bit" : "32-bit";
  if (header.e_ehsize != header_bytes) {
    corrupt(path, "e_ehsize is " + std::to_string(header.e_ehsize) + ", expected " + std::to_string(header_bytes) +
                      " for a " + class_name + " ELF (class byte at offset 4)");
  }
  if (header.e_shoff != 0 && header.e_shentsize != section_header_bytes) {
    corrupt(path, "e_shentsize is " + std::to_string(header.e_shentsize) + ", expected " +
                      std::to_string(section_header_bytes) + " for a " + class_name + " ELF");
  }
  size_t count = 0;
  if (elf_getshdrnum(elf, &count) != 0) {
    corrupt(path, std::string("section header table at ") + hex(header.e_shoff) + " unreadable (" +
                      elf_errmsg(-1) + ")");
  }
  // libelf counts no sections in a table it cannot reach: the header's count says how many there are.
  const uint64_t entries = count > header.e_shnum ? count : header.e_shnum;
  check_in_file(path, "section header table", header.e_shoff, entries * header.e_shentsize, file_size);
}

}  // namespace

ElfImage ElfImage::load(const std::string& path, SymbolTable symbol_table) {
  ElfFile file(path);
  ElfImage image;
  image.path_ = path;
  GElf_Ehdr header;
  if (gelf_getehdr(file.get(), &header) == nullptr) corrupt(path, "ELF header unreadable");
  image.machine_ = machine_name(header.e_machine);
  check_layout(path, file.get(), header, file.size());
  size_t section_count = 0;
  if (elf_getshdrnum(file.get(), &section_count) != 0) corrupt(path, "section header table unreadable");
  // Section names are for reports only: without their string table they are "".
  size_t names_index = 0;
  if (elf_getshdrstrndx(file.get(), &names_index) != 0) names_index = 0;
  image.sections_.resize(section_count);

  bool found_symtab = false;
  for (Elf_Scn* section = elf_nextscn(file.get(), nullptr); section != nullptr;
       section = elf_nextscn(file.get(), section)) {
    const std::string where = "section " + std::to_string(elf_ndxscn(section));
    GElf_Shdr section_header;
    if (gelf_getshdr(section, &section_header) == nullptr) corrupt(path, where + ": header unreadable");
    if (section_header.sh_type != SHT_NOBITS) {
      check_in_file(path, where, section_header.sh_offset, section_header.sh_size, file.size());
    }
    if (elf_ndxscn(section) >= image.sections_.size()) image.sections_.resize(elf_ndxscn(section) + 1);
    ElfSection& described = image.sections_[elf_ndxscn(section)];
    const char* section_name =
        names_index == 0 ? nullptr : elf_strptr(file.get(), names_index, section_header.sh_name);
    described.name = section_name == nullptr ? "" : section_name;
    described.address = section_header.sh_addr;
    described.size = section_header.sh_size;
    described.allocated = (section_header.sh_flags & SHF_ALLOC) != 0;
    described.writable = (section_header.sh_flags & SHF_WRITE) != 0;
    described.executable = (section_header.sh_flags & SHF_EXECINSTR) != 0;
    described.has_contents = section_header.sh_type != SHT_NOBITS;
    if ((section_header.sh_flags & SHF_ALLOC) != 0) {
      if (section_header.sh_type == SHT_NOBITS) {
        image.sizes_.bss += section_header.sh_size;
      } else if ((section_header.sh_flags & SHF_WRITE) != 0) {
        image.sizes_.data += section_header.sh_size;
      } else {
        image.sizes_.text += section_header.sh_size;
      }
    }
    if (section_header.sh_type != SHT_SYMTAB) continue;
    found_symtab = true;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (data == nullptr || section_header.sh_entsize == 0) corrupt(path, where + " (symbol table): unreadable");
    GElf_Shdr names_header;
    Elf_Scn* names = elf_getscn(file.get(), section_header.sh_link);
    if (names == nullptr || gelf_getshdr(names, &names_header) == nullptr || names_header.sh_type != SHT_STRTAB) {
      corrupt(path, where + " (symbol table): sh_link " + std::to_string(section_header.sh_link) +
                        " is not a string table");
    }
    const size_t count = section_header.sh_size / section_header.sh_entsize;
    for (size_t i = 1; i < count; ++i) {  // entry 0 is the null symbol
      GElf_Sym raw;
      if (gelf_getsym(data, static_cast<int>(i), &raw) == nullptr) {
        corrupt(path, where + " (symbol table): symbol " + std::to_string(i) + " unreadable");
      }
      const char* name = elf_strptr(file.get(), section_header.sh_link, raw.st_name);
      // A name outside the string table is damage, not a missing symbol: say so
      // rather than report the registry it would have named as absent.
      if (name == nullptr) {
        corrupt(path, where + " (symbol table): symbol " + std::to_string(i) + "'s name offset " +
                          hex(raw.st_name) + " lies outside string table section " +
                          std::to_string(section_header.sh_link) + " (" + hex(names_header.sh_size) + " bytes)");
      }
      if (*name == '\0') continue;
      ElfSymbol symbol;
      symbol.name = name;
      // A dynamic reference may carry its version: "_Znwm@GLIBCXX_3.4".
      const size_t at = symbol.name.find('@');
      if (at != std::string::npos && at > 0) symbol.name.resize(at);
      symbol.address = raw.st_value;
      symbol.size = raw.st_size;
      const unsigned type = GELF_ST_TYPE(raw.st_info);
      symbol.kind = type == STT_FUNC     ? ElfSymbol::Kind::Function
                    : type == STT_OBJECT ? ElfSymbol::Kind::Object
                    : type == STT_FILE   ? ElfSymbol::Kind::File
                                         : ElfSymbol::Kind::Other;
      symbol.defined = raw.st_shndx != SHN_UNDEF;
      if (raw.st_shndx != SHN_UNDEF && raw.st_shndx < SHN_LORESERVE && raw.st_shndx < section_count) {
        symbol.section = raw.st_shndx;
      }
      const unsigned binding = GELF_ST_BIND(raw.st_info);
      symbol.global = binding == STB_GLOBAL || binding == STB_WEAK;
      image.symbols_.push_back(std::move(symbol));
    }
  }
  image.has_symbol_table_ = found_symtab;
  if (!found_symtab && symbol_table == SymbolTable::Required) throw Failure(path + ": no symbol table (stripped?)");
  return image;
}

const ElfSymbol* ElfImage::find(const std::string& name) const {
  for (const ElfSymbol& symbol : symbols_) {
    if (symbol.name == name) return &symbol;
  }
  return nullptr;
}

std::string ElfImage::describe_address(uint64_t address) const {
  for (const ElfSymbol& symbol : symbols_) {
    if (symbol.kind != ElfSymbol::Kind::Function || !symbol.defined) continue;
    const uint64_t start = symbol.address & ~uint64_t{1};  // Thumb bit
    if (address >= start && address < start + symbol.size) {
      char offset[24];
      std::snprintf(offset, sizeof(offset), "+0x%llx", static_cast<unsigned long long>(address - start));
      return demangle(symbol.name) + offset;
    }
  }
  return "";
}

std::vector<std::string> heap_symbols(const ElfImage& image) {
  static const char* const kExact[] = {"malloc",  "free",    "realloc", "calloc",     "_sbrk",
                                       "_sbrk_r", "_malloc_r", "_free_r", "_realloc_r", "_calloc_r",
                                       "__cxa_throw", "__cxa_allocate_exception"};
  std::vector<std::string> found;
  for (const ElfSymbol& symbol : image.symbols()) {
    bool heap = symbol.name.rfind("_Znw", 0) == 0 || symbol.name.rfind("_Zna", 0) == 0;  // operator new, new[]
    for (const char* name : kExact) heap = heap || symbol.name == name;
    if (heap) found.push_back(symbol.name);
  }
  return found;
}

std::string demangle(const std::string& name) {
  int status = 0;
  char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return name;
  std::string result(text);
  std::free(text);
  return result;
}

std::string without_anonymous_namespaces(std::string demangled) {
  static const std::string kAnonymous = "(anonymous namespace)::";
  for (size_t at = demangled.find(kAnonymous); at != std::string::npos; at = demangled.find(kAnonymous)) {
    demangled.erase(at, kAnonymous.size());
  }
  return demangled;
}

}  // namespace etns::tools
