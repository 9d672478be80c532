#include <cstdio>

#include "kernels/registry.h"
#include "tools/cli/commands.h"
#include "tools/inspect/describe.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::tools {

CommandAction add_inspect_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("inspect", "describe a .pte: hashes, tensors, arenas, operators");
  command->footer(
      "Examples:\n"
      "  etns inspect ../shared/models/tier1/tier1_arm.pte\n"
      "  etns inspect tier1_ns.pte --provider ns --json > tier1_ns.json");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto provider = std::make_shared<protocol::Provider>(protocol::Provider::Arm);
  command->add_option("program", *path, "the .pte file")->required();
  command->add_flag("--json", *json, "print JSON (schema etns.inspect) instead of text");
  CLI::Option* provider_option = add_provider_option(command, *provider,
                      "also bind the kernels of arm or ns and report the kernel scratch and the method arena "
                      "a Cortex-M55 must reserve (32-bit layout) beside this host's");
  return [path, json, provider, provider_option]() {
    require_readable(*path);
    const runtime::KernelRegistry* registry = provider_option->count() > 0 ? &kernels::registry_of(*provider) : nullptr;
    HostSession session(*path, registry);
    const nlohmann::json description = describe_program(session);
    const std::string text = *json ? description.dump(2) + "\n" : render_description(description);
    std::fputs(text.c_str(), stdout);
    return 0;
  };
}

}  // namespace etns::tools
