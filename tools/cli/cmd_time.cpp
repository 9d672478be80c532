#include <cstdio>
#include <memory>
#include <string>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/runner/elf_timing.h"
#include "tools/evidence/runner/timing_report.h"

namespace etns::tools {

CommandAction add_time_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("time", "run any Cortex-M55 firmware under QEMU and time it per region");
  command->footer(
      "Runs FIRMWARE.elf (an image for QEMU's mps3-an547 that marks its regions with\n"
      "firmware/regions.h, installed with the device package) under qemu-system-arm with\n"
      "semihosting and the etns counting plugin, and prints one row per region: visits,\n"
      "executed instructions (exact) per visit and in total, and estimated Cortex-M55\n"
      "cycles (LLVM 19's scheduling model, not measured) per visit, in total and per\n"
      "instruction, then the whole run. The firmware's console (semihosting and UART0)\n"
      "goes to stderr as it runs; it must end with a semihosting exit, whose status\n"
      "must be 0. Region names come from the image (ETNS_REGION_NAME).\n"
      "Exit codes: 0 timed, 1 QEMU or the firmware failed, 2 not such an image.\n"
      "\n"
      "Examples:\n"
      "  etns time build/kws_app.elf\n"
      "  etns time app.elf --json app_time.json --timeout-s 600");
  struct Options {
    TimeOptions time;
    std::string json;
  };
  auto options = std::make_shared<Options>();
  command->add_option("firmware", options->time.elf, "the firmware ELF (unstripped) to run")->required();
  command->add_option("--qemu", options->time.qemu, "qemu-system-arm to run (default: $ETNS_QEMU, else PATH)");
  command->add_option("--plugin", options->time.plugin,
                      "the counting plugin (default: lib/libetns_qemu_counter.so beside this etns)");
  command->add_option("--json", options->json, "also write the report as JSON (schema etns.time) to this file");
  command->add_option("--timeout-s", options->time.timeout_seconds, "stop QEMU after this many seconds")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_option("--max-visits", options->time.max_visits, "visits counted per region; later ones are dropped")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  return [options]() {
    TimeOptions time = options->time;
    time.on_console = [](const std::string& text) {
      std::fputs(text.c_str(), stderr);
      std::fflush(stderr);
    };
    const TimingReport report = time_firmware(time);
    for (const std::string& warning : timing_warnings(report)) {
      std::fprintf(stderr, "etns: warning: %s\n", warning.c_str());
    }
    if (!options->json.empty()) write_file_atomic(options->json, timing_json(report).dump(2) + "\n");
    std::fputs(render_timing(report).c_str(), stdout);
    return 0;
  };
}

}  // namespace etns::tools
