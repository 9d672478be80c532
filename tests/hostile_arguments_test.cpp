// Operator arguments a program can lie about (issue 20): single-operator
// programs whose arguments are valid one by one but not together. Each one is
// refused at load with one line, the same on the host and on the Cortex-M55
// firmware under QEMU, or runs and gives the same bytes on both. No fault, no
// hang.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/portable/portable.h"
#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tools/common/files.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns {
namespace {

using runtime::ScalarType;
using tools::GraphArg;
using tools::GraphBuilder;
using tools::GraphTensor;
using tools::ProgramModel;
using tools::Provider;

constexpr int32_t kHuge = 2147483647;  // 2^31 - 1

// A program's bytes and the input to run it on.
struct Program {
  std::vector<uint8_t> pte;
  std::vector<uint8_t> input;
};

// `etns run` on the host and on the firmware under QEMU.
struct Runs {
  testing::CliResult host, qemu;
  std::vector<uint8_t> host_out, qemu_out;
  std::string path;  // the program's path, as the lines name it
};

Runs run_both(const Program& p, Provider provider, const testing::TempDir& dir) {
  Runs r;
  r.path = dir.path() + "/hostile.pte";
  tools::write_file_atomic(r.path, p.pte.data(), p.pte.size());
  tools::write_file_atomic(dir.path() + "/in.bin", p.input.data(), p.input.size());
  const std::string common = "run " + r.path + " --provider " + to_string(provider) + " --input " +
                             dir.path() + "/in.bin --output ";
  r.host = testing::run_cli(common + dir.path() + "/host.bin");
  if (r.host.exit_code == 0) r.host_out = tools::read_file(dir.path() + "/host.bin");
  if (testing::qemu_unavailable_reason()) return r;
  r.qemu = testing::run_cli(common + dir.path() + "/qemu.bin --target qemu-m55");
  if (r.qemu.exit_code == 0) r.qemu_out = tools::read_file(dir.path() + "/qemu.bin");
  return r;
}

// Refused at load on both targets with `line` (after "etns: <path>: ").
void expect_refused_alike(const Program& p, Provider provider, const std::string& line) {
  testing::TempDir dir;
  const Runs r = run_both(p, provider, dir);
  EXPECT_EQ(r.host.exit_code, 1) << r.host.stderr_text;
  EXPECT_EQ(r.host.stderr_text, "etns: " + r.path + ": " + line + "\n");
  if (testing::qemu_unavailable_reason()) return;
  EXPECT_EQ(r.qemu.exit_code, 1) << r.qemu.stderr_text;
  EXPECT_EQ(r.qemu.stderr_text, r.host.stderr_text) << "the firmware refuses it with the same line";
}

// Runs on both targets, and the output bytes agree (and have `bytes` bytes).
void expect_same_bytes(const Program& p, Provider provider, size_t bytes) {
  testing::TempDir dir;
  const Runs r = run_both(p, provider, dir);
  ASSERT_EQ(r.host.exit_code, 0) << r.host.stderr_text;
  EXPECT_EQ(r.host_out.size(), bytes);
  if (testing::qemu_unavailable_reason()) return;
  ASSERT_EQ(r.qemu.exit_code, 0) << r.qemu.stderr_text;
  EXPECT_EQ(r.qemu_out, r.host_out);
}

// A one-operator int8 program: input x of `in`, output y of `out`, the call
// made by `body`; `edit` may change the program model before it is written.
Program one_op(std::vector<int32_t> in, std::vector<int32_t> out,
               const std::function<void(GraphBuilder&, int32_t x, int32_t y)>& body,
               const std::function<void(ProgramModel&)>& edit = nullptr,
               Provider provider = Provider::Arm) {
  GraphBuilder g("hostile", provider);
  const int32_t x = g.tensor("x", ScalarType::Char, in, tools::contiguous_order(in.size()),
                             GraphTensor::Role::Input);
  const int32_t y = g.tensor("y", ScalarType::Char, out, tools::contiguous_order(out.size()),
                             GraphTensor::Role::Output);
  body(g, x, y);
  tools::ConvertedProgram converted = tools::graph_to_program(g.take());
  if (edit) edit(converted.model);
  Program p;
  p.pte = tools::write_program(converted.model);
  size_t n = 1;
  for (int32_t s : in) n *= static_cast<size_t>(s);
  p.input.assign(n, 0);
  for (size_t i = 0; i < n; ++i) p.input[i] = static_cast<uint8_t>(i * 37 + 11);
  return p;
}

// The value index of the program model's tensor called... by role: the input
// and output are the model's inputs[0] and outputs[0].
tools::ModelTensor& input_tensor(ProgramModel& m) {
  return m.values.at(static_cast<size_t>(m.inputs.at(0))).tensor;
}
tools::ModelTensor& output_tensor(ProgramModel& m) {
  return m.values.at(static_cast<size_t>(m.outputs.at(0))).tensor;
}

void relu_call(GraphBuilder& g, int32_t x, int32_t y) {
  g.call(cortex_m_ns::kReluContract, {{"self", GraphArg::of_tensor(x)},
                                      {"input_zero_point", GraphArg::integer(3)},
                                      {"output_zero_point", GraphArg::integer(3)},
                                      {"output_multiplier", GraphArg::integer(1 << 30)},
                                      {"output_shift", GraphArg::integer(1)},
                                      {"activation_min", GraphArg::integer(3)},
                                      {"activation_max", GraphArg::integer(127)},
                                      {"out", GraphArg::of_tensor(y)}});
}

// ---- Class 1: sizes that wrap on the 32-bit target ------------------------

// 65537 x 0 x 65537 holds nothing, but a kernel that flattens the kept dims
// forms 65537^2, which wraps to 131073 in 32 bits: the M55 took a HardFault
// writing 4.3 GB. Every dim is bounded now, empty tensors' too.
TEST(HostileArguments, EmptyTensorsWhoseDimsWouldWrapAreRefusedAlike) {
  const Program p = one_op(
      {65537, 0, 65537}, {131073},
      [](GraphBuilder& g, int32_t x, int32_t y) {
        g.call(cortex_m_ns::kMeanContract, {{"self", GraphArg::of_tensor(x)},
                                            {"input_zero_point", GraphArg::integer(0)},
                                            {"axis_mask", GraphArg::list({0, 0, 1, 0})},
                                            {"keepdim", GraphArg::boolean(false)},
                                            {"output_zero_point", GraphArg::integer(0)},
                                            {"output_multiplier", GraphArg::integer(1 << 30)},
                                            {"output_shift", GraphArg::integer(0)},
                                            {"out", GraphArg::of_tensor(y)}});
      },
      nullptr, Provider::Ns);
  expect_refused_alike(p, Provider::Ns,
                       "value 0: tensor of more than 2 GiB (empty dims counted as 1) [InvalidProgram]");
}

// A dim after an empty one was never bounded: [1, 0, 2^31 - 1, 2^31 - 1].
TEST(HostileArguments, DimsAfterAnEmptyDimAreBounded) {
  const Program p = one_op(
      {1, 0, kHuge, kHuge}, {1, 0, kHuge, kHuge},
      [](GraphBuilder& g, int32_t x, int32_t y) {
        g.call(cortex_m::kPadContract, {{"input", GraphArg::of_tensor(x)},
                                        {"pre_pad", GraphArg::list({0, 0, 0, 0})},
                                        {"post_pad", GraphArg::list({0, 0, 0, 0})},
                                        {"pad_value", GraphArg::integer(0)},
                                        {"out", GraphArg::of_tensor(y)}});
      });
  expect_refused_alike(p, Provider::Arm,
                       "value 0: tensor of more than 2 GiB (empty dims counted as 1) [InvalidProgram]");
}

// ---- Class 2: nothing to write, nothing to do ------------------------------

// maximum broadcasting [2^21, 1024, 0] against [1024, 1]: every tensor is
// empty; the kernel would have walked 2^31 rows. It does no work.
TEST(HostileArguments, AnOperatorWithAnEmptyOutDoesNoWork) {
  const Program p = one_op(
      {2097152, 1024, 0}, {2097152, 1024, 0}, [](GraphBuilder& g, int32_t x, int32_t y) {
        const int32_t other = g.tensor("other", ScalarType::Char, {1024, 1}, {0, 1},
                                       GraphTensor::Role::Constant, std::vector<uint8_t>(1024, 5));
        g.call(cortex_m::kMaximumContract, {{"self", GraphArg::of_tensor(x)},
                                            {"other", GraphArg::of_tensor(other)},
                                            {"out", GraphArg::of_tensor(y)}});
      });
  expect_same_bytes(p, Provider::Arm, 0);
}

// ---- Class 3: constants are read-only --------------------------------------

// clone's out is a constant: at load, before anything runs.
TEST(HostileArguments, AConstantAsOutIsRefusedAlike) {
  const Program p = one_op({4, 4}, {4, 4}, [](GraphBuilder& g, int32_t x, int32_t y) {
    const int32_t table = g.tensor("table", ScalarType::Char, {4, 4}, {0, 1},
                                   GraphTensor::Role::Constant, std::vector<uint8_t>(16, 9));
    g.call(portable::kCloneContract, {{"self", GraphArg::of_tensor(x)},
                                      {"out", GraphArg::of_tensor(table)}});
    g.call(portable::kCloneContract, {{"self", GraphArg::of_tensor(table)},
                                      {"out", GraphArg::of_tensor(y)}});
  });
  expect_refused_alike(
      p, Provider::Arm,
      "c0i0 aten::clone.out: out is a constant tensor; constants are read-only [InvalidProgram]");
}

// ---- Class 4: overlapping tensors ------------------------------------------

// A convolution whose out is its own input: refused, naming both.
TEST(HostileArguments, ACallWhoseOutOverlapsAnInputIsRefusedAlike) {
  const Program p = one_op(
      {1, 4, 1, 1}, {1, 4, 1, 1},
      [](GraphBuilder& g, int32_t x, int32_t y) {
        const int32_t mid = g.s8("mid", {1, 4, 1, 1}, {0, 1, 2, 3});
        g.call(cortex_m::kConv2dContract,
               {{"input", GraphArg::of_tensor(x)},
                {"weight", GraphArg::of_tensor(g.tensor("w", ScalarType::Char, {4, 1, 1, 4},
                                                        {0, 1, 2, 3}, GraphTensor::Role::Constant,
                                                        std::vector<uint8_t>(16, 1)))},
                {"stride", GraphArg::list({1, 1})},
                {"padding", GraphArg::list({0, 0})},
                {"dilation", GraphArg::list({1, 1})},
                {"input_offset", GraphArg::integer(0)},
                {"output_offset", GraphArg::integer(0)},
                {"requantize_multipliers", GraphArg::of_tensor(g.int32_vector("m", {1 << 30, 1 << 30, 1 << 30, 1 << 30}))},
                {"requantize_shifts", GraphArg::of_tensor(g.int32_vector("s", {0, 0, 0, 0}))},
                {"activation_min", GraphArg::integer(-128)},
                {"activation_max", GraphArg::integer(127)},
                {"out", GraphArg::of_tensor(mid)}});
        relu_call(g, mid, y);
      },
      [](ProgramModel& m) {
        // mid (conv's out) moved onto x, the conv's input.
        tools::ModelTensor& in = input_tensor(m);
        for (tools::ModelValue& v : m.values) {
          if (v.kind == runtime::ValueKind::Tensor && &v.tensor != &in && v.tensor.sizes == in.sizes &&
              v.tensor.storage == tools::TensorStorage::Planned && &v.tensor != &output_tensor(m)) {
            v.tensor.offset = in.offset;
          }
        }
      });
  expect_refused_alike(p, Provider::Ns,
                       "c0i0 cortex_m::quantized_conv2d.out: out overlaps argument 0 (input); the "
                       "operator does not run in place [InvalidProgram]");
}

// minimum whose out overlaps self one byte further on: not in place, refused.
TEST(HostileArguments, AnElementwiseCallOverlappingAtAnotherOffsetIsRefusedAlike) {
  const Program p = one_op(
      {64}, {64},
      [](GraphBuilder& g, int32_t x, int32_t y) {
        const int32_t mid = g.s8("mid", {64}, {0});
        const int32_t other = g.tensor("other", ScalarType::Char, {}, {},
                                       GraphTensor::Role::Constant, {7});
        g.call(cortex_m::kMinimumContract, {{"self", GraphArg::of_tensor(x)},
                                            {"other", GraphArg::of_tensor(other)},
                                            {"out", GraphArg::of_tensor(mid)}});
        relu_call(g, mid, y);
      },
      [](ProgramModel& m) {
        tools::ModelTensor& in = input_tensor(m);
        for (tools::ModelValue& v : m.values) {
          if (v.kind == runtime::ValueKind::Tensor && &v.tensor != &in && v.tensor.sizes == in.sizes &&
              v.tensor.storage == tools::TensorStorage::Planned && &v.tensor != &output_tensor(m)) {
            v.tensor.offset = in.offset + 1;
          }
        }
      },
      Provider::Ns);
  expect_refused_alike(p, Provider::Ns,
                       "c0i0 cortex_m::minimum.out: out overlaps argument 0 (self); only its first "
                       "tensor argument may share out's memory exactly (in place) [InvalidProgram]");
}

// quantized_relu in place (out is self, same address): its contract allows
// it, and both targets give the same bytes.
TEST(HostileArguments, AnElementwiseOperatorRunsInPlaceAlike) {
  const Program p = one_op(
      {1000}, {1000},
      [](GraphBuilder& g, int32_t x, int32_t y) {
        const int32_t mid = g.s8("mid", {1000}, {0});
        relu_call(g, x, mid);
        relu_call(g, mid, y);
      },
      [](ProgramModel& m) {
        // The first relu writes over its own input.
        tools::ModelTensor& in = input_tensor(m);
        for (tools::ModelValue& v : m.values) {
          if (v.kind == runtime::ValueKind::Tensor && &v.tensor != &in && v.tensor.sizes == in.sizes &&
              v.tensor.storage == tools::TensorStorage::Planned && &v.tensor != &output_tensor(m)) {
            v.tensor.offset = in.offset;
          }
        }
      },
      Provider::Ns);
  expect_same_bytes(p, Provider::Ns, 1000);
}

// ---- Class 5: one verdict for an empty arena -------------------------------

// Every planned tensor empty: a 0-byte arena. The host refused it ("loaded
// without planned memory"), the M55 ran it; now both run it.
TEST(HostileArguments, AProgramWithAnEmptyArenaRunsAlike) {
  const Program p = one_op({0, 8}, {0, 8}, [](GraphBuilder& g, int32_t x, int32_t y) {
    relu_call(g, x, y);
  }, nullptr, Provider::Ns);
  expect_same_bytes(p, Provider::Ns, 0);
}

// The host's reference kernels need no scratch, so the host took a conv with
// 10,000 output channels that the M55's Helium variant (a bias table of 40 kB
// against the 32 KiB temporary arena) refuses. The host budgets the device's
// scratch now.
TEST(HostileArguments, TheHostAppliesTheDevicesScratchBudget) {
  constexpr int32_t kChannels = 10000;
  const Program p = one_op({1, 1, 1, 1}, {1, kChannels, 1, 1}, [](GraphBuilder& g, int32_t x, int32_t y) {
    g.call(cortex_m::kConv2dContract,
           {{"input", GraphArg::of_tensor(x)},
            {"weight", GraphArg::of_tensor(g.tensor("w", ScalarType::Char, {kChannels, 1, 1, 1},
                                                    {0, 1, 2, 3}, GraphTensor::Role::Constant,
                                                    std::vector<uint8_t>(kChannels, 3)))},
            {"stride", GraphArg::list({1, 1})},
            {"padding", GraphArg::list({0, 0})},
            {"dilation", GraphArg::list({1, 1})},
            {"input_offset", GraphArg::integer(0)},
            {"output_offset", GraphArg::integer(0)},
            {"requantize_multipliers",
             GraphArg::of_tensor(g.int32_vector("m", std::vector<int32_t>(kChannels, 1 << 30)))},
            {"requantize_shifts", GraphArg::of_tensor(g.int32_vector("s", std::vector<int32_t>(kChannels, 0)))},
            {"activation_min", GraphArg::integer(-128)},
            {"activation_max", GraphArg::integer(127)},
            {"out", GraphArg::of_tensor(y)}});
  });
  testing::TempDir dir;
  const Runs r = run_both(p, Provider::Arm, dir);
  EXPECT_EQ(r.host.exit_code, 1);
  EXPECT_NE(r.host.stderr_text.find("of kernel scratch, 32768 available [OutOfMemory]"), std::string::npos)
      << r.host.stderr_text;
  if (testing::qemu_unavailable_reason()) return;
  EXPECT_EQ(r.qemu.exit_code, 1);
  EXPECT_EQ(r.qemu.stderr_text, r.host.stderr_text) << "the firmware refuses it with the same line";
}

// ---- Class 6: an empty int list has nothing to align -----------------------

// view_copy of a one-element tensor to rank 0: its size list is empty. The
// writer's layout puts the empty item vector where it falls; the loader must
// not read its alignment.
TEST(HostileArguments, AnEmptyIntListLoads) {
  for (int copies = 0; copies < 4; ++copies) {
    SCOPED_TRACE(copies);
    // Each clone before the view adds values, moving the list's bytes.
    const Program p = one_op({1}, {}, [copies](GraphBuilder& g, int32_t x, int32_t y) {
      int32_t from = x;
      for (int k = 0; k < copies; ++k) {
        const int32_t to = g.s8("copy" + std::to_string(k), {1}, {0});
        g.call(portable::kCloneContract, {{"self", GraphArg::of_tensor(from)},
                                          {"out", GraphArg::of_tensor(to)}});
        from = to;
      }
      g.call(portable::kViewCopyContract, {{"self", GraphArg::of_tensor(from)},
                                           {"size", GraphArg::list({})},
                                           {"out", GraphArg::of_tensor(y)}});
    });
    testing::TempDir dir;
    const Runs r = run_both(p, Provider::Arm, dir);
    EXPECT_EQ(r.host.exit_code, 0) << r.host.stderr_text;
    EXPECT_EQ(r.host_out, p.input);
    if (testing::qemu_unavailable_reason()) continue;
    EXPECT_EQ(r.qemu.exit_code, 0) << r.qemu.stderr_text;
    EXPECT_EQ(r.qemu_out, p.input);
  }
}

}  // namespace
}  // namespace etns
