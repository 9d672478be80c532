#include "tools/common/runtime_errors.h"

#include "runtime/core/log.h"
#include "tools/common/failure.h"

namespace etns::tools {

RuntimeLogCapture::RuntimeLogCapture() {
  runtime::set_log_sink(
      [](void* user, const char* line) {
        static_cast<std::vector<std::string>*>(user)->emplace_back(line);
      },
      &lines_);
}

RuntimeLogCapture::~RuntimeLogCapture() { runtime::set_log_sink(nullptr, nullptr); }

void RuntimeLogCapture::check(runtime::Error error, const std::string& context) {
  std::vector<std::string> lines;
  lines.swap(lines_);
  if (error == runtime::Error::Ok) return;
  std::string message;
  for (const std::string& line : lines) {
    if (!message.empty()) message += '\n';
    message += context + ": " + line;
  }
  if (message.empty()) message = context + ": " + runtime::to_string(error);
  message += " [" + std::string(runtime::to_string(error)) + "]";
  throw Failure(message, 1);
}

}  // namespace etns::tools
