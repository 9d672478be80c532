// Programs with large constant data, as imported models carry their weights
// (vww about 219 KB, ad about 271 KB): a quantized_linear with 520 KiB of
// int8 weights runs on the host and on the Cortex-M55 firmware under QEMU,
// where the program is read in place from the job region (docs/memory.md), and
// gives the same bytes on both. A job larger than the firmware's job region is
// refused on the host, naming the sizes, before QEMU starts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/common/requantize.h"
#include "kernels/cortex_m/linear/linear.h"
#include "protocol/job.h"
#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/rng.h"
#include "tools/common/files.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns {
namespace {

using tools::GraphArg;
using tools::GraphTensor;

constexpr int32_t kIn = 1024;
constexpr int32_t kOut = 520;  // 1024 x 520 int8 weights: 532,480 bytes, above 512 KiB
constexpr int32_t kInputOffset = 9;
constexpr int32_t kOutputOffset = 4;
constexpr kernels::Requant kRequant{1 << 30, -11};  // x2^-12: sums of 1024 products land on the int8 grid

struct LargeLinear {
  std::vector<int8_t> weights;  // [kOut, kIn]
  std::vector<int32_t> bias;
  std::vector<int8_t> input;  // [1, kIn]

  explicit LargeLinear(testing::Rng& rng)
      : weights(testing::random_s8(rng, size_t{kIn} * kOut)), input(testing::random_s8(rng, kIn)) {
    for (int32_t r = 0; r < kOut; ++r) bias.push_back(static_cast<int32_t>(rng.uniform(-5000, 5000)));
  }

  // The exporter's form: bias folded into kernel_sum = input_offset * sum(w) + bias.
  std::vector<uint8_t> program() const {
    tools::GraphBuilder g("large_linear", tools::Provider::Arm);
    std::vector<int32_t> kernel_sum;
    for (size_t r = 0; r < kOut; ++r) {
      int32_t row_sum = 0;
      for (size_t c = 0; c < kIn; ++c) row_sum += weights[r * kIn + c];
      kernel_sum.push_back(kInputOffset * row_sum + bias[r]);
    }
    const auto s8 = runtime::ScalarType::Char;
    const int32_t x = g.tensor("x", s8, {1, kIn}, tools::contiguous_order(2), GraphTensor::Role::Input);
    const int32_t y = g.tensor("y", s8, {1, kOut}, tools::contiguous_order(2), GraphTensor::Role::Output);
    const int32_t w = g.tensor("w", s8, {kOut, kIn}, tools::contiguous_order(2), GraphTensor::Role::Constant,
                               std::vector<uint8_t>(weights.begin(), weights.end()));
    g.call(cortex_m::kLinearContract, {{"input", GraphArg::of_tensor(x)},
                                       {"weights", GraphArg::of_tensor(w)},
                                       {"kernel_sum", GraphArg::of_tensor(g.int32_vector("ks", kernel_sum, {1, kOut}))},
                                       {"input_offset", GraphArg::integer(kInputOffset)},
                                       {"filter_offset", GraphArg::integer(0)},
                                       {"output_offset", GraphArg::integer(kOutputOffset)},
                                       {"requantize_multipliers", GraphArg::list({kRequant.multiplier})},
                                       {"requantize_shifts", GraphArg::list({kRequant.shift})},
                                       {"activation_max", GraphArg::integer(127)},
                                       {"activation_min", GraphArg::integer(-128)},
                                       {"out", GraphArg::of_tensor(y)}});
    return tools::graph_to_pte(g.take());
  }

