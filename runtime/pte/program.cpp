#include "runtime/pte/program.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/escape.h"
#include "runtime/core/log.h"
#include "runtime/pte/program_generated.h"

namespace etns::runtime {

namespace fb = executorch_flatbuffer;

namespace {

// The flatbuffer verifier aligns a vector's length prefix to 4 bytes only, so
// a vector of 8-byte items can start 4 bytes off: reading one would be a
// misaligned load. Refuses any such vector (flatc and our writer align them).
Error check_items_aligned(const uint8_t* file, const void* items, const char* what,
                          uint32_t plan, uint32_t value) {
  const size_t offset = static_cast<size_t>(static_cast<const uint8_t*>(items) - file);
  ETNS_RETURN_IF(offset % 8 != 0, Error::InvalidProgram,
                 "execution plan %" PRIu32 " value %" PRIu32 ": %s items start at file offset "
                 "%zu, not a multiple of 8",
                 plan, value, what, offset);
  return Error::Ok;
}

Error check_wide_vectors_aligned(const uint8_t* file, const fb::Program& p) {
  const fb::SubsegmentOffsets* segment = p.constant_segment();
  if (segment != nullptr && segment->offsets() != nullptr) {
    const size_t offset = static_cast<size_t>(segment->offsets()->Data() - file);
    ETNS_RETURN_IF(offset % 8 != 0, Error::InvalidProgram,
                   "constant_segment.offsets start at file offset %zu, not a multiple of 8",
                   offset);
  }
  for (uint32_t i = 0; i < p.execution_plan()->size(); ++i) {
    const fb::ExecutionPlan* plan = p.execution_plan()->Get(i);
    if (plan->non_const_buffer_sizes() != nullptr) {
      const size_t offset = static_cast<size_t>(plan->non_const_buffer_sizes()->Data() - file);
      ETNS_RETURN_IF(offset % 8 != 0, Error::InvalidProgram,
                     "execution plan %" PRIu32 ": non_const_buffer_sizes start at file offset "
                     "%zu, not a multiple of 8",
                     i, offset);
    }
    if (plan->values() == nullptr) continue;
    for (uint32_t v = 0; v < plan->values()->size(); ++v) {
      const fb::EValue* value = plan->values()->Get(v);
      // A list with no items has nothing to align.
      if (const fb::IntList* list = value->val_as_IntList();
          list != nullptr && list->items() && list->items()->size() > 0) {
        ETNS_TRY(check_items_aligned(file, list->items()->Data(), "IntList", i, v));
      }
      if (const fb::DoubleList* list = value->val_as_DoubleList();
          list != nullptr && list->items() && list->items()->size() > 0) {
        ETNS_TRY(check_items_aligned(file, list->items()->Data(), "DoubleList", i, v));
      }
    }
  }
  return Error::Ok;
}

}  // namespace

Result<Program> Program::load(Span<const uint8_t> file) {
  ETNS_RETURN_IF(reinterpret_cast<uintptr_t>(file.data()) % 16 != 0, Error::InvalidArgument,
                 "program buffer is not 16-byte aligned");
  ETNS_ASSIGN_OR_RETURN(const ExtendedHeader header, read_extended_header(file));
  const size_t program_size = static_cast<size_t>(header.program_size);

  const uint32_t root = static_cast<uint32_t>(file[0]) | static_cast<uint32_t>(file[1]) << 8 |
                        static_cast<uint32_t>(file[2]) << 16 | static_cast<uint32_t>(file[3]) << 24;
  const size_t root_min = header.present ? 8 + header.length : 8;
  ETNS_RETURN_IF(root < root_min || program_size < 4 || root > program_size - 4,
                 Error::InvalidProgram,
                 "root table offset %" PRIu32 " at offset 0 is outside [%zu, %zu)", root, root_min,
                 program_size >= 4 ? program_size - 4 : size_t{0});

  flatbuffers::Verifier verifier(file.data(), program_size, /*max_depth=*/64,
                                 /*max_tables=*/1000000);
  ETNS_RETURN_IF(!fb::VerifyProgramBuffer(verifier), Error::InvalidProgram,
                 "flatbuffer verification failed: a table, vector or string offset or length "
                 "lies outside the program's %zu bytes or is misaligned",
                 program_size);

  Program program;
  program.file_ = file;
  program.header_ = header;
  program.program_ = fb::GetProgram(file.data());
  const fb::Program& p = *program.program_;
  ETNS_RETURN_IF(p.execution_plan() == nullptr || p.execution_plan()->size() == 0,
                 Error::InvalidProgram, "program has no execution plan");
  ETNS_TRY(check_wide_vectors_aligned(file.data(), p));

  const fb::SubsegmentOffsets* segment = p.constant_segment();
  const bool has_segment_constants =
      segment != nullptr && segment->offsets() != nullptr && segment->offsets()->size() > 1;
  const bool has_inline_constants =
      p.constant_buffer() != nullptr && p.constant_buffer()->size() > 0;
  ETNS_RETURN_IF(has_segment_constants && has_inline_constants, Error::InvalidProgram,
                 "program has both a constant segment and inline constant buffers");
  if (has_segment_constants) {
    const uint32_t index = segment->segment_index();
    ETNS_RETURN_IF(p.segments() == nullptr || index >= p.segments()->size(),
                   Error::InvalidProgram,
                   "constant_segment.segment_index %" PRIu32 " is out of range (%u segments)",
                   index,
                   p.segments() == nullptr ? 0u : static_cast<unsigned>(p.segments()->size()));
    ETNS_RETURN_IF(!header.present || header.segment_base_offset == 0, Error::InvalidProgram,
                   "program has constants in segment %" PRIu32
                   " but no extended header locating segment data",
                   index);
    const fb::DataSegment* data = p.segments()->Get(index);
    const uint64_t start = header.segment_base_offset + data->offset();
    const uint64_t end = start + data->size();
    ETNS_RETURN_IF(start < header.segment_base_offset || end < start || end > file.size(),
                   Error::InvalidProgram,
                   "segment %" PRIu32 " [%llu, %llu) lies past the file's %zu bytes", index,
                   static_cast<unsigned long long>(start), static_cast<unsigned long long>(end),
                   file.size());
    program.constant_segment_ =
        Span<const uint8_t>(file.data() + start, static_cast<size_t>(data->size()));
  }
  program.inline_constants_ = has_inline_constants;
  return program;
}

size_t Program::method_count() const { return program_->execution_plan()->size(); }

const char* Program::method_name(size_t index) const {
  const fb::ExecutionPlan* plan = program_->execution_plan()->Get(static_cast<uint32_t>(index));
  return plan->name() != nullptr ? plan->name()->c_str() : "";
}

Result<const fb::ExecutionPlan*> Program::plan(const char* name) const {
  // Names have a length: "forward\0x" is not "forward".
  const size_t name_bytes = std::strlen(name);
  for (const fb::ExecutionPlan* plan : *program_->execution_plan()) {
    const flatbuffers::String* candidate = plan->name();
    if (candidate != nullptr && candidate->size() == name_bytes &&
        std::memcmp(candidate->c_str(), name, name_bytes) == 0) {
      return plan;
    }
  }
  const flatbuffers::String* first = program_->execution_plan()->Get(0)->name();
  char wanted[kMaxEscapedBytes];
  char first_name[kMaxEscapedBytes];
  ETNS_LOG_ERROR("method '%s' not found; the program has %zu method(s), the first '%s'",
                 escape_text(wanted, sizeof(wanted), name, name_bytes), method_count(),
                 first != nullptr ? escape_text(first_name, sizeof(first_name), first->c_str(), first->size()) : "");
  return Error::InvalidArgument;
}

Result<const uint8_t*> Program::constant_data(uint32_t buffer_index, size_t size_bytes, size_t alignment,
                                              size_t value_index) const {
  const uint8_t* data = nullptr;
  if (inline_constants_) {
    const auto* buffers = program_->constant_buffer();
    ETNS_RETURN_IF(buffer_index >= buffers->size(), Error::InvalidProgram,
                   "value %zu: constant buffer %" PRIu32 " is out of range (%u buffers)",
                   value_index, buffer_index, static_cast<unsigned>(buffers->size()));
    const fb::Buffer* buffer = buffers->Get(buffer_index);
    const size_t available = buffer->storage() != nullptr ? buffer->storage()->size() : 0;
    ETNS_RETURN_IF(size_bytes > available, Error::InvalidProgram,
                   "value %zu: tensor needs %zu bytes, constant buffer %" PRIu32 " holds %zu",
                   value_index, size_bytes, buffer_index, available);
    if (available == 0) return nullptr;
    data = buffer->storage()->data();
  } else {
    const fb::SubsegmentOffsets* segment = program_->constant_segment();
    const auto* offsets = segment != nullptr ? segment->offsets() : nullptr;
    ETNS_RETURN_IF(offsets == nullptr || buffer_index >= offsets->size(), Error::InvalidProgram,
                   "value %zu: constant buffer %" PRIu32 " is out of range (%u buffers)",
                   value_index, buffer_index,
                   offsets == nullptr ? 0u : static_cast<unsigned>(offsets->size()));
    const uint64_t offset = offsets->Get(buffer_index);
    ETNS_RETURN_IF(offset > constant_segment_.size() ||
                       size_bytes > constant_segment_.size() - offset,
                   Error::InvalidProgram,
                   "value %zu: constant buffer %" PRIu32 " [%llu, +%zu) lies past the "
                   "constant segment's %zu bytes",
                   value_index, buffer_index, static_cast<unsigned long long>(offset), size_bytes,
                   constant_segment_.size());
    data = constant_segment_.data() + offset;
  }
  // The file starts 16-byte aligned (load checks), so its offsets tell alignment.
  const size_t file_offset = static_cast<size_t>(data - file_.data());
  ETNS_RETURN_IF(file_offset % alignment != 0, Error::InvalidProgram,
                 "value %zu: constant buffer %" PRIu32 " starts at file offset %zu, not a "
                 "multiple of its elements' %zu bytes",
                 value_index, buffer_index, file_offset, alignment);
  return data;
}

size_t Program::constant_bytes() const {
  if (!inline_constants_) return constant_segment_.size();
  size_t total = 0;
  for (const fb::Buffer* buffer : *program_->constant_buffer()) {
    total += buffer->storage() != nullptr ? buffer->storage()->size() : 0;
  }
  return total;
}

size_t Program::constant_buffer_count() const {
  if (inline_constants_) return program_->constant_buffer()->size();
  const fb::SubsegmentOffsets* segment = program_->constant_segment();
  return segment != nullptr && segment->offsets() != nullptr ? segment->offsets()->size() : 0;
}

}  // namespace etns::runtime
