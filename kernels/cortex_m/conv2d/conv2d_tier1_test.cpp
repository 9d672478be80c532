// quantized_conv2d on tier1's two convolutions (profiler.md §12): the weights
// read from the shared tier1_arm program, against the spec's channel sums,
// constant inputs and upstream's goldens. Skips when ../shared is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/testing/conv_family_call.h"
#include "tests/support/kernel_call.h"
#include "tests/support/shared_data.h"

namespace etns::cortex_m {
namespace {

using etns::testing::KernelCall;
using runtime::Error;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kConv2dContract, &conv2d_prepare,
                                                           &conv2d_run);

constexpr runtime::Arg kInput = kConv2dContract.arg("input");
constexpr runtime::Arg kWeight = kConv2dContract.arg("weight");
constexpr runtime::Arg kOut = kConv2dContract.out();

// tier1_arm's constant segment (file offset 5888) holds both convs' OHWI weights.
constexpr size_t kConstantSegment = 5888;
constexpr size_t kConv1Weights = 2624, kConv2Weights = 7552, kWeightBytes = 2304;

const std::vector<int32_t> kConv1ArmMultipliers = {
    1109979705, 1147891037, 1138847467, 1354490799, 1134793497, 1367101146, 1188910528, 1132211173,
    1765065426, 2063243380, 1670393652, 1649163875, 1391514400, 1409155071, 1108449516, 1338886254};
const std::vector<int32_t> kConv1ArmShifts = {-8, -8, -8, -8, -8, -8, -8, -8,
                                              -8, -9, -8, -8, -8, -8, -8, -8};
const std::vector<int32_t> kConv1NsMultipliers = {
    1681337231, 1738763267, 1725064556, 2051709415, 1718923821, 2070810885, 1800897374, 1715012257,
    1336812828, 1562644748, 1265110986, 1249032127, 2107790762, 2134511897, 1679019384, 2028072493};
const std::vector<int32_t> kConv1NsShifts = {-9, -9, -9, -9, -9, -9, -9, -9,
                                             -8, -9, -8, -8, -9, -9, -9, -9};
const std::vector<int32_t> kConv2Multipliers = {
    1747255419, 1909715735, 1697784192, 1982554004, 1841548609, 1823514652, 1681384452, 1502214994,
    1705741614, 1596001409, 1457897944, 2029862516, 1999872487, 1588206912, 1606657958, 1807473037};
const std::vector<int32_t> kConv2Shifts(16, -9);

struct Tier1Conv {
  const char* name;
  size_t weight_offset;
  int64_t input_offset;
  int64_t output_offset;
  const std::vector<int32_t>* multipliers;
  const std::vector<int32_t>* shifts;
};

const Tier1Conv kConv1Arm{"tier1_arm conv1",     kConv1Weights,   -1, -39,
                          &kConv1ArmMultipliers, &kConv1ArmShifts};
const Tier1Conv kConv1Ns{"tier1_ns conv1",     kConv1Weights,  -1, 3,
                         &kConv1NsMultipliers, &kConv1NsShifts};
const Tier1Conv kConv2{"conv2", kConv2Weights, 113, 0, &kConv2Multipliers, &kConv2Shifts};

std::vector<int8_t> tier1_weights(const std::string& shared, size_t offset) {
  const std::vector<uint8_t> pte = etns::testing::read_file(shared + "/models/tier1/tier1_arm.pte");
  const size_t begin = kConstantSegment + offset;
  EXPECT_LE(begin + kWeightBytes, pte.size());
  if (begin + kWeightBytes > pte.size()) return {};
  return std::vector<int8_t>(pte.begin() + begin, pte.begin() + begin + kWeightBytes);
}

// Prepares a tier1 3x3 conv on [1, 16, 32, 32] NHWC with zero bias.
void prepare_tier1_conv(KernelCall& call, const Tier1Conv& conv, const std::vector<int8_t>& w) {
  kernels::testing::ConvCallArgs a;  // stride and padding 1; bias zeroed
  a.input_sizes = {1, 16, 32, 32};
  a.weight_sizes = {16, 3, 3, 16};
  a.input_offset = conv.input_offset;
  a.output_offset = conv.output_offset;
  a.multipliers = *conv.multipliers;
  a.shifts = *conv.shifts;
  a.out_sizes = {1, 16, 32, 32};
  kernels::testing::add_conv_arguments(call, kConv2dContract, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  ASSERT_EQ(w.size(), kWeightBytes);
  call.fill<int8_t>(kWeight, w);
}

// The offsets above are right: per-channel weight sums as operators.md §2.3.6 lists them.
TEST(Conv2dS8, Tier1WeightsHaveTheSpecChannelSums) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<int32_t> conv1 = {26,  -668, 559, -59,  -161, 206, -190, 68,
                                      -76, 1413, 46,  -633, -645, 481, 430,  -733};
  const std::vector<int32_t> conv2 = {-468, -967, 461,   -324, 460,  446, -990, 961,
                                      -226, -320, -1006, 816,  1037, 463, -376, 57};
  for (const auto& [offset, want] :
       {std::pair{kConv1Weights, conv1}, std::pair{kConv2Weights, conv2}}) {
    const std::vector<int8_t> w = tier1_weights(shared, offset);
    ASSERT_EQ(w.size(), kWeightBytes);
    std::vector<int32_t> sums(16, 0);
    for (size_t i = 0; i < w.size(); ++i) sums[i / 144] += w[i];
    EXPECT_EQ(sums, want) << "segment offset " << offset;
  }
}

// operators.md §2.3.7: constant inputs, zero point then zero point + 30.
TEST(Conv2dS8, Tier1ConstantInputVectors) {
  ETNS_REQUIRE_SHARED(shared);
  struct Pixel {
    int row, col;
    std::vector<int8_t> out;
  };
  struct Case {
    const Tier1Conv* conv;
    std::vector<Pixel> pixels;
  };
  const std::vector<Case> cases = {
      {&kConv1Arm,
       {{5, 5, {-37, -81, -4, -43, -49, -24, -51, -35, -46, 41, -35, -96, -88, -2, -13, -93}},
        {0, 0, {-23, -72, -36, -25, -60, -43, -46, -6, -52, 11, -28, -67, -76, -39, -32, -57}},
        {0, 5, {-38, -89, -13, -43, -63, -37, -29, -11, -34, 32, -46, -101, -77, -53, -30, -52}}}},
      {&kConv1Ns,
       {{5, 5, {4, -29, 29, 0, -5, 15, -6, 6, -3, 63, 6, -40, -34, 31, 23, -38}},
        {0, 0, {15, -22, 5, 14, -13, 0, -2, 28, -7, 41, 11, -18, -25, 3, 8, -11}},
        {0, 5, {4, -35, 23, 0, -15, 4, 11, 24, 7, 57, -3, -44, -26, -8, 10, -7}}}},
      {&kConv2,
       {{5, 5, {-22, -50, 21, -18, 23, 22, -45, 39, -11, -14, -40, 45, 57, 20, -16, 3}},
        {0, 0, {-24, -10, 22, -10, 20, 15, -34, 30, -18, 34, -20, 11, 39, -4, -24, -12}},
        {0, 5, {-34, -47, 14, -13, 37, 7, -40, 34, -6, 32, -34, 38, 61, 8, -37, 0}}}},
  };
  for (const Case& c : cases) {
    const std::vector<int8_t> w = tier1_weights(shared, c.conv->weight_offset);
    KernelCall call;
    prepare_tier1_conv(call, *c.conv, w);
    const int8_t zero_point = static_cast<int8_t>(-c.conv->input_offset);
    std::fill_n(call.data<int8_t>(kInput), 16384, zero_point);
    ASSERT_EQ(call.run(), Error::Ok);
    EXPECT_EQ(call.read<int8_t>(kOut),
              std::vector<int8_t>(16384, static_cast<int8_t>(c.conv->output_offset)))
        << c.conv->name;

    std::fill_n(call.data<int8_t>(kInput), 16384, static_cast<int8_t>(zero_point + 30));
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> out = call.read<int8_t>(kOut);
    for (const Pixel& pixel : c.pixels) {
      const auto first = out.begin() + (pixel.row * 32 + pixel.col) * 16;
      EXPECT_EQ(std::vector<int8_t>(first, first + 16), pixel.out)
          << c.conv->name << " pixel (" << pixel.row << ", " << pixel.col << ")";
    }
  }
}

// tier1_arm c0i1 (conv1 on the quantized input) and c0i5 (conv2 on mul's output).
TEST(Conv2dS8, MatchesUpstreamGoldens) {
  ETNS_REQUIRE_SHARED(shared);
  struct Stage {
    const Tier1Conv* conv;
    const char* input;
    const char* output;
  };
  for (const Stage& stage : {Stage{&kConv1Arm, "c0i0", "c0i1"}, Stage{&kConv2, "c0i3", "c0i5"}}) {
    const std::vector<int8_t> w = tier1_weights(shared, stage.conv->weight_offset);
    for (const char* id : {"A", "B", "C"}) {
      const std::string prefix = shared + "/golden/tier1_arm." + id + ".";
      const std::vector<uint8_t> input = etns::testing::read_file(prefix + stage.input + ".bin");
      const std::vector<uint8_t> want = etns::testing::read_file(prefix + stage.output + ".bin");
      KernelCall call;
      prepare_tier1_conv(call, *stage.conv, w);
      ASSERT_EQ(input.size(), call.tensor_at(kInput).nbytes);
      ASSERT_EQ(want.size(), call.tensor_at(kOut).nbytes);
      std::memcpy(call.data<int8_t>(kInput), input.data(), input.size());
      ASSERT_EQ(call.run(), Error::Ok);
      EXPECT_EQ(std::memcmp(call.data<int8_t>(kOut), want.data(), want.size()), 0)
          << id << "." << stage.output;
    }
  }
}

}  // namespace
}  // namespace etns::cortex_m
