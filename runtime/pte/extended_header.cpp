#include "runtime/pte/extended_header.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/log.h"

namespace etns::runtime {
namespace {

constexpr size_t kIdentifierOffset = 4;
constexpr size_t kHeaderOffset = 8;
constexpr uint32_t kMinHeaderLength = 24;  // through segment_base_offset
constexpr uint32_t kFullHeaderLength = 32;  // with segment_data_size

uint64_t read_le(const uint8_t* p, size_t bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(p[i]) << (8 * i);
  return value;
}

// Four bytes as printable text, '.' for anything else.
void printable(const uint8_t* p, char out[5]) {
  for (int i = 0; i < 4; ++i) out[i] = (p[i] >= 0x20 && p[i] < 0x7f) ? static_cast<char>(p[i]) : '.';
  out[4] = '\0';
}

}  // namespace

Result<ExtendedHeader> read_extended_header(Span<const uint8_t> file) {
  const size_t size = file.size();
  ETNS_RETURN_IF(size < kHeaderOffset, Error::InvalidProgram,
                 "file is %zu bytes; a .pte has at least 8 (root offset and identifier)", size);
  const uint8_t* bytes = file.data();
  if (std::memcmp(bytes + kIdentifierOffset, "ET12", 4) != 0) {
    char id[5];
    printable(bytes + kIdentifierOffset, id);
    ETNS_RETURN_IF(bytes[4] == 'E' && bytes[5] == 'T', Error::InvalidProgram,
                   "identifier '%s' at offset 4: an ExecuTorch program of another schema version, "
                   "expected 'ET12'",
                   id);
    ETNS_LOG_ERROR("identifier '%s' at offset 4: not an ExecuTorch program, expected 'ET12'", id);
    return Error::InvalidProgram;
  }

  ExtendedHeader header;
  header.program_size = size;
  if (size < kHeaderOffset + 4 || std::memcmp(bytes + kHeaderOffset, "eh00", 4) != 0) {
    return header;  // no header: the whole file is the flatbuffer
  }
  header.present = true;
  ETNS_RETURN_IF(size < kHeaderOffset + kMinHeaderLength, Error::InvalidProgram,
                 "extended header at offset 8 is cut off: file is %zu bytes", size);
  header.length = static_cast<uint32_t>(read_le(bytes + 12, 4));
  ETNS_RETURN_IF(header.length < kMinHeaderLength, Error::InvalidProgram,
                 "extended header length %" PRIu32 " at offset 12, expected >= %" PRIu32,
                 header.length, kMinHeaderLength);
  header.program_size = read_le(bytes + 16, 8);
  header.segment_base_offset = read_le(bytes + 24, 8);
  if (header.length >= kFullHeaderLength) {
    ETNS_RETURN_IF(size < kHeaderOffset + kFullHeaderLength, Error::InvalidProgram,
                   "extended header at offset 8 is cut off: file is %zu bytes", size);
    header.segment_data_size = read_le(bytes + 32, 8);
  }

  ETNS_RETURN_IF(header.program_size < kHeaderOffset + header.length || header.program_size > size,
                 Error::InvalidProgram,
                 "program_size %llu at offset 16 is outside [%llu, %zu] (file size)",
                 static_cast<unsigned long long>(header.program_size),
                 static_cast<unsigned long long>(kHeaderOffset + header.length), size);
  if (header.segment_base_offset != 0 || header.segment_data_size != 0) {
    ETNS_RETURN_IF(header.segment_base_offset < header.program_size, Error::InvalidProgram,
                   "segment_base_offset %llu at offset 24 lies inside the program "
                   "(program_size %llu)",
                   static_cast<unsigned long long>(header.segment_base_offset),
                   static_cast<unsigned long long>(header.program_size));
    const uint64_t end = header.segment_base_offset + header.segment_data_size;
    ETNS_RETURN_IF(end < header.segment_base_offset || end > size, Error::InvalidProgram,
                   "segments end at %llu (segment_base_offset %llu + segment_data_size %llu), "
                   "past the file's %zu bytes",
                   static_cast<unsigned long long>(end),
                   static_cast<unsigned long long>(header.segment_base_offset),
                   static_cast<unsigned long long>(header.segment_data_size), size);
  }
  return header;
}

}  // namespace etns::runtime
