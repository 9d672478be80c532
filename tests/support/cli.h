#pragma once

#include <string>

#include "tools/common/process.h"

namespace etns::testing {

struct CliResult {
  int exit_code = -1;
  std::string stdout_text;
  std::string stderr_text;
};

// Runs the built `etns` with `arguments` (shell-quoted by the caller) and
// captures both streams through temporary files.
CliResult run_cli(const std::string& arguments);

// A fresh empty folder under $TMPDIR, removed with the object.
using TempDir = tools::TemporaryDirectory;

}  // namespace etns::testing
