#include "tests/support/cli.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace etns::testing {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

CliResult run_cli(const std::string& arguments) {
  TempDir dir;
  const std::string out = dir.path() + "/stdout";
  const std::string err = dir.path() + "/stderr";
  const std::string command = std::string(ETNS_CLI_PATH) + " " + arguments + " >" + out + " 2>" + err;
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.stdout_text = slurp(out);
  result.stderr_text = slurp(err);
  return result;
}

bool terminal_available() { return std::system("command -v script >/dev/null 2>&1") == 0; }

CliResult run_cli_on_terminal(const std::string& arguments) {
  TempDir dir;
  const std::string transcript = dir.path() + "/terminal";
  // script runs the command under a shell on a new pseudo-terminal; -e returns
  // its exit status; the single quotes keep `arguments` for that inner shell.
  std::string inner = std::string(ETNS_CLI_PATH) + " " + arguments;
  std::string quoted;
  for (char c : inner) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  const std::string command = "script -qec '" + quoted + "' /dev/null >" + transcript + " 2>&1 </dev/null";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.stdout_text = slurp(transcript);
  return result;
}

}  // namespace etns::testing
