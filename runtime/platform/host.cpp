#include <cstdio>
#include <cstdlib>

#include "runtime/platform/platform.h"

namespace etns::runtime::platform {

void write_log_line(const char* line) {
  std::fputs(line, stderr);
  std::fputc('\n', stderr);
}

void abort_program() { std::abort(); }

}  // namespace etns::runtime::platform
