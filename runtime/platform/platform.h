#pragma once

#include <cstdint>

// The port: what the runtime needs from the machine it runs on. The host
// implementation lives in host.cpp; firmware ports provide their own.
namespace etns::runtime::platform {

// Writes one log line to the console (stderr on the host).
void write_log_line(const char* line);

}  // namespace etns::runtime::platform
