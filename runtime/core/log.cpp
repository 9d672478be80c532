#include "runtime/core/log.h"

#include <cstdarg>

#include "runtime/core/format.h"
#include "runtime/platform/platform.h"

namespace etns::runtime {
namespace {

void platform_sink(void*, const char* line) { platform::write_log_line(line); }

LogSink g_sink = platform_sink;
void* g_user = nullptr;

}  // namespace

void set_log_sink(LogSink sink, void* user) {
  g_sink = sink != nullptr ? sink : platform_sink;
  g_user = sink != nullptr ? user : nullptr;
}

void log_error(const char* format, ...) {
  char line[256];
  va_list args;
  va_start(args, format);
  format_text_v(line, sizeof(line), format, args);
  va_end(args);
  g_sink(g_user, line);
}

void dcheck_failed(const char* file, int line, const char* condition) {
  log_error("%s:%d: DCHECK failed: %s", file, line, condition);
  platform::abort_program();
}

}  // namespace etns::runtime
