#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/core/target_layout.h"

namespace etns::runtime {

// Bump allocator over memory the caller owns; reset() frees everything at once.
// Beside the bytes it hands out, it counts what the same allocations would take
// on the 32-bit Arm target (arm32_used_bytes), so the host can report what a
// Cortex-M55 must reserve.
//
// A target capacity bounds the arena as the target would: on a host, whose
// own allocations are larger, an allocation that would take the Arm layout
// past it fails with the line the device logs (the host's memory must still
// hold the host layout). On the Arm target the memory is cut to the target
// capacity, so allocate() stays as cheap as without one.
class Arena {
 public:
  Arena(const char* name, Span<uint8_t> memory)
      : name_(name), memory_(memory), target_capacity_bytes_(memory.size()) {}
#if defined(__arm__)
  Arena(const char* name, Span<uint8_t> memory, size_t target_capacity_bytes)
      : Arena(name, Span<uint8_t>(memory.data(), target_capacity_bytes < memory.size() ? target_capacity_bytes
                                                                                        : memory.size())) {}
#else
  Arena(const char* name, Span<uint8_t> memory, size_t target_capacity_bytes)
      : name_(name), memory_(memory), target_capacity_bytes_(target_capacity_bytes) {}
#endif

  // When full, logs "arena 'temporary': need 1536 bytes, 1024 free" and
  // returns OutOfMemory. `alignment` must be a power of two.
  // Raw bytes are the same size and alignment on the Arm target. On the target
  // itself the layout argument is dropped at compile time: kernels allocate
  // scratch on every call, and the count must cost them nothing there.
#if defined(__arm__)
  Result<void*> allocate(size_t size_bytes, size_t alignment = alignof(std::max_align_t));
  Result<void*> allocate(size_t size_bytes, size_t alignment, Layout) { return allocate(size_bytes, alignment); }
#else
  Result<void*> allocate(size_t size_bytes, size_t alignment = alignof(std::max_align_t)) {
    return allocate(size_bytes, alignment, Layout{size_bytes, alignment});
  }
  // As above; `on_arm32` is what the allocation takes on the Arm target.
  Result<void*> allocate(size_t size_bytes, size_t alignment, Layout on_arm32);
#endif

  // Room for `count` T (not constructed). T must have an ETNS_TARGET_LAYOUT
  // description (or be a pointer).
  template <typename T>
  Result<T*> allocate_array(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) return Error::OutOfMemory;
    const Layout element = layout_of<T>(kArm32Abi);
    Result<void*> memory = allocate(count * sizeof(T), alignof(T), Layout{count * element.size, element.align});
    if (!memory.ok()) return memory.error();
    return static_cast<T*>(*memory);
  }

  void reset() {
    used_bytes_ = 0;
    arm32_used_bytes_ = 0;
  }
  const char* name() const { return name_; }
  // What the target gives this arena (by default, its memory).
  size_t capacity_bytes() const { return target_capacity_bytes_; }
  size_t used_bytes() const { return used_bytes_; }
  size_t free_bytes() const { return memory_.size() - used_bytes_; }
  size_t high_water_bytes() const { return high_water_bytes_; }
  // The bytes the allocations so far take on the 32-bit Arm target, from
  // memory aligned to 8 bytes or more there (the firmware's arenas are).
  // On the Arm target itself that is used_bytes(): the count costs nothing there.
#if defined(__arm__)
  size_t arm32_used_bytes() const { return used_bytes_; }
#else
  size_t arm32_used_bytes() const { return arm32_used_bytes_; }
#endif

 private:
  const char* name_;
  Span<uint8_t> memory_;
  size_t target_capacity_bytes_;
  size_t used_bytes_ = 0;
  size_t high_water_bytes_ = 0;
  size_t arm32_used_bytes_ = 0;
};

}  // namespace etns::runtime
