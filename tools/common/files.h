#pragma once

#include <sys/types.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/common/failure.h"

namespace etns::tools {

// Bytes whose first byte is 64-byte aligned (programs are read in place).
class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(size_t size) : storage_((size + sizeof(Block) - 1) / sizeof(Block)), size_(size) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(storage_.data()); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(storage_.data()); }
  size_t size() const { return size_; }

 private:
  // A cache line: host SIMD kernels store whole 64-byte vectors, and one
  // that straddles two lines costs about two.
  struct alignas(64) Block {
    uint8_t bytes[64];
  };
  std::vector<Block> storage_;
  size_t size_ = 0;
};

// Why a file could not be read. Its message is "cannot read <path>:
// <reason>" (exit code 1); a caller that words its own message (the
// configuration reader) takes the parts.
class ReadFailure : public Failure {
 public:
  enum class Cause {
    System,      // open, stat or read failed: error_number() is the errno
    NotRegular,  // a folder, FIFO, device or socket: mode() has its type bits
    TooLarge,    // larger than the caller's limit: size_bytes()
    Shrank,      // shorter when read than when stat'ed
  };
  ReadFailure(const std::string& path, Cause cause, int error_number, mode_t mode, uint64_t size_bytes);
  const std::string& path() const { return path_; }
  Cause cause() const { return cause_; }
  int error_number() const { return error_number_; }
  mode_t mode() const { return mode_; }
  uint64_t size_bytes() const { return size_bytes_; }

 private:
  std::string path_;
  Cause cause_;
  int error_number_;
  mode_t mode_;
  uint64_t size_bytes_;
};

// Whole file (a regular file only: a FIFO or device is refused unread, and
// opening one never waits for a writer). Throws ReadFailure.
std::vector<uint8_t> read_file(const std::string& path);
// The same into `bytes`, whose storage is reused: a loop over many inputs
// allocates nothing once its buffer has grown.
void read_file_into(const std::string& path, std::vector<uint8_t>& bytes);
AlignedBytes read_file_aligned(const std::string& path);
// The same as text, refusing a file larger than `max_bytes` before reading it.
std::string read_text_file(const std::string& path, size_t max_bytes = std::numeric_limits<size_t>::max());
// Opens `path` as read_file would and reads nothing: throws the ReadFailure
// read_file would (missing, unreadable, not a regular file).
void check_readable(const std::string& path);
// A whole JSON file. Throws Failure "<path>: not valid JSON (<parser's reason>)".
nlohmann::json read_json_file(const std::string& path);

// Writes `bytes` to a temporary file beside `path`, then renames it into
// place: a reader never sees a half-written file. A symlink is written
// through (its target is replaced); a FIFO, device, socket or directory is
// refused, never replaced. A new file gets 0666 less the umask, a replaced
// one keeps its mode. Safe from several threads at once. Throws Failure
// "cannot write <path>: <reason>".
void write_file_atomic(const std::string& path, const void* bytes, size_t size);
inline void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, text.data(), text.size());
}

}  // namespace etns::tools
