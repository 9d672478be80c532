#include "tools/evidence/elf/elf_image.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"

namespace etns::tools {
namespace {

// This test binary: a 64-bit ELF with a symbol table (the build keeps symbols).
std::vector<uint8_t> own_image() { return read_file("/proc/self/exe"); }

std::string failure_of(const TemporaryDirectory& dir, const std::vector<uint8_t>& bytes) {
  const std::string path = dir.path() + "/image.elf";
  write_file_atomic(path, bytes.data(), bytes.size());
  try {
    ElfImage::load(path);
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "";
}

template <typename T>
T read_at(const std::vector<uint8_t>& bytes, size_t offset) {
  T value;
  std::memcpy(&value, &bytes[offset], sizeof(T));
  return value;
}

TEST(ElfImage, TruncatedOrWrongClassIsCorruptNotStripped) {
  const TemporaryDirectory dir;
  const std::vector<uint8_t> whole = own_image();
  ASSERT_EQ(failure_of(dir, whole), "") << "the untouched image loads";

  std::vector<uint8_t> truncated(whole.begin(), whole.begin() + static_cast<long>(whole.size() / 2));
  const std::string cut = failure_of(dir, truncated);
  EXPECT_EQ(cut.rfind(dir.path() + "/image.elf: corrupt ELF: ", 0), 0u) << cut;
  EXPECT_NE(cut.find("lies past the file's " + std::to_string(truncated.size()) + " bytes (truncated?)"),
            std::string::npos)
      << cut;
  EXPECT_EQ(cut.find("stripped"), std::string::npos) << cut;

  std::vector<uint8_t> wrong_class = whole;
  wrong_class[EI_CLASS] = 7;
  EXPECT_EQ(failure_of(dir, wrong_class), dir.path() + "/image.elf: corrupt ELF: class byte (offset 4) is 7, expected 1 or 2");
  // 32-bit headers read over 64-bit ones: the tables land past the end or unreadable.
  wrong_class[EI_CLASS] = ELFCLASS32;
  const std::string as_32 = failure_of(dir, wrong_class);
  EXPECT_EQ(as_32.rfind(dir.path() + "/image.elf: corrupt ELF: ", 0), 0u) << as_32;
}

TEST(ElfImage, ASymbolNameOutsideItsStringTableIsCorruptNotMissing) {
  const TemporaryDirectory dir;
  std::vector<uint8_t> bytes = own_image();
  const auto header = read_at<Elf64_Ehdr>(bytes, 0);
  // Shrink the symbol table's string table to one byte: every name lies outside it.
  for (size_t i = 0; i < header.e_shnum; ++i) {
    const size_t at = header.e_shoff + i * header.e_shentsize;
    const auto section = read_at<Elf64_Shdr>(bytes, at);
    if (section.sh_type != SHT_SYMTAB) continue;
    const size_t names_at = header.e_shoff + section.sh_link * header.e_shentsize;
    auto names = read_at<Elf64_Shdr>(bytes, names_at);
    names.sh_size = 1;
    std::memcpy(&bytes[names_at], &names, sizeof(names));
    const std::string message = failure_of(dir, bytes);
    EXPECT_EQ(message.rfind(dir.path() + "/image.elf: corrupt ELF: section " + std::to_string(i) +
                                " (symbol table): symbol ",
                            0),
              0u)
        << message;
    EXPECT_NE(message.find("lies outside string table section " + std::to_string(section.sh_link) + " (0x1 bytes)"),
              std::string::npos)
        << message;
    return;
  }
  FAIL() << "the test binary has no symbol table";
}

}  // namespace
}  // namespace etns::tools
