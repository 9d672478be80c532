// `etns run` with several inputs and outputs: `--input` once per method input
// and `--output` once per method output, in the method's order, on the host
// and on the Cortex-M55 firmware under QEMU. The programs are built with the
// program builder (two program inputs into cortex_m::quantized_add and
// cortex_m::maximum), their parameters chosen so that the expected bytes can
// be computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/cortex_m/add/add.h"
#include "kernels/cortex_m/maximum/maximum.h"
#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/rng.h"
#include "tools/common/files.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns {
namespace {

using tools::GraphArg;
using tools::GraphTensor;

constexpr const char* kQemu = " --target qemu-m55";
const std::vector<int32_t> kSizes{6, 40};  // 240 elements: not a multiple of Helium's 16 lanes

constexpr int32_t kZeroA = 3;
constexpr int32_t kZeroB = -5;
constexpr int32_t kZeroOut = -7;
constexpr int32_t kMin = -100;
constexpr int32_t kMax = 110;

// out = clamp((a - 3) + 2 (b + 5) - 7, -100, 110), exactly: a is requantised
// by (2^30, 1) = x1 and b by (2^30, 2) = x2 after the kernel's 2^20 headroom,
// the sum by (2^30, -19) = x2^-20; every step divides evenly, so nothing
// rounds. b counts twice, so swapped inputs give other bytes.
int8_t want_sum(int8_t a, int8_t b) {
  return static_cast<int8_t>(std::clamp((a - kZeroA) + 2 * (b - kZeroB) + kZeroOut, kMin, kMax));
}

// A graph with inputs a and b (in that order) and the output `sum`; with
// `with_max`, a second output max(a, b).
tools::QuantizedGraph two_input_graph(bool with_max) {
  tools::GraphBuilder g(with_max ? "sum_and_max" : "sum", tools::Provider::Arm);
  const std::vector<uint8_t> order = tools::contiguous_order(kSizes.size());
  const auto s8 = runtime::ScalarType::Char;
  const int32_t a = g.tensor("a", s8, kSizes, order, GraphTensor::Role::Input);
  const int32_t b = g.tensor("b", s8, kSizes, order, GraphTensor::Role::Input);
  const int32_t sum = g.tensor("sum", s8, kSizes, order, GraphTensor::Role::Output);
  g.call(cortex_m::kAddContract, {{"self", GraphArg::of_tensor(a)},
                                  {"self_zero_point", GraphArg::integer(kZeroA)},
                                  {"self_multiplier", GraphArg::integer(1 << 30)},
                                  {"self_shift", GraphArg::integer(1)},
                                  {"other", GraphArg::of_tensor(b)},
                                  {"other_zero_point", GraphArg::integer(kZeroB)},
                                  {"other_multiplier", GraphArg::integer(1 << 30)},
                                  {"other_shift", GraphArg::integer(2)},
                                  {"output_zero_point", GraphArg::integer(kZeroOut)},
                                  {"output_multiplier", GraphArg::integer(1 << 30)},
                                  {"output_shift", GraphArg::integer(-19)},
                                  {"activation_min", GraphArg::integer(kMin)},
                                  {"activation_max", GraphArg::integer(kMax)},
                                  {"out", GraphArg::of_tensor(sum)}});
  if (with_max) {
    const int32_t max = g.tensor("max", s8, kSizes, order, GraphTensor::Role::Output);
    g.call(cortex_m::kMaximumContract,
           {{"self", GraphArg::of_tensor(a)}, {"other", GraphArg::of_tensor(b)}, {"out", GraphArg::of_tensor(max)}});
  }
  return g.take();
}

std::vector<uint8_t> as_bytes(const std::vector<int8_t>& values) { return {values.begin(), values.end()}; }

// The two programs and their inputs in one folder.
struct Files {
  testing::TempDir dir;
  std::string sum_program = dir.path() + "/sum_arm.pte";
  std::string sum_and_max_program = dir.path() + "/sum_and_max_arm.pte";
  std::string a = dir.path() + "/a.bin";
  std::string b = dir.path() + "/b.bin";
  std::vector<int8_t> a_values, b_values;

