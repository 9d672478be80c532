#include "runtime/core/arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "runtime/core/log.h"

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
  std::string log;
  set_log_sink([](void* user, const char* line) { *static_cast<std::string*>(user) += line; }, &log);
  Result<void*> too_big = arena.allocate(65, 1);
  set_log_sink(nullptr, nullptr);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.error(), Error::OutOfMemory);
  EXPECT_EQ(log, "arena 'temporary': need 65 bytes, 64 free");
  EXPECT_EQ(arena.used_bytes(), 0u);
}

TEST(Arena, ExactFitSucceedsAndOneMoreByteFails) {
  alignas(16) uint8_t memory[32];
  Arena arena("method", Span<uint8_t>(memory, sizeof(memory)));
  set_log_sink([](void*, const char*) {}, nullptr);
  EXPECT_TRUE(arena.allocate(32, 1).ok());
  EXPECT_FALSE(arena.allocate(1, 1).ok());
  set_log_sink(nullptr, nullptr);
}

}  // namespace
}  // namespace etns::runtime
