#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace etns::runtime {

// Bump allocator over memory the caller owns; reset() frees everything at once.
class Arena {
 public:
  Arena(const char* name, Span<uint8_t> memory) : name_(name), memory_(memory) {}

  // When full, logs "arena 'temporary': need 1536 bytes, 1024 free" and
  // returns OutOfMemory. `alignment` must be a power of two.
  Result<void*> allocate(size_t size_bytes, size_t alignment = alignof(std::max_align_t));

  template <typename T>
  Result<T*> allocate_array(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) return Error::OutOfMemory;
    Result<void*> memory = allocate(count * sizeof(T), alignof(T));
    if (!memory.ok()) return memory.error();
    return static_cast<T*>(*memory);
  }

  void reset() { used_bytes_ = 0; }
  const char* name() const { return name_; }
  size_t capacity_bytes() const { return memory_.size(); }
  size_t used_bytes() const { return used_bytes_; }
  size_t free_bytes() const { return memory_.size() - used_bytes_; }
  size_t high_water_bytes() const { return high_water_bytes_; }

 private:
  const char* name_;
  Span<uint8_t> memory_;
  size_t used_bytes_ = 0;
  size_t high_water_bytes_ = 0;
};

}  // namespace etns::runtime
