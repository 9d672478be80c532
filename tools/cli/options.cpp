#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/text.h"

namespace etns::tools {

CLI::Validator one_of(const std::vector<std::string>& names) {
  std::string listed;
  for (size_t i = 0; i < names.size(); ++i) {
    listed += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return CLI::Validator(
      [names, listed](const std::string& value) -> std::string {
        for (const std::string& name : names) {
          if (name == value) return "";
        }
        const std::string closest = closest_name(value, names);
        return "'" + value + "': expected " + listed + (closest.empty() ? "" : " (did you mean '" + closest + "'?)");
      },
      listed, "one of");
}

CLI::Option* add_provider_option(CLI::App* command, protocol::Provider& provider, const std::string& help) {
  std::vector<std::string> names;
  for (protocol::Provider each : protocol::kProviders) names.emplace_back(protocol::to_string(each));
  // The check runs before the callback, so the name always parses.
  auto parse = [&provider](const std::string& name) { protocol::parse_provider_name(name.c_str(), &provider); };
  return command->add_option_function<std::string>("--provider", parse, help)->check(one_of(names));
}

void require_readable(const std::string& path) {
  try {
    check_readable(path);
  } catch (const ReadFailure& failure) {
    throw Failure(failure.what(), 2);
  }
}

void require_readable(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) require_readable(path);
}

void require_folder(const std::string& path, const std::string& what) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::is_directory(status)) return;
  const bool missing = !std::filesystem::exists(status);
  throw Failure(path + (missing ? ": no such folder (" : ": not a folder (") + what + ")", 2);
}

}  // namespace etns::tools
