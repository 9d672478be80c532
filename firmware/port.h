#pragma once

// What the firmware runner needs from a board, beyond runtime/platform/platform.h
// (log lines, abort), which every port also implements. One port per board
// under firmware/ports/; docs/porting.md says how to add one.

#include <cstddef>
#include <cstdint>

namespace etns::firmware::port {

// Board name printed in the run's metadata ("qemu-mps3-an547").
const char* board_name();

// Where the host placed the job (protocol/job.h). A port may also link one in.
const uint8_t* job_address();
// The largest job the port can hold at job_address().
size_t job_capacity_bytes();

// Memory for the planned buffers (activations): the biggest RAM region the
// port can give. Not zeroed.
uint8_t* planned_memory();
size_t planned_memory_bytes();

// Writes `length` bytes of text to the console; no newline is added.
void console_write(const char* text, size_t length);

// The counter source. region_begin/region_end bracket one measured region
// (ids in protocol/job.h). The QEMU port calls a marker function the counting
// plugin sees; a board port samples its cycle and event counters here and
// keeps the deltas until flush_regions().
void region_begin(uint32_t region);
void region_end(uint32_t region);
// Reports what the counter source kept, if the board measures on the target;
// a no-op on QEMU, where the plugin writes the counts when QEMU exits.
void flush_regions();

// Writes a whole file on the host (semihosting on QEMU). False on failure.
bool write_host_file(const char* path, const uint8_t* bytes, size_t length);

// Ends the run with an exit status the host sees (QEMU's exit status).
[[noreturn]] void exit(int status);

}  // namespace etns::firmware::port
