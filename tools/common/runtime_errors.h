#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/error.h"

namespace etns::tools {

// Collects the runtime's log lines while alive, so a failed runtime call can
// be turned into a Failure that carries what the runtime said. A capture
// collects the lines of its own thread only: threads that each run their own
// Method (etns run --threads) each hold their own. Captures nest on a thread;
// the innermost collects.
class RuntimeLogCapture {
 public:
  RuntimeLogCapture();
  ~RuntimeLogCapture();
  RuntimeLogCapture(const RuntimeLogCapture&) = delete;
  RuntimeLogCapture& operator=(const RuntimeLogCapture&) = delete;

  const std::vector<std::string>& lines() const { return lines_; }
  // Throws Failure("<context>: <line>" per captured line, or the Error's name)
  // when `error` is not Ok; clears the captured lines either way.
  void check(runtime::Error error, const std::string& context);

 private:
  std::vector<std::string> lines_;
  std::vector<std::string>* previous_;
};

// A TFLite model ("TFL3" at offset 4) given where an ExecuTorch program is
// expected: throws Failure naming `etns import`, the command that converts
// it, before the loader's generic "not an ExecuTorch program".
void refuse_tflite_model(const uint8_t* data, size_t size, const std::string& path);

}  // namespace etns::tools
