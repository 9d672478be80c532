#include "fuzz/scratch_file.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace etns::fuzz {
namespace {

// Created on first use; removed with the other statics at exit.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    path = (std::filesystem::temp_directory_path() / "etns-fuzz-XXXXXX").string();
    if (mkdtemp(path.data()) == nullptr) {
      std::perror("etns fuzz: cannot create a temporary folder");
      std::abort();
    }
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

const std::string& scratch_dir() {
  static const ScratchDir dir;
  return dir.path;
}

std::string write_scratch(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) {
    std::fprintf(stderr, "etns fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path;
}

}  // namespace etns::fuzz
