#pragma once

#include <cstddef>

namespace etns::runtime {

// Bytes long enough for an escaped name in a log line: kMaxEscapedBytes - 1
// characters and the NUL.
constexpr size_t kMaxEscapedBytes = 64;

// Writes `length` bytes of `text` (a string from a file, which may hold any
// byte, NUL included) to `out` as printable ASCII: backslash and double quote
// are escaped with a backslash, \n \r \t and \0 keep their C spelling, every
// other byte outside 0x20..0x7e becomes \xHH. Text that does not fit in
// `capacity` is cut after a whole escape and ends in "...". Always
// NUL-terminates (capacity must be at least 4). Returns `out`, so a log call
// can take it as an argument. No heap.
const char* escape_text(char* out, size_t capacity, const char* text, size_t length);

// True when every byte is printable ASCII (0x20..0x7e): such text prints as is.
bool is_printable(const char* text, size_t length);

}  // namespace etns::runtime
