// The port: the board's console and exit (board.h), and what the etns runtime
// asks of every platform (runtime/platform/platform.h: one log line, abort).

#include <cstdint>

#include "board/board.h"
#include "runtime/platform/platform.h"

namespace {

// Arm semihosting, as QEMU implements it for M-profile: r0 = operation,
// r1 = parameter, `bkpt 0xab`, the result in r0.
constexpr uint32_t kSysWrite0 = 0x04;
constexpr uint32_t kSysExitExtended = 0x20;
constexpr uint32_t kAdpStoppedApplicationExit = 0x20026;

uint32_t semihosting_call(uint32_t operation, const void* parameter) {
  register uint32_t r0 __asm__("r0") = operation;
  register const void* r1 __asm__("r1") = parameter;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

extern "C" void board_write(const char* text) { semihosting_call(kSysWrite0, text); }

extern "C" void board_exit(int status) {
  const uint32_t block[2] = {kAdpStoppedApplicationExit, static_cast<uint32_t>(status)};
  semihosting_call(kSysExitExtended, block);
  for (;;) {
  }
}

namespace etns::runtime::platform {

// The runtime's error lines ("missing operator [2] ..."), one at a time.
void write_log_line(const char* line) {
  board_write("kws-app: etns: ");
  board_write(line);
  board_write("\n");
}

// A broken invariant inside etns (never model data): stop with status 2.
void abort_program() {
  board_write("kws-app: etns aborted\n");
  board_exit(2);
}

}  // namespace etns::runtime::platform
