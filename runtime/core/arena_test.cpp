#include "runtime/core/arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "runtime/core/evalue.h"
#include "runtime/exec/method.h"
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

TEST(Arena, CountsTheArm32LayoutBesideThisHosts) {
  alignas(16) uint8_t memory[256];
  Arena arena("method", Span<uint8_t>(memory, sizeof(memory)));
  ASSERT_TRUE(arena.allocate(3, 1).ok());                 // bytes: 3 on both
  ASSERT_TRUE(arena.allocate_array<const char*>(2).ok());  // two words: 4-aligned, 8 bytes on Arm
  EXPECT_EQ(arena.arm32_used_bytes(), 4u + 8u);
  EXPECT_EQ(arena.used_bytes(), align_up(3, alignof(void*)) + 2 * sizeof(void*));
  ASSERT_TRUE(arena.allocate(1, 1).ok());
  ASSERT_TRUE(arena.allocate_array<EValue>(1).ok());  // 8-aligned on both
  EXPECT_EQ(arena.arm32_used_bytes(), 16u + layout_of<EValue>(kArm32Abi).size);
  arena.reset();
  EXPECT_EQ(arena.arm32_used_bytes(), 0u);
}

// The 32-bit layouts the firmware build checks with its own sizeof (a kind
// byte, then the widest union member, Tensor: 2 bytes, 3 pointers, 2 size_t
// and a bool, all 8-aligned for the int64_t/double members).
TEST(TargetLayout, RuntimeTypesOnTheArm32Abi) {
  EXPECT_EQ(layout_of<Tensor>(kArm32Abi), (Layout{28, 4}));
  EXPECT_EQ(layout_of<EValue>(kArm32Abi), (Layout{40, 8}));
  EXPECT_EQ(layout_of<Span<EValue* const>>(kArm32Abi), (Layout{8, 4}));
  EXPECT_EQ(layout_of<Instruction>(kArm32Abi), (Layout{52, 4}));
  EXPECT_EQ(layout_of<EValue*>(kArm32Abi), (Layout{4, 4}));
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
