#pragma once

#include <CLI/CLI.hpp>

#include "protocol/provider.h"

// Each subcommand lives in cmd_<name>.cpp: it registers its options on `app`
// and returns the action main runs when that subcommand was chosen. An action
// returns the exit code (0, or 1 for a failed check) or throws Failure. The
// exit codes are README.md's ("Exit codes"): 0 success, 1 a failed run or
// check, 2 a usage error, a missing or unreadable input among them.
namespace etns::tools {

using CommandAction = std::function<int()>;

CommandAction add_inspect_command(CLI::App& app);
CommandAction add_ops_command(CLI::App& app);
CommandAction add_run_command(CLI::App& app);
CommandAction add_profile_command(CLI::App& app);
CommandAction add_compare_command(CLI::App& app);
CommandAction add_compare_programs_command(CLI::App& app);
CommandAction add_reproduce_command(CLI::App& app);
CommandAction add_verify_kernels_command(CLI::App& app);
CommandAction add_size_command(CLI::App& app);
CommandAction add_time_command(CLI::App& app);
CommandAction add_kernels_command(CLI::App& app);
CommandAction add_bench_command(CLI::App& app);
CommandAction add_export_command(CLI::App& app);
CommandAction add_lower_command(CLI::App& app);
CommandAction add_import_command(CLI::App& app);
CommandAction add_compare_tensors_command(CLI::App& app);

// A CLI11 check accepting exactly `names`; anything else is a usage error
// "'<value>': expected a, b or c (did you mean 'b'?)".
CLI::Validator one_of(const std::vector<std::string>& names);

// `--provider arm|ns`, parsed into `provider` (checked with one_of); the names
// come from protocol/provider.h.
CLI::Option* add_provider_option(CLI::App* command, protocol::Provider& provider, const std::string& help);

// The files a command reads, as its command line names them: each is opened
// (nothing read) before the command reads or writes anything, so a missing or
// unreadable one is named, as "cannot read <path>: <reason>", with exit 2 (a
// usage error), whatever else the command line holds. A command checks its
// program (model, image) first, so that this is the file a missing program is
// reported as, then the others in the order the command reads them.
void require_readable(const std::string& path);
void require_readable(const std::vector<std::string>& paths);

// A folder a command reads: "<path>: no such folder (<what>)" or "<path>: not
// a folder (<what>)", exit 2.
void require_folder(const std::string& path, const std::string& what);

}  // namespace etns::tools
