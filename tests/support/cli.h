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

// Whether run_cli_on_terminal can work here (util-linux `script` on PATH).
bool terminal_available();

// Runs `etns` as run_cli does but with stdout and stderr on a pseudo-terminal
// (util-linux `script`): stdout_text is everything written to the terminal,
// both streams interleaved, with "\r\n" line ends; stderr_text is empty.
CliResult run_cli_on_terminal(const std::string& arguments);

// A fresh empty folder under $TMPDIR, removed with the object.
using TempDir = tools::TemporaryDirectory;

}  // namespace etns::testing
