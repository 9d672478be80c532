// The QEMU mps3-an547 port: semihosting for the console, host files and exit;
// marker functions for the counting plugin (qemu_plugin/etns_counter.c);
// the job in DDR and the planned buffers in SRAM 2 (memory map in an547.ld).

#include <cstring>

#include "protocol/job.h"
#include "firmware/port.h"
#include "firmware/ports/qemu_mps3_an547/semihosting.h"
#include "runtime/platform/platform.h"

extern "C" {
extern uint8_t __job_start[];
extern uint8_t __job_end[];
extern uint8_t __planned_start[];
extern uint8_t __planned_end[];
}

namespace etns::firmware {
namespace {

// Marker i is `bx lr; nop` at etns_marker_table + 4 i: region r begins at
// marker 2r and ends at 2r+1. Built from job.h's constants so that the table
// and the protocol cannot disagree; the host reads the symbol's address and
// size from the ELF.
constexpr uint16_t kThumbBxLr = 0x4770;
constexpr uint16_t kThumbNop = 0xBF00;
static_assert(protocol::kMarkerStride == 4, "each marker is two Thumb halfwords");

struct MarkerTable {
  uint16_t halfwords[2 * protocol::kMarkerCount];
};

constexpr MarkerTable make_marker_table() {
  MarkerTable table{};
  for (uint32_t i = 0; i < protocol::kMarkerCount; ++i) {
    table.halfwords[2 * i] = kThumbBxLr;
    table.halfwords[2 * i + 1] = kThumbNop;
  }
  return table;
}

}  // namespace
}  // namespace etns::firmware

extern "C" __attribute__((section(".etns_markers"), used, aligned(8)))
const etns::firmware::MarkerTable etns_marker_table = etns::firmware::make_marker_table();

namespace etns::firmware {
namespace {

// A call the compiler cannot elide or move across memory accesses; lr is the
// only register the marker touches.
inline void call_marker(uint32_t index) {
  const uintptr_t address =
      reinterpret_cast<uintptr_t>(&etns_marker_table) + index * protocol::kMarkerStride + 1;  // Thumb bit
  __asm__ volatile("blx %0" : : "r"(address) : "lr", "memory", "cc");
}

}  // namespace

namespace port {

const char* board_name() { return "qemu-mps3-an547"; }

const uint8_t* job_address() { return __job_start; }
size_t job_capacity_bytes() { return static_cast<size_t>(__job_end - __job_start); }

uint8_t* planned_memory() { return __planned_start; }
size_t planned_memory_bytes() { return static_cast<size_t>(__planned_end - __planned_start); }

void console_write(const char* text, size_t length) {
  // SYS_WRITE0 takes NUL-terminated text: send it in chunks.
  char chunk[128];
  while (length > 0) {
    const size_t n = length < sizeof(chunk) - 1 ? length : sizeof(chunk) - 1;
    std::memcpy(chunk, text, n);
    chunk[n] = '\0';
    semihosting::write0(chunk);
    text += n;
    length -= n;
  }
}

void region_begin(uint32_t region) {
  if (region < protocol::kMarkerCount / 2) call_marker(2 * region);
}

void region_end(uint32_t region) {
  if (region < protocol::kMarkerCount / 2) call_marker(2 * region + 1);
}

void flush_regions() {}

bool write_host_file(const char* path, const uint8_t* bytes, size_t length) {
  return semihosting::write_file(path, bytes, length);
}

void exit(int status) { semihosting::exit(static_cast<uint32_t>(status)); }

}  // namespace port
}  // namespace etns::firmware

namespace etns::runtime::platform {

void write_log_line(const char* line) {
  etns::firmware::port::console_write(etns::protocol::kConsolePrefix,
                                      sizeof(etns::protocol::kConsolePrefix) - 1);
  etns::firmware::port::console_write(etns::protocol::console::kLog, sizeof(etns::protocol::console::kLog) - 1);
  etns::firmware::port::console_write(" ", 1);
  etns::firmware::port::console_write(line, std::strlen(line));
  etns::firmware::port::console_write("\n", 1);
}

void abort_program() {
  static constexpr char kReason[] = " abort broken invariant\n";
  etns::firmware::port::console_write(etns::protocol::kConsolePrefix,
                                      sizeof(etns::protocol::kConsolePrefix) - 1);
  etns::firmware::port::console_write(etns::protocol::console::kError, sizeof(etns::protocol::console::kError) - 1);
  etns::firmware::port::console_write(kReason, sizeof(kReason) - 1);
  etns::firmware::port::exit(etns::protocol::kExitAborted);
}

}  // namespace etns::runtime::platform
