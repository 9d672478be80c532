#pragma once

#include <cstdint>

namespace etns::runtime {

// Every fallible device-side call returns one of these; the detail was already
// logged where the failure happened, so only the code travels up.
enum class [[nodiscard]] Error : uint8_t {
  Ok = 0,
  InvalidProgram,   // malformed .pte or failed verification
  InvalidArgument,  // an operator argument outside what its kernel accepts
  OperatorMissing,  // the program names an operator this build does not register
  OutOfMemory,      // an arena is too small; the log names it and the shortfall
  NotSupported,     // valid input we do not implement (dtype, layout, rank)
  Internal,         // a bug in etns
};

const char* to_string(Error error);

}  // namespace etns::runtime

// Propagates a non-Ok Error to the caller.
#define ETNS_TRY(expr)                                           \
  do {                                                           \
    const ::etns::runtime::Error etns_try_error_ = (expr);       \
    if (etns_try_error_ != ::etns::runtime::Error::Ok) {         \
      return etns_try_error_;                                    \
    }                                                            \
  } while (0)
