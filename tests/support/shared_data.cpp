#include "tests/support/shared_data.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace etns::testing {

std::optional<std::string> shared_dir() {
  const char* from_env = std::getenv("ETNS_SHARED_DIR");
  const std::string dir = from_env != nullptr ? from_env : ETNS_SHARED_DIR_DEFAULT;
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) return std::nullopt;
  return dir;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace etns::testing
