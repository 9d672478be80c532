#include "runtime/core/arena.h"

#include "runtime/core/log.h"

namespace etns::runtime {

#if defined(__arm__)
Result<void*> Arena::allocate(size_t size_bytes, size_t alignment) {
#else
Result<void*> Arena::allocate(size_t size_bytes, size_t alignment, Layout on_arm32) {
  // The target's rule first, in the target's bytes: the host logs what the device would.
  const size_t target_free = target_capacity_bytes_ - arm32_used_bytes_;
  const size_t target_padding = align_up(arm32_used_bytes_, on_arm32.align) - arm32_used_bytes_;
  if (target_padding > target_free || on_arm32.size > target_free - target_padding) {
    ETNS_LOG_ERROR("arena '%s': need %zu bytes, %zu free", name_, on_arm32.size + target_padding, target_free);
    return Error::OutOfMemory;
  }
#endif
  const uintptr_t base = reinterpret_cast<uintptr_t>(memory_.data());
  const uintptr_t current = base + used_bytes_;
  const uintptr_t aligned = (current + alignment - 1) & ~(static_cast<uintptr_t>(alignment) - 1);
  const size_t padding = aligned - current;
  const size_t free = free_bytes();
  if (padding > free || size_bytes > free - padding) {
    ETNS_LOG_ERROR("arena '%s': need %zu bytes, %zu free", name_, size_bytes + padding, free);
    return Error::OutOfMemory;
  }
  used_bytes_ += padding + size_bytes;
#if !defined(__arm__)
  arm32_used_bytes_ += target_padding + on_arm32.size;
#endif
  if (used_bytes_ > high_water_bytes_) high_water_bytes_ = used_bytes_;
  return reinterpret_cast<void*>(aligned);
}

}  // namespace etns::runtime
