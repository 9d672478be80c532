#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/text.h"

namespace {

// Prints each line of a failure as "etns: <line>" on stderr.
void print_failure(const std::string& message) {
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) std::fprintf(stderr, "etns: %s\n", line.c_str());
}

const CLI::App* find_command(const CLI::App& app, const std::string& name) {
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->check_name(name)) return command;
  }
  return nullptr;
}

std::string suggestion(const std::string& typed, const std::vector<std::string>& names) {
  const std::string match = etns::tools::closest_name(typed, names);
  return match.empty() ? "see 'etns --help'" : "did you mean '" + match + "'?";
}

std::string unknown_command(const CLI::App& app, const std::string& typed) {
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
  return "unknown command '" + typed + "' (" + suggestion(typed, names) + ")";
}

// The first word on the command line that names no command or option of the
// command it follows, as one line with the closest known name; "" when every
// word is known (CLI11's own message is then the clearer one).
std::string first_unknown_word(const CLI::App& app, int argc, char** argv) {
  const CLI::App* current = &app;
  std::string prefix;  // "profile: " once a command was named
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.size() > 1 && word[0] == '-') {
      const bool is_long = word[1] == '-';
      const std::string name = is_long ? word.substr(0, word.find('=')) : word.substr(0, 2);
      const CLI::Option* option = current->get_option_no_throw(name);
      if (option == nullptr) {
        std::vector<std::string> names;
        for (const CLI::Option* known : current->get_options()) {
          if (known->get_group().empty()) continue;  // hidden options are not suggested
          for (const std::string& long_name : known->get_lnames()) names.push_back("--" + long_name);
        }
        return prefix + "unknown option '" + name + "' (" + suggestion(name, names) + ")";
      }
      // An option's value is not a word to check ("--input -" or "--out --weird").
      const bool value_attached = is_long ? word.find('=') != std::string::npos : word.size() > 2;
      if (option->get_items_expected_max() > 0 && !value_attached) ++i;
      continue;
    }
    if (current == &app) {
      const CLI::App* command = find_command(app, word);
      if (command == nullptr) return unknown_command(app, word);
      current = command;
      prefix = command->get_name() + ": ";
    }
  }
  return "";
}

// `etns help` and `etns help COMMAND`, answered before CLI11 parses anything.
int print_help(const CLI::App& app, int argc, char** argv) {
  if (argc > 3) {
    std::fprintf(stderr, "etns: help takes at most one command (see 'etns --help')\n");
    return 2;
  }
  if (argc == 2) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  }
  const CLI::App* command = find_command(app, argv[2]);
  if (command == nullptr) {
    std::fprintf(stderr, "etns: %s\n", unknown_command(app, argv[2]).c_str());
    return 2;
  }
  std::fputs(command->help(app.get_name()).c_str(), stdout);
  return 0;
}

struct CommandEntry {
  const char* name;  // as the command calls itself: checked when it is set up
  etns::tools::CommandAction (*add)(CLI::App&);
};

// One line per command, in the order `etns --help` lists them.
constexpr CommandEntry kCommands[] = {
    {"inspect", etns::tools::add_inspect_command},
    {"ops", etns::tools::add_ops_command},
    {"run", etns::tools::add_run_command},
    {"profile", etns::tools::add_profile_command},
    {"compare", etns::tools::add_compare_command},
    {"compare-programs", etns::tools::add_compare_programs_command},
    {"verify-kernels", etns::tools::add_verify_kernels_command},
    {"size", etns::tools::add_size_command},
    {"time", etns::tools::add_time_command},
    {"kernels", etns::tools::add_kernels_command},
    {"reproduce", etns::tools::add_reproduce_command},
    {"bench", etns::tools::add_bench_command},
    {"export", etns::tools::add_export_command},
    {"lower", etns::tools::add_lower_command},
    {"import", etns::tools::add_import_command},
    {"compare-tensors", etns::tools::add_compare_tensors_command},
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"etns: int8 Tier-1 operators for ExecuTorch on Cortex-M55, and the evidence", "etns"};
  app.require_subcommand(1);
  app.set_version_flag("--version,-V", "etns " ETNS_VERSION);
  app.footer("'etns help COMMAND' (or 'etns COMMAND --help') prints one command's options and examples.");
  struct Entry {
    CLI::App* command;
    etns::tools::CommandAction action;
  };
  std::vector<Entry> entries;
  // A command line that names a command (first, or after `help`) sets up that
  // one alone: the other commands' options took about 0.2 ms of every start.
  const char* named = argc >= 2 && std::strcmp(argv[1], "help") != 0 ? argv[1] : argc >= 3 ? argv[2] : "";
  const bool known = std::any_of(std::begin(kCommands), std::end(kCommands),
                                 [named](const CommandEntry& entry) { return std::strcmp(entry.name, named) == 0; });
  for (const CommandEntry& entry : kCommands) {
    if (known && std::strcmp(entry.name, named) != 0) continue;
    const size_t before = app.get_subcommands({}).size();
    etns::tools::CommandAction action = entry.add(app);
    CLI::App* command = app.get_subcommands({})[before];
    if (command->get_name() != entry.name) {
      std::fprintf(stderr, "etns: internal error: the command table names '%s' where the command is '%s'\n",
                   entry.name, command->get_name().c_str());
      return 1;
    }
    entries.push_back({command, std::move(action)});
  }
  if (argc >= 2 && std::string(argv[1]) == "help") return print_help(app, argc, argv);
  try {
    app.parse(argc, argv);
    for (const Entry& entry : entries) {
      if (entry.command->parsed()) return entry.action();
    }
    return 2;
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    const std::string unknown = first_unknown_word(app, argc, argv);
    if (!unknown.empty()) {
      std::fprintf(stderr, "etns: %s\n", unknown.c_str());
    } else if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr) {
      std::fprintf(stderr, "etns: %s\n", error.what());  // names the option, the value and what is allowed
    } else {
      std::fprintf(stderr, "etns: %s (see 'etns --help')\n", error.what());
    }
    return 2;
  } catch (const etns::tools::Failure& failure) {
    print_failure(failure.what());
    return failure.exit_code();
  } catch (const std::exception& error) {
    print_failure(std::string("internal error: ") + error.what());
    return 1;
  }
}
