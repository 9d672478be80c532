#include "runtime/core/error.h"

namespace etns::runtime {

const char* to_string(Error error) {
  switch (error) {
    case Error::Ok: return "Ok";
    case Error::InvalidProgram: return "InvalidProgram";
    case Error::InvalidArgument: return "InvalidArgument";
    case Error::OperatorMissing: return "OperatorMissing";
    case Error::OutOfMemory: return "OutOfMemory";
    case Error::NotSupported: return "NotSupported";
    case Error::Internal: return "Internal";
  }
  return "Unknown";
}

}  // namespace etns::runtime
