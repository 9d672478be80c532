#pragma once

#include <string>

namespace etns::testing {

struct CliResult {
  int exit_code = -1;
  std::string stdout_text;
  std::string stderr_text;
};

// Runs the built `etns` with `arguments` (shell-quoted by the caller) and
// captures both streams through temporary files.
CliResult run_cli(const std::string& arguments);

// A fresh empty directory under the system temporary folder, removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace etns::testing
