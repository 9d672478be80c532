#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/pte/extended_header.h"

namespace executorch_flatbuffer {
struct Program;
struct ExecutionPlan;
}  // namespace executorch_flatbuffer

namespace etns::runtime {

// A verified .pte held in memory the caller owns. Loading checks the
// identifier, the extended header, every flatbuffer offset (the flatbuffers
// Verifier) and the constant segment's bounds; nothing is copied.
class Program {
 public:
  // `file` must stay alive and unchanged while the Program and its Methods
  // are used, and start 16-byte aligned (flatbuffers reads 8-byte scalars in
  // place). Errors: InvalidProgram (one line naming what and where),
  // InvalidArgument for a misaligned buffer.
  static Result<Program> load(Span<const uint8_t> file);

  const executorch_flatbuffer::Program& flatbuffer() const { return *program_; }
  const ExtendedHeader& header() const { return header_; }
  size_t file_size() const { return file_.size(); }

  size_t method_count() const;
  const char* method_name(size_t index) const;
  // The plan named `name`. Errors: InvalidArgument, naming the methods there are.
  Result<const executorch_flatbuffer::ExecutionPlan*> plan(const char* name) const;

  // Bytes of constant buffer `buffer_index` (pte-format.md §4.2), checked to
  // hold `size_bytes` and to start at a multiple of `alignment` (a power of
  // two: kernels load the elements in place, and a misaligned load is
  // undefined, or a fault on the device). Errors: InvalidProgram naming the
  // value it is for and, when misaligned, the file offset.
  Result<const uint8_t*> constant_data(uint32_t buffer_index, size_t size_bytes, size_t alignment,
                                       size_t value_index) const;
  // Total bytes of constant data (the constant segment, or inline buffers).
  size_t constant_bytes() const;
  // Number of constant buffers, the reserved placeholder 0 included.
  size_t constant_buffer_count() const;

 private:
  Program() = default;

  Span<const uint8_t> file_;
  ExtendedHeader header_;
  const executorch_flatbuffer::Program* program_ = nullptr;
  Span<const uint8_t> constant_segment_;  // empty when the program has none
  bool inline_constants_ = false;         // the deprecated Program.constant_buffer
};

}  // namespace etns::runtime
