#pragma once

namespace etns::runtime {

// Receives one complete message line (no trailing newline).
using LogSink = void (*)(void* user, const char* line);

// Routes every error line to `sink`; nullptr restores the platform default
// (stderr on the host, the semihosting console on the device).
void set_log_sink(LogSink sink, void* user);

// Formats one line (truncated to 255 characters) and hands it to the sink.
void log_error(const char* format, ...) __attribute__((format(printf, 1, 2)));

// ETNS_DCHECK's failure path: logs "file:line: DCHECK failed: <condition>",
// then stops through platform::abort_program().
[[noreturn]] void dcheck_failed(const char* file, int line, const char* condition);

}  // namespace etns::runtime

#if defined(ETNS_NO_ERROR_MESSAGES)
// ETNS_ERROR_MESSAGES=OFF: the line is type-checked, never formatted, and its
// strings are not in the image; the Error code still says what failed.
#define ETNS_LOG_ERROR(...)                                            \
  do {                                                                 \
    if (false) ::etns::runtime::log_error(__VA_ARGS__);                \
  } while (0)
#else
#define ETNS_LOG_ERROR(...) ::etns::runtime::log_error(__VA_ARGS__)
#endif

// Logs the message and returns `code` when `cond` holds.
#define ETNS_RETURN_IF(cond, code, ...) \
  do {                                  \
    if (cond) {                         \
      ETNS_LOG_ERROR(__VA_ARGS__);      \
      return (code);                    \
    }                                   \
  } while (0)

// Checks an invariant the code relies on (not model data, which gets an Error).
// Debug builds stop at a broken one; with NDEBUG `cond` is type-checked but
// not evaluated, so it must have no side effects.
#ifdef NDEBUG
#define ETNS_DCHECK(cond)               \
  do {                                  \
    static_cast<void>(sizeof(!(cond))); \
  } while (0)
#else
#define ETNS_DCHECK(cond)                                                   \
  do {                                                                      \
    if (!(cond)) ::etns::runtime::dcheck_failed(__FILE__, __LINE__, #cond); \
  } while (0)
#endif
