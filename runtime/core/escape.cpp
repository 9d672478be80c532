#include "runtime/core/escape.h"

namespace etns::runtime {
namespace {

// The escape of one byte, at most 4 characters; returns its length.
size_t escape_byte(unsigned char byte, char spelled[4]) {
  static constexpr char kHex[] = "0123456789abcdef";
  const char named = byte == '\n' ? 'n' : byte == '\r' ? 'r' : byte == '\t' ? 't' : byte == '\0' ? '0' : 0;
  if (byte == '\\' || byte == '"') {
    spelled[0] = '\\';
    spelled[1] = static_cast<char>(byte);
    return 2;
  }
  if (named != 0) {
    spelled[0] = '\\';
    spelled[1] = named;
    return 2;
  }
  if (byte >= 0x20 && byte <= 0x7e) {
    spelled[0] = static_cast<char>(byte);
    return 1;
  }
  spelled[0] = '\\';
  spelled[1] = 'x';
  spelled[2] = kHex[byte >> 4];
  spelled[3] = kHex[byte & 0xf];
  return 4;
}

}  // namespace

const char* escape_text(char* out, size_t capacity, const char* text, size_t length) {
  constexpr size_t kEllipsisBytes = 3;
  char spelled[4];
  size_t whole = 0;
  for (size_t i = 0; i < length; ++i) whole += escape_byte(static_cast<unsigned char>(text[i]), spelled);
  // All of it when it fits; else as many whole escapes as leave room for the ellipsis.
  const size_t limit = whole < capacity ? whole : capacity - kEllipsisBytes - 1;
  size_t written = 0;
  for (size_t i = 0; i < length; ++i) {
    const size_t n = escape_byte(static_cast<unsigned char>(text[i]), spelled);
    if (written + n > limit) break;
    for (size_t k = 0; k < n; ++k) out[written++] = spelled[k];
  }
  if (whole >= capacity) {
    for (size_t k = 0; k < kEllipsisBytes; ++k) out[written++] = '.';
  }
  out[written] = '\0';
  return out;
}

bool is_printable(const char* text, size_t length) {
  for (size_t i = 0; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte > 0x7e) return false;
  }
  return true;
}

}  // namespace etns::runtime
