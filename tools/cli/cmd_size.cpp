#include <cstdio>
#include <memory>
#include <string>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/elf/size_report.h"
#include "tools/evidence/elf/verify_kernels.h"

namespace etns::tools {

CommandAction add_size_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("size", "flash and RAM of each part of a firmware ELF");
  command->footer(
      "Attributes every sized function and object of the image's symbol table to a\n"
      "component by its name: runtime core, program verifier, each kernel operator\n"
      "(and each variant: ref, mve, mve_3x3, ...), kernel helpers and registries, the\n"
      "firmware runner, port and start-up, the C library and compiler runtime, other.\n"
      "Flash = text + rodata + data, RAM = data + bss. The section totals follow\n"
      "the table, and what no symbol covers (string literals, padding) is reported\n"
      "as unattributed. A stripped image is a usage error (exit 2).\n"
      "\n"
      "Examples:\n"
      "  etns size build/firmware/etns_m55_arm.elf\n"
      "  etns size --json build/firmware/etns_m55_ns.elf > size_ns.json");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  command->add_option("elf", *path, "the firmware image (unstripped) to measure")->required();
  command->add_flag("--json", *json, "print JSON (schema etns.size) with every component, section and variant");
  return [path, json]() {
    require_readable(*path);
    // A missing or unreadable ELF is a usage error, as for verify-kernels.
    const ElfImage image = [&] {
      try {
        return ElfImage::load(*path, ElfImage::SymbolTable::Optional);
      } catch (const Failure& failure) {
        throw Failure(failure.what(), 2);
      }
    }();
    const SizeReport report = size_report(image, registered_operator_names());
    const std::string text = *json ? size_report_json(report) : render_size_report(report);
    std::fputs(text.c_str(), stdout);
    return 0;
  };
}

}  // namespace etns::tools
