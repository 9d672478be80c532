#pragma once

#include <cstdint>

// The port: what the runtime needs from the machine it runs on. The host
// implementation lives in host.cpp; firmware ports provide their own.
namespace etns::runtime::platform {

// Writes one log line to the console (stderr on the host).
void write_log_line(const char* line);

// Stops the program after a broken invariant (ETNS_DCHECK); never returns. The
// host aborts; a device port halts or resets the board.
[[noreturn]] void abort_program();

}  // namespace etns::runtime::platform
