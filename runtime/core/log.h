#pragma once

namespace etns::runtime {

// Receives one complete message line (no trailing newline).
using LogSink = void (*)(void* user, const char* line);

// Routes every error line to `sink`; nullptr restores the platform default
// (stderr on the host, the semihosting console on the device).
void set_log_sink(LogSink sink, void* user);

// Formats one line (truncated to 255 characters) and hands it to the sink.
void log_error(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace etns::runtime

#define ETNS_LOG_ERROR(...) ::etns::runtime::log_error(__VA_ARGS__)

// Logs the message and returns `code` when `cond` holds.
#define ETNS_RETURN_IF(cond, code, ...) \
  do {                                  \
    if (cond) {                         \
      ETNS_LOG_ERROR(__VA_ARGS__);      \
      return (code);                    \
    }                                   \
  } while (0)
