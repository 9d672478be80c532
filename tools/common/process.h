#pragma once

#include <functional>
#include <string>
#include <vector>

namespace etns::tools {

struct ProcessResult {
  int exit_status = -1;    // the exit code when the process exited normally
  int signal = 0;          // the signal that ended it, or 0
  bool timed_out = false;  // killed after the timeout
  std::string stdout_text;
  std::string stderr_text;
};

// Runs argv[0] (searched in PATH when it has no '/') with stdin from
// /dev/null, capturing stdout and stderr through files in `scratch_dir`.
// Kills the process after `timeout_seconds`. `poll`, when given, is called
// about every 50 ms while it runs (progress reporting). Throws Failure when
// it cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& scratch_dir,
                          double timeout_seconds, const std::function<void()>& poll = {});

// argv[0] resolved against PATH, or "" when not found (or not executable).
std::string find_executable(const std::string& name);

// The folder of the running executable (from /proc/self/exe).
std::string executable_dir();

// A fresh folder under $TMPDIR (or /tmp), removed with its contents by the
// destructor.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& prefix = "etns");
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace etns::tools
