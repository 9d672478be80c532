#pragma once

#include <string>

#include "runtime/core/log.h"

namespace etns::testing {

// Collects the runtime's log lines, each followed by '\n', while alive.
class LogCapture {
 public:
  LogCapture() {
    runtime::set_log_sink(
        [](void* user, const char* line) {
          *static_cast<std::string*>(user) += line;
          *static_cast<std::string*>(user) += '\n';
        },
        &text_);
  }
  ~LogCapture() { runtime::set_log_sink(nullptr, nullptr); }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  const std::string& text() const { return text_; }
  void clear() { text_.clear(); }

 private:
  std::string text_;
};

}  // namespace etns::testing
