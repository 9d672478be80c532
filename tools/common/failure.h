#pragma once

#include <stdexcept>
#include <string>

namespace etns::tools {

// The one exception that leaves a host module: a message for the user (one
// line per problem) and the process exit code. 2 = usage or configuration,
// 1 = the run or check failed.
class Failure : public std::runtime_error {
 public:
  explicit Failure(const std::string& message, int exit_code = 1)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace etns::tools
