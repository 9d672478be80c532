#include "tools/common/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

std::string reason(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return "no such file";
  if (std::filesystem::is_directory(path, error)) return "is a directory";
  if (!std::filesystem::is_regular_file(path, error)) return "not a regular file";
  return std::strerror(errno);
}

std::ifstream open_for_read(const std::string& path, size_t* size) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw Failure("cannot read " + path + ": " + reason(path));
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Failure("cannot read " + path + ": " + reason(path));
  *size = static_cast<size_t>(in.tellg());
  in.seekg(0);
  return in;
}

}  // namespace

std::vector<uint8_t> read_file(const std::string& path) {
  size_t size = 0;
  std::ifstream in = open_for_read(path, &size);
  std::vector<uint8_t> bytes(size);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    throw Failure("cannot read " + path + ": read failed");
  }
  return bytes;
}

AlignedBytes read_file_aligned(const std::string& path) {
  size_t size = 0;
  std::ifstream in = open_for_read(path, &size);
  AlignedBytes bytes(size);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    throw Failure("cannot read " + path + ": read failed");
  }
  return bytes;
}

void write_file_atomic(const std::string& path, const void* bytes, size_t size) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Failure("cannot write " + path + ": " + std::strerror(errno));
    out.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(size));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw Failure("cannot write " + path + ": write failed");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::remove(temporary.c_str());
    throw Failure("cannot write " + path + ": " + error.message());
  }
}

nlohmann::json read_json_file(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    return nlohmann::json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::exception& error) {
    throw Failure(path + ": not valid JSON (" + error.what() + ")");
  }
}

}  // namespace etns::tools
