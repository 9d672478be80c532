#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/writers/program/program_model.h"

namespace etns::tools {

// Layout constants of the files we write, as ExecuTorch's serializer writes
// them (pte-format.md §1, §4.2).
constexpr size_t kSegmentAlignment = 128;        // segment_base_offset and every segment
constexpr size_t kConstantAlignment = 16;        // each constant inside the constant segment
constexpr uint32_t kExtendedHeaderLength = 32;   // "eh00" header, padded to the schema's force_align

// Serializes `model` (checked first with check_model; Failure on a model the
// format cannot express) into .pte bytes:
//
//   [root offset]["ET12"]["eh00" header, only when there are constants]
//   [flatbuffer] [zero padding to a multiple of 128] [constant segment]
//
// Constants go to one segment, identical byte strings deduplicated into one
// buffer (numbered by first appearance in the value table), each buffer
// starting 16-aligned; buffer 0 is the reserved placeholder. A program without
// constants is the flatbuffer alone with segments [{0, 0}] and offsets [0],
// as ExecuTorch writes it. (Unlike ExecuTorch, a program whose only constants
// hold zero bytes still gets the header: our loader needs it to find them.) The output depends only on the model: the same
// model gives the same bytes on every run (fixed builder settings, no
// timestamps, no hashing of addresses), given the same flatbuffers library.
std::vector<uint8_t> write_program(const ProgramModel& model);

}  // namespace etns::tools
