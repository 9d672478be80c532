#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"

namespace {

// Prints each line of a failure as "etns: <line>" on stderr.
void print_failure(const std::string& message) {
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) std::fprintf(stderr, "etns: %s\n", line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"etns: int8 Tier-1 operators for ExecuTorch on Cortex-M55, and the evidence"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "etns " ETNS_VERSION);
  struct Entry {
    CLI::App* command;
    etns::tools::CommandAction action;
  };
  std::vector<Entry> entries;
  // One line per command, in the order `etns --help` lists them.
  etns::tools::CommandAction (*const commands[])(CLI::App&) = {
      etns::tools::add_inspect_command,
      etns::tools::add_run_command,
      etns::tools::add_profile_command,
      etns::tools::add_compare_command,
      etns::tools::add_compare_programs_command,
      etns::tools::add_verify_kernels_command,
      etns::tools::add_reproduce_command,
      etns::tools::add_bench_command,
      etns::tools::add_export_command,
      etns::tools::add_lower_command,
  };
  for (auto add : commands) {
    const size_t before = app.get_subcommands({}).size();
    etns::tools::CommandAction action = add(app);
    entries.push_back({app.get_subcommands({})[before], std::move(action)});
  }
  try {
    app.parse(argc, argv);
    for (const Entry& entry : entries) {
      if (entry.command->parsed()) return entry.action();
    }
    return 2;
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    std::fprintf(stderr, "etns: %s (see 'etns --help')\n", error.what());
    return 2;
  } catch (const etns::tools::Failure& failure) {
    print_failure(failure.what());
    return failure.exit_code();
  } catch (const std::exception& error) {
    print_failure(std::string("internal error: ") + error.what());
    return 1;
  }
}
