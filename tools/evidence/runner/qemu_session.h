#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "tools/common/failure.h"
#include "tools/evidence/runner/board_profile.h"

namespace etns::tools {

// The CPU whose cycles every QEMU run estimates (the plugin's cycles=).
inline constexpr const char* kCycleModelCpu = "cortex-m55";

// What a QEMU run needs from the machine; see resolve_qemu_tools.
struct QemuTools {
  std::string qemu;      // qemu-system-arm
  std::string firmware;  // etns_m55_<provider>.elf
  std::string plugin;    // libetns_qemu_counter.so
};

// Fills the empty fields with the defaults: qemu-system-arm from $ETNS_QEMU
// or PATH; the firmware and plugin built beside this etns
// (<bin>/../firmware/etns_m55_<provider>.elf, <bin>/../lib/...). Throws
// Failure naming whatever is missing and how to get it.
QemuTools resolve_qemu_tools(protocol::Provider provider, QemuTools given);

// "etns_m55_ns.elf": the firmware image the build makes for `provider`.
std::string firmware_file_name(protocol::Provider provider);

// `qemu-system-arm --version`'s first line, e.g. "QEMU emulator version 7.2.19".
std::string qemu_version(const std::string& qemu);

// The one QEMU command line etns runs an image with: mps3-an547, no display,
// the firmware's console (semihosting) into `console_path`, the counting
// plugin on `marker_count` markers from `marker_table` writing `counts_path`
// (and, with `blocks_path`, its per-block profile there), and `extra`
// arguments (a job loader) before the plugin.
struct QemuCommand {
  std::string console_path;
  std::string counts_path;
  uint64_t marker_table = 0;
  uint64_t marker_count = 0;
  uint32_t max_visits = 1;
  std::vector<std::string> extra;
  std::string memory_path;  // the plugin's memory= (wait states), or none
  std::string blocks_path;  // the plugin's blocks= (per-block profile), or none
};
std::vector<std::string> qemu_argv(const QemuTools& tools, const QemuCommand& command);

struct QemuJob {
  std::vector<uint8_t> program;
  std::vector<std::vector<uint8_t>> inputs;
  uint32_t warmup = 0;
  uint32_t iterations = 1;
  bool dump_instructions = false;
  bool per_instruction_pass = true;
  bool clean_pass = true;
  bool self_test_fault = false;  // the firmware faults on purpose (tests fault reports)
  double timeout_seconds = 900;
  // Where the run's memory would live on a board, and its wait states, for
  // the cycle estimate; null: an547 (no wait states).
  const BoardProfile* board = nullptr;
  // Fill QemuRun::blocks: every executed translated block of the whole run.
  bool block_profile = false;
  // Called with each firmware console line (prefix removed) while QEMU runs.
  std::function<void(const std::string& line)> on_line;
};

// Executed-instruction counts of one region visit, by the plugin's classes,
// the weighted count (each gather or scatter once per lane), and "cycles":
// the Cortex-M55 cycles estimated from the same instructions by LLVM 19's
// scheduling model (qemu_plugin/cycle_model.h), an estimate, not a measurement.
struct ClassCounts {
  std::vector<uint64_t> values;  // in QemuRun::classes order
  // One class by name, or "a+b" for the sum of two. Throws Failure for an unknown class.
  uint64_t get(const std::vector<std::string>& classes, const std::string& name) const;
};

// One translated block of the whole QEMU run, as the plugin's blocks= file
// gives it: where it starts, its instructions, how often it ran and the
// cycles estimated for those runs (wait states included; rounded once).
// QEMU may translate a block again: the same address can appear twice.
struct ExecutedBlock {
  uint64_t address = 0;
  uint64_t instructions = 0;  // per execution
  uint64_t executions = 0;
  uint64_t cycles = 0;  // estimated, over every execution
};

struct QemuInstruction {
  std::string id;        // "c0i3"
  std::string operator_name;
  std::vector<ClassCounts> visits;  // one per measured iteration
};

struct QemuRun {
  std::string board;
  protocol::Provider provider = protocol::Provider::Arm;  // the image's own, from its `loaded` line
  std::vector<std::string> classes;  // "total", "mve", ..., "loop" (qemu_plugin/insn_class.h), "weighted", "cycles"
  // What estimated "cycles": "LLVM 19 MCA, Cortex-M55 scheduling model,
  // cortex-m55; board profile an547: no wait states".
  std::string cycle_model;
  std::vector<QemuInstruction> instructions;
  std::vector<ClassCounts> clean_visits;  // one clean execute() per iteration
  ClassCounts load;                       // Program::load + Method::load
  ClassCounts whole_run;                  // every instruction QEMU executed
  std::vector<uint32_t> per_instruction_crc32;  // outputs after each iteration
  std::vector<uint32_t> clean_crc32;
  size_t method_arena_bytes = 0;
  size_t scratch_bytes = 0;
  std::vector<size_t> planned_bytes;
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::vector<uint8_t>> dumps;  // per instruction, with dump_instructions
  std::string console;                      // everything the firmware printed
  std::vector<ExecutedBlock> blocks;        // with QemuJob::block_profile
};

// The firmware stopped the run and said where: the program did not load
// (a missing operator, a bad program or argument), it faulted, or a later
// stage failed (input, a kernel at run time, host I/O).
class FirmwareStopped : public Failure {
 public:
  enum class Stage { Load, Fault, Run };
  FirmwareStopped(const std::string& message, Stage stage) : Failure(message), stage_(stage) {}
  Stage stage() const { return stage_; }

 private:
  Stage stage_;
};

// Runs `job` on the firmware under QEMU with the counting plugin. Throws
// Failure (one line per problem, prefixed with `label`) when QEMU cannot
// start or the run times out, and FirmwareStopped when the program cannot
// load (each missing operator named), an input is refused, a kernel fails or
// the firmware faults (with the fault address and function).
QemuRun run_on_qemu(const QemuTools& tools, const QemuJob& job, const std::string& label);

}  // namespace etns::tools
