// The cycle model on hand-assembled blocks (arm-none-eabi-gcc -mcpu=cortex-m55;
// each block's assembly beside its bytes), without QEMU: what a block costs
// in context, the loop rules, and that the pair cache changes nothing.

#include "qemu_plugin/cycle_model.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace etns {
namespace {

// dls lr, r0; movs r1, #0
const std::vector<uint8_t> kLoopStart = {0x40, 0xF0, 0x01, 0xE0, 0x00, 0x21};
// 1: vldrb.u8 q0, [r0], #16; vldrb.u8 q1, [r1], #16; vmladava.s8 r2, q0, q1; le lr, 1b
const std::vector<uint8_t> kMacLoop = {0xB0, 0xEC, 0x10, 0x1E, 0xB1, 0xEC, 0x10, 0x3E,
                                       0xF0, 0xEE, 0x22, 0x2F, 0x0F, 0xF0, 0x09, 0xC0};
// adds r1, r1, r0; subs r2, r2, #1
const std::vector<uint8_t> kScalar = {0x09, 0x18, 0x01, 0x3A};

using ModelPtr = std::unique_ptr<EtnsCycleModel, void (*)(EtnsCycleModel*)>;

ModelPtr make_model(int cache) {
  char error[256] = "";
  EtnsCycleModel* model = etns_cycle_model_create("cortex-m55", cache, error, sizeof(error));
  EXPECT_NE(model, nullptr) << error;
  return ModelPtr(model, etns_cycle_model_destroy);
}

// A short program: the loop start at 0x100 falls into the MAC loop at 0x106,
// which runs `iterations` times, then falls through to scalar code, which
// branches back to the loop start (taken), `rounds` times.
std::vector<uint64_t> run_program(EtnsCycleModel* model, int rounds, int iterations) {
  EtnsCycleBlock* start = etns_cycle_block(model, 0x100, kLoopStart.data(), kLoopStart.size());
  EtnsCycleBlock* loop = etns_cycle_block(model, 0x106, kMacLoop.data(), kMacLoop.size());
  EtnsCycleBlock* scalar = etns_cycle_block(model, 0x116, kScalar.data(), kScalar.size());
  std::vector<uint64_t> costs;
  for (int r = 0; r < rounds; ++r) {
    costs.push_back(etns_cycle_execute(model, start));
    for (int i = 0; i < iterations; ++i) costs.push_back(etns_cycle_execute(model, loop));
    costs.push_back(etns_cycle_execute(model, scalar));
  }
  return costs;
}

TEST(CycleModel, TheCacheChangesNothing) {
  const ModelPtr cached = make_model(1);
  const ModelPtr uncached = make_model(0);
  const std::vector<uint64_t> with_cache = run_program(cached.get(), 3, 20);
  EXPECT_EQ(with_cache, run_program(uncached.get(), 3, 20));
  EXPECT_EQ(etns_cycle_model_stats(cached.get()).blocks, 3u);
  EXPECT_LT(etns_cycle_model_stats(cached.get()).pairs, etns_cycle_model_stats(uncached.get()).pairs);
}

TEST(CycleModel, TheSameAddressAndBytesAreOneBlock) {
  const ModelPtr model = make_model(1);
  EtnsCycleBlock* first = etns_cycle_block(model.get(), 0x200, kScalar.data(), kScalar.size());
  EXPECT_EQ(etns_cycle_block(model.get(), 0x200, kScalar.data(), kScalar.size()), first);
  EXPECT_NE(etns_cycle_block(model.get(), 0x300, kScalar.data(), kScalar.size()), first);
  const std::vector<uint8_t> changed = {0x09, 0x18, 0x02, 0x3A};  // subs r2, r2, #2
  EXPECT_NE(etns_cycle_block(model.get(), 0x200, changed.data(), changed.size()), first);
}

// The loop body's steady state is 4 cycles (two loads on the load/store pipe;
// LE folded); its first back edge after the DLS pays the taken branch (3), the
// later ones nothing; leaving the loop falls through (no branch); going back
// to the loop start is a taken branch.
TEST(CycleModel, LowOverheadLoopsAndBranches) {
  const ModelPtr model = make_model(1);
  const std::vector<uint64_t> costs = run_program(model.get(), 2, 6);
  ASSERT_EQ(costs.size(), 16u);
  // Round 1: start, loop x6, scalar. costs[1] is the loop after the start
  // (falls through: no branch); costs[2] the first back edge.
  const uint64_t steady = costs[3];
  EXPECT_EQ(steady, 4000u);
  EXPECT_EQ(costs[2], steady + 3000);
  for (size_t i = 4; i <= 6; ++i) EXPECT_EQ(costs[i], steady) << i;
  // Round 2 starts with a taken branch back to the loop start, and its loop
  // pays its first back edge again.
  EXPECT_GT(costs[8], 3000u);
  EXPECT_EQ(costs[10], costs[2]);
  EXPECT_EQ(costs[11], steady);
}

TEST(CycleModel, UndecodableInstructionsCostOneCycleAndAreCounted) {
  const ModelPtr model = make_model(1);
  // Two halfwords of a permanently undefined 32-bit encoding space the
  // decoder rejects (0xFFFF 0xFFFF).
  const std::vector<uint8_t> junk = {0xFF, 0xFF, 0xFF, 0xFF};
  EtnsCycleBlock* block = etns_cycle_block(model.get(), 0x400, junk.data(), junk.size());
  EXPECT_EQ(etns_cycle_execute(model.get(), block), 1000u);
  EXPECT_EQ(etns_cycle_model_stats(model.get()).unmodelled_instructions, 1u);
}

TEST(CycleModel, AnUnknownCpuIsRefusedWithOneLine) {
  char error[256] = "";
  EXPECT_EQ(etns_cycle_model_create("cortex-m99", 1, error, sizeof(error)), nullptr);
  EXPECT_NE(std::string(error).find("cortex-m99"), std::string::npos) << error;
}

}  // namespace
}  // namespace etns