  // bias + sum (x + input_offset) w, requantised (docs/numerics.md#linear): every
  // weight row counts, so a constant read from the wrong place shows.
  std::vector<uint8_t> want() const {
    std::vector<uint8_t> out;
    for (size_t r = 0; r < kOut; ++r) {
      int32_t acc = bias[r];
      for (size_t c = 0; c < kIn; ++c) acc += (input[c] + kInputOffset) * weights[r * kIn + c];
      const int32_t q = kernels::requantize(acc, kRequant) + kOutputOffset;
      out.push_back(static_cast<uint8_t>(static_cast<int8_t>(std::clamp(q, -128, 127))));
    }
    return out;
  }
};

void write(const std::string& path, const std::vector<uint8_t>& bytes) {
  tools::write_file_atomic(path, bytes.data(), bytes.size());
}

TEST(LargeConstants, A520KiBWeightProgramGivesTheSameBytesOnTheHostAndTheM55) {
  ETNS_REQUIRE_QEMU();
  testing::TempDir dir;
  testing::Rng rng(0x6c617267);  // "larg"
  const LargeLinear linear(rng);
  const std::vector<uint8_t> pte = linear.program();
  ASSERT_GT(pte.size(), size_t{512} * 1024);
  write(dir.path() + "/large_linear_arm.pte", pte);
  write(dir.path() + "/x.bin", std::vector<uint8_t>(linear.input.begin(), linear.input.end()));
  const std::string common = "run " + dir.path() + "/large_linear_arm.pte --provider arm --input " + dir.path() +
                             "/x.bin --output " + dir.path();
  const testing::CliResult host = testing::run_cli(common + "/host.bin");
  ASSERT_EQ(host.exit_code, 0) << host.stderr_text;
  const testing::CliResult m55 = testing::run_cli(common + "/m55.bin --target qemu-m55");
  ASSERT_EQ(m55.exit_code, 0) << m55.stderr_text;
  const std::vector<uint8_t> host_out = tools::read_file(dir.path() + "/host.bin");
  const std::vector<uint8_t> want = linear.want();
  EXPECT_EQ(host_out, want);
  EXPECT_EQ(tools::read_file(dir.path() + "/m55.bin"), host_out);
  EXPECT_GT(std::count_if(want.begin(), want.end(), [](uint8_t v) { return v != 0x7f && v != 0x80; }), kOut / 2)
      << "most outputs inside the int8 range, not saturated";
}

uint64_t align16(uint64_t bytes) { return (bytes + 15) / 16 * 16; }

// The job (header, program, inputs) must fit the region the firmware's linker
// script gives it; the host knows the region from the image's symbols and
// refuses a larger job before QEMU starts.
TEST(LargeConstants, AJobLargerThanTheFirmwaresJobRegionIsRefusedOnTheHost) {
  ETNS_REQUIRE_QEMU();
  const tools::ElfImage image = tools::ElfImage::load(testing::firmware_image("arm"));
  const tools::ElfSymbol* start = image.find("__job_start");
  const tools::ElfSymbol* end = image.find("__job_end");
  ASSERT_NE(start, nullptr);
  ASSERT_NE(end, nullptr);
  const uint64_t capacity = end->address - start->address;
  ASSERT_GE(capacity, uint64_t{1024} * 1024) << "the job region holds programs of 1 MiB";

  testing::TempDir dir;
  testing::Rng rng(0x6c617267);
  const std::vector<uint8_t> pte = LargeLinear(rng).program();
  const std::string program = dir.path() + "/large_linear_arm.pte";
  write(program, pte);
  // An input as large as the whole region, without writing its bytes to disk.
  const std::string input = dir.path() + "/huge.bin";
  write(input, {});
  std::filesystem::resize_file(input, capacity);

  const testing::CliResult result = testing::run_cli("run " + program + " --provider arm --target qemu-m55 --input " +
                                                     input + " --output " + dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 1);
  const uint64_t job = align16(sizeof(protocol::JobHeader)) + align16(pte.size()) + capacity;
  char region[32];
  std::snprintf(region, sizeof(region), "0x%llx", static_cast<unsigned long long>(start->address));
  EXPECT_EQ(result.stderr_text, "etns: " + program + ": the job needs " + std::to_string(job) + " bytes (header " +
                                    std::to_string(sizeof(protocol::JobHeader)) + ", program " +
                                    std::to_string(pte.size()) + ", inputs " + std::to_string(capacity) +
                                    ", each part 16-byte aligned), the firmware's job region at " + region +
                                    " holds " + std::to_string(capacity) + "\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/out.bin"));
}

}  // namespace
}  // namespace etns
