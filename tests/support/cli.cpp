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

}  // namespace etns::testing
