#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/elf/verify_kernels.h"
#include "tools/select/kernel_selection.h"

namespace etns::tools {

CommandAction add_verify_kernels_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("verify-kernels", "check which kernels a firmware ELF links");
  command->footer(
      "Prints the symbol classes, one PASS:/FAIL: line per rule, then\n"
      "'PASS: linked kernels match the declared build flavor' (exit 0), or exits 1\n"
      "after the FAIL: lines. Rules: --provider ns needs the ns registry; --provider arm\n"
      "needs the arm registry and no ns registry; --ns-ops needs cortex_m_ns kernels and\n"
      "its absence forbids them; --expect-portable needs portable kernels; an Arm image\n"
      "must have no heap or throw symbols (skipped for a host binary). --programs (a\n"
      "selective build, etns kernels) needs the selected registry and the kernels of\n"
      "exactly the operators those programs need, no other's.\n"
      "\n"
      "Examples:\n"
      "  etns verify-kernels --provider arm --expect-portable build/firmware/etns_m55_arm.elf\n"
      "  etns verify-kernels --provider ns --ns-ops build/firmware/etns_m55_ns.elf\n"
      "  etns verify-kernels --provider arm --programs kws_arm.pte -- kws_app.elf");
  auto path = std::make_shared<std::string>();
  auto provider = std::make_shared<protocol::Provider>(protocol::Provider::Arm);
  auto ns_ops = std::make_shared<bool>(false);
  auto expect_portable = std::make_shared<bool>(false);
  command->add_option("elf", *path, "the firmware image (or a host binary) to check")->required();
  add_provider_option(command, *provider, "the provider the image was built for: arm or ns")->required();
  command->add_flag("--ns-ops", *ns_ops, "the image must link cortex_m_ns kernels (without it: none)");
  command->add_flag("--expect-portable", *expect_portable, "the image must link portable kernels");
  auto programs = std::make_shared<std::vector<std::string>>();
  command->add_option("--programs", *programs,
                      "a selective build's programs: link exactly the kernels of their operators");
  return [path, provider, ns_ops, expect_portable, programs]() {
    require_readable(*path);  // the image first, then the programs
    require_readable(*programs);
    KernelFlavor flavor;
    flavor.provider = *provider;
    flavor.ns_ops = *ns_ops;
    flavor.expect_portable = *expect_portable;
    if (!programs->empty()) {
      flavor.selective = true;
      flavor.selected_operators = select_kernels(*programs, *provider).operators;
    }
    // A missing or unreadable ELF is a usage error here (spec §11.1), not a failed check.
    const ElfImage image = [&] {
      try {
        return ElfImage::load(*path);
      } catch (const Failure& failure) {
        throw Failure(failure.what(), 2);
      }
    }();
    const KernelVerification verification = verify_kernels(image, flavor);
    std::fputs(render_kernel_verification(verification, registered_operator_names()).c_str(), stdout);
    return verification.passed() ? 0 : 1;
  };
}

}  // namespace etns::tools
