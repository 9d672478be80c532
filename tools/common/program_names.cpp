#include "tools/common/program_names.h"

#include <filesystem>

namespace etns::tools {

std::string program_file_name(const std::string& model, protocol::Provider provider) {
  return model + "_" + protocol::to_string(provider) + ".pte";
}

std::optional<ProgramName> parse_program_file_name(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  for (protocol::Provider provider : protocol::kProviders) {
    const std::string suffix = std::string("_") + protocol::to_string(provider);
    if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return ProgramName{stem.substr(0, stem.size() - suffix.size()), provider};
    }
  }
  return std::nullopt;
}

}  // namespace etns::tools
