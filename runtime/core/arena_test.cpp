#include "runtime/core/arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tests/support/log_capture.h"

namespace etns::runtime {
namespace {

TEST(Arena, AllocatesAlignedAndTracksHighWater) {
  alignas(16) uint8_t memory[256];
  Arena arena("test", Span<uint8_t>(memory, sizeof(memory)));
  Result<void*> a = arena.allocate(3, 1);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, memory);
  Result<void*> b = arena.allocate(8, 16);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*b) % 16, 0u);
  EXPECT_EQ(arena.used_bytes(), 24u);
  arena.reset();
  EXPECT_EQ(arena.used_bytes(), 0u);
  EXPECT_EQ(arena.high_water_bytes(), 24u);
}

TEST(Arena, FullArenaLogsNameAndShortfall) {
  alignas(16) uint8_t memory[64];
  Arena arena("temporary", Span<uint8_t>(memory, sizeof(memory)));
  testing::LogCapture log;
  Result<void*> too_big = arena.allocate(65, 1);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.error(), Error::OutOfMemory);
  EXPECT_EQ(log.text(), "arena 'temporary': need 65 bytes, 64 free\n");
  EXPECT_EQ(arena.used_bytes(), 0u);
}

TEST(Arena, ExactFitSucceedsAndOneMoreByteFails) {
  alignas(16) uint8_t memory[32];
  Arena arena("method", Span<uint8_t>(memory, sizeof(memory)));
  testing::LogCapture log;
  EXPECT_TRUE(arena.allocate(32, 1).ok());
  EXPECT_FALSE(arena.allocate(1, 1).ok());
}

}  // namespace
}  // namespace etns::runtime
