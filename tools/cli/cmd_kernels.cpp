#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/common/files.h"
#include "tools/select/kernel_selection.h"

// `etns kernels`: which kernels a firmware needs for its programs, written as
// the inputs of a selective build (docs/porting.md, "A selective build").
namespace etns::tools {

CommandAction add_kernels_command(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("kernels", "list the kernels programs need; write a selective build's selection");
  command->footer(
      "Reads each program (verified as the loader verifies it), lists the "
      "operators\n"
      "of all its methods and checks that the provider has a kernel for each; "
      "a\n"
      "missing one fails, naming the program and the operator. --header "
      "writes\n"
      "etns_kernel_selection.h for kernels/registry_selected.cpp, --cmake a "
      "fragment\n"
      "setting ETNS_SELECTED_OPERATORS and ETNS_SELECTED_LIBRARIES. In CMake,\n"
      "etns_select_kernels(TARGET PROGRAMS ...) runs this and links exactly "
      "those kernels.\n"
      "\n"
      "Examples:\n"
      "  etns kernels kws_arm.pte\n"
      "  etns kernels --provider ns --cmake selection.cmake --header "
      "etns_kernel_selection.h a.pte b.pte");
  auto programs = std::make_shared<std::vector<std::string>>();
  auto provider = std::make_shared<protocol::Provider>(protocol::Provider::Arm);
  auto cmake = std::make_shared<std::string>();
  auto header = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  command->add_option("programs", *programs, "the .pte programs the firmware runs")->required();
  add_provider_option(command, *provider, "the provider whose kernels to select (default arm)");
  command->add_option("--cmake", *cmake, "write the CMake fragment here");
  command->add_option("--header", *header, "write etns_kernel_selection.h here");
  command->add_flag("--json", *json, "print JSON (schema etns.kernels)");
  return [programs, provider, cmake, header, json]() {
    require_readable(*programs);
    const KernelSelection selection = select_kernels(*programs, *provider);
    // Both files are written only once every program has been checked.
    if (!header->empty()) write_file_atomic(*header, selection_header(selection));
    if (!cmake->empty()) write_file_atomic(*cmake, selection_cmake(selection));
    const std::string text = *json ? selection_json(selection) : render_selection(selection);
    std::fputs(text.c_str(), stdout);
    return 0;
  };
}

}  // namespace etns::tools
