#include <cstdio>

#include "tools/cli/commands.h"
#include "tools/inspect/describe.h"
#include "tools/runner/host_session.h"

namespace etns::tools {

CommandAction add_inspect_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("inspect", "describe a .pte: hashes, tensors, arenas, operators");
  command->footer(
      "Examples:\n"
      "  etns inspect ../shared/models/tier1/tier1_arm.pte\n"
      "  etns inspect tier1_ns.pte --json > tier1_ns.json");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  command->add_option("program", *path, "the .pte file")->required();
  command->add_flag("--json", *json, "print JSON (schema etns.inspect) instead of text");
  return [path, json]() {
    HostSession session(*path, nullptr);
    const nlohmann::json description = describe_program(session);
    const std::string text = *json ? description.dump(2) + "\n" : render_description(description);
    std::fputs(text.c_str(), stdout);
    return 0;
  };
}

}  // namespace etns::tools