  Files() {
    testing::Rng rng(0x696f);  // "io"
    a_values = testing::random_s8(rng, 240);
    b_values = testing::random_s8(rng, 240);
    write(sum_program, tools::graph_to_pte(two_input_graph(false)));
    write(sum_and_max_program, tools::graph_to_pte(two_input_graph(true)));
    write(a, as_bytes(a_values));
    write(b, as_bytes(b_values));
  }
  static void write(const std::string& path, const std::vector<uint8_t>& bytes) {
    tools::write_file_atomic(path, bytes.data(), bytes.size());
  }
  std::vector<uint8_t> want_sum_bytes() const {
    std::vector<uint8_t> out;
    for (size_t i = 0; i < a_values.size(); ++i) out.push_back(static_cast<uint8_t>(want_sum(a_values[i], b_values[i])));
    return out;
  }
  std::vector<uint8_t> want_max_bytes() const {
    std::vector<uint8_t> out;
    for (size_t i = 0; i < a_values.size(); ++i) out.push_back(static_cast<uint8_t>(std::max(a_values[i], b_values[i])));
    return out;
  }
};

std::vector<std::string> targets() {
  std::vector<std::string> t{""};
  if (!testing::qemu_unavailable_reason()) t.push_back(kQemu);
  return t;
}

TEST(RunInputsOutputs, TwoInputsGiveTheHandComputedSumOnBothTargets) {
  ETNS_REQUIRE_QEMU();
  Files f;
  const std::string common = "run " + f.sum_program + " --provider arm --input " + f.a + " --input " + f.b;
  const testing::CliResult host = testing::run_cli(common + " --output " + f.dir.path() + "/host.bin");
  ASSERT_EQ(host.exit_code, 0) << host.stderr_text;
  const testing::CliResult m55 = testing::run_cli(common + kQemu + " --output " + f.dir.path() + "/m55.bin");
  ASSERT_EQ(m55.exit_code, 0) << m55.stderr_text;
  const std::vector<uint8_t> host_out = tools::read_file(f.dir.path() + "/host.bin");
  EXPECT_EQ(host_out, f.want_sum_bytes());
  EXPECT_EQ(tools::read_file(f.dir.path() + "/m55.bin"), host_out);

  // The order is the method's: b first is another sum.
  const testing::CliResult swapped = testing::run_cli("run " + f.sum_program + " --provider arm --input " + f.b +
                                                      " --input " + f.a + " --output " + f.dir.path() + "/swapped.bin");
  ASSERT_EQ(swapped.exit_code, 0) << swapped.stderr_text;
  EXPECT_NE(tools::read_file(f.dir.path() + "/swapped.bin"), host_out);
}

TEST(RunInputsOutputs, TwoOutputsGoToTheirFilesInOrderOnBothTargets) {
  ETNS_REQUIRE_QEMU();
  Files f;
  const std::string common = "run " + f.sum_and_max_program + " --provider arm --input " + f.a + " --input " + f.b;
  for (const std::string& target : {std::string("host"), std::string("m55")}) {
    SCOPED_TRACE(target);
    const std::string out = f.dir.path() + "/" + target;
    const testing::CliResult result = testing::run_cli(common + (target == "m55" ? kQemu : "") + " --output " + out +
                                                       ".sum.bin --output " + out + ".max.bin --summary always");
    ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
    EXPECT_EQ(tools::read_file(out + ".sum.bin"), f.want_sum_bytes());
    EXPECT_EQ(tools::read_file(out + ".max.bin"), f.want_max_bytes());
    EXPECT_EQ(result.stdout_text.rfind("etns run: wrote " + out + ".sum.bin (240 B), " + out + ".max.bin (240 B); provider arm, ", 0),
              0u)
        << result.stdout_text;
  }
}

// A count that is not the method's is one line naming both counts, the same
// on both targets (the firmware's own check for inputs), and writes nothing.
TEST(RunInputsOutputs, AnInputCountOtherThanTheMethodsIsOneLineOnBothTargets) {
  Files f;
  for (const std::string& target : targets()) {
    SCOPED_TRACE(target.empty() ? "host" : "qemu-m55");
    const std::string out = f.dir.path() + "/out.bin";
    const testing::CliResult one =
        testing::run_cli("run " + f.sum_program + target + " --provider arm --input " + f.a + " --output " + out);
    EXPECT_EQ(one.exit_code, 1);
    EXPECT_EQ(one.stderr_text,
              "etns: " + f.sum_program + ": the method has 2 inputs, 1 given (one per method input, in order)\n");
    const testing::CliResult three = testing::run_cli("run " + f.sum_program + target + " --provider arm --input " +
                                                      f.a + " --input " + f.b + " --input " + f.a + " --output " + out);
    EXPECT_EQ(three.exit_code, 1);
    EXPECT_EQ(three.stderr_text,
              "etns: " + f.sum_program + ": the method has 2 inputs, 3 given (one per method input, in order)\n");
    EXPECT_FALSE(std::filesystem::exists(out)) << "no output on failure";
  }
}

TEST(RunInputsOutputs, AnOutputCountOtherThanTheMethodsIsOneLineOnBothTargets) {
  Files f;
  for (const std::string& target : targets()) {
    SCOPED_TRACE(target.empty() ? "host" : "qemu-m55");
    const std::string out = f.dir.path() + "/out";
    const std::string common = "run " + f.sum_and_max_program + target + " --provider arm --input " + f.a +
                               " --input " + f.b + " --output " + out + "0.bin";
    const testing::CliResult one = testing::run_cli(common);
    EXPECT_EQ(one.exit_code, 1);
    EXPECT_EQ(one.stderr_text, "etns: " + f.sum_and_max_program +
                                   ": the method has 2 outputs, 1 given (one per method output, in order)\n");
    const testing::CliResult three =
        testing::run_cli(common + " --output " + out + "1.bin --output " + out + "2.bin");
    EXPECT_EQ(three.exit_code, 1);
    EXPECT_EQ(three.stderr_text, "etns: " + f.sum_and_max_program +
                                     ": the method has 2 outputs, 3 given (one per method output, in order)\n");
    for (const char* k : {"0", "1", "2"}) EXPECT_FALSE(std::filesystem::exists(out + k + ".bin")) << "no output on failure";
  }
}

// One file per --input: a second file name after it is not an input (it
// would be taken for a second program and refused as a usage error).
TEST(RunInputsOutputs, EachInputOptionTakesOneFile) {
  Files f;
  const testing::CliResult result = testing::run_cli("run --provider arm --input " + f.a + " " + f.b + " " +
                                                     f.sum_program + " --output " + f.dir.path() + "/out.bin");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(std::count(result.stderr_text.begin(), result.stderr_text.end(), '\n'), 1) << result.stderr_text;
}

}  // namespace
}  // namespace etns
