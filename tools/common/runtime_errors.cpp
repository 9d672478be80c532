#include "tools/common/runtime_errors.h"

#include <cstring>
#include <mutex>

#include "runtime/core/log.h"
#include "runtime/platform/platform.h"
#include "tools/common/failure.h"

namespace etns::tools {
namespace {

// The runtime has one process-wide log sink. Captures on several threads (etns
// run --threads) share one dispatching sink that hands each line to the
// capture of the thread that logged it; the sink is installed when the first
// capture starts and removed when the last one ends, so it never changes
// while any capture, and so any runtime call made under one, is alive.
std::mutex g_install_mutex;
size_t g_live_captures = 0;
thread_local std::vector<std::string>* t_lines = nullptr;

void dispatch(void*, const char* line) {
  if (t_lines != nullptr) {
    t_lines->emplace_back(line);
  } else {
    runtime::platform::write_log_line(line);
  }
}

}  // namespace

RuntimeLogCapture::RuntimeLogCapture() : previous_(t_lines) {
  t_lines = &lines_;
  const std::lock_guard<std::mutex> lock(g_install_mutex);
  if (g_live_captures++ == 0) runtime::set_log_sink(dispatch, nullptr);
}

RuntimeLogCapture::~RuntimeLogCapture() {
  t_lines = previous_;
  const std::lock_guard<std::mutex> lock(g_install_mutex);
  if (--g_live_captures == 0) runtime::set_log_sink(nullptr, nullptr);
}

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

void refuse_tflite_model(const uint8_t* data, size_t size, const std::string& path) {
  if (size < 8 || std::memcmp(data + 4, "TFL3", 4) != 0) return;
  throw Failure(path + ": a TFLite model, not an ExecuTorch program: convert it first with 'etns import " + path +
                " -o <program>.pte'");
}

}  // namespace etns::tools
