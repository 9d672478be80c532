#pragma once

#include <cstdarg>
#include <cstddef>

#include "firmware/port.h"
#include "runtime/core/format.h"

// printf-style lines on the port's console, for the kernel test and benchmark
// images (device code: our own formatter, no newlib printf).
namespace etns::firmware {

inline void console_print(const char* format, ...) __attribute__((format(printf, 1, 2)));
inline void console_print(const char* format, ...) {
  char line[600];
  va_list args;
  va_start(args, format);
  const size_t length = runtime::format_text_v(line, sizeof(line), format, args);
  va_end(args);
  port::console_write(line, length < sizeof(line) ? length : sizeof(line) - 1);
}

}  // namespace etns::firmware
