#pragma once

#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace etns::runtime {

// The optional "eh00" header after the file identifier (pte-format.md §1.2).
struct ExtendedHeader {
  bool present = false;
  uint32_t length = 0;
  uint64_t program_size = 0;         // bytes [0, program_size) hold the flatbuffer
  uint64_t segment_base_offset = 0;  // file offset of segment data; 0 = none
  uint64_t segment_data_size = 0;
};

// Checks the identifier and reads the header, or describes a file without one
// (program_size = file size). Checks the file is as long as the header claims.
// Errors: InvalidProgram, with one line naming the field and its offset.
Result<ExtendedHeader> read_extended_header(Span<const uint8_t> file);

}  // namespace etns::runtime
