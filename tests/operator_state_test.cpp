// An operator's state (runtime::ArgSpec::state: etns_ops::lstm_s8's hidden
// and cell state): the planner keeps it live for the whole method, so no other
// tensor shares its bytes, and the loader refuses a program whose state
// shares memory or is a method input or output, with the same line on the
// host and on the Cortex-M55 firmware under QEMU. (Two executions of one
// loaded method carrying the state: unidirectional_sequence_lstm_test.cpp.)
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/etns_ops/lstm/lstm.h"
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

constexpr int32_t kSteps = 3, kInput = 4, kState = 5;

struct Built {
  tools::ConvertedProgram converted;
  size_t hidden = 0, cell = 0;  // the state's value indices
};

// x [1, 3, 4] -> lstm_s8 (state 5) -> mid [1, 3, 5] -> quantized_relu -> y:
// mid and y are live after the LSTM's instruction, so a planner that ended
// the state's lifetime there could give them its bytes.
Built build() {
  GraphBuilder g("state", tools::Provider::Ns);
  const int32_t x = g.tensor("x", ScalarType::Char, {1, kSteps, kInput}, tools::contiguous_order(3),
                             GraphTensor::Role::Input);
  const int32_t y = g.tensor("y", ScalarType::Char, {1, kSteps, kState}, tools::contiguous_order(3),
                             GraphTensor::Role::Output);
  const int32_t mid = g.s8("mid", {1, kSteps, kState}, {0, 1, 2});
  const int32_t h = g.tensor("hidden", ScalarType::Char, {1, kState}, tools::contiguous_order(2));
  const int32_t c = g.tensor("cell", ScalarType::Short, {1, kState}, tools::contiguous_order(2));
  std::vector<uint8_t> w(4 * kState * kInput), u(4 * kState * kState);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>(i * 29 + 3);
  for (size_t i = 0; i < u.size(); ++i) u[i] = static_cast<uint8_t>(i * 13 + 7);
  const int32_t gw = g.tensor("w", ScalarType::Char, {4, kState, kInput}, tools::contiguous_order(3),
                              GraphTensor::Role::Constant, w);
  const int32_t gu = g.tensor("u", ScalarType::Char, {4, kState, kState}, tools::contiguous_order(3),
                              GraphTensor::Role::Constant, u);
  const auto biases = [&](const char* name, int32_t value) {
    std::vector<uint8_t> bytes(4 * kState * sizeof(int32_t));
    for (size_t i = 0; i < bytes.size(); i += 4) std::memcpy(&bytes[i], &value, 4);
    return g.tensor(name, ScalarType::Int, {4, kState}, tools::contiguous_order(2), GraphTensor::Role::Constant,
                    bytes);
  };
  const int32_t bw = biases("bw", 100), bu = biases("bu", -50);
  const std::vector<int64_t> m(4, 1 << 30), s(4, -3);
  g.call(etns_ops::kLstmContract, {{"input", GraphArg::of_tensor(x)},
                                   {"input_weights", GraphArg::of_tensor(gw)},
                                   {"input_bias", GraphArg::of_tensor(bw)},
                                   {"recurrent_weights", GraphArg::of_tensor(gu)},
                                   {"recurrent_bias", GraphArg::of_tensor(bu)},
                                   {"input_multipliers", GraphArg::list(m)},
                                   {"input_shifts", GraphArg::list(s)},
                                   {"recurrent_multipliers", GraphArg::list(m)},
                                   {"recurrent_shifts", GraphArg::list(s)},
                                   {"forget_cell_multiplier", GraphArg::integer(1 << 30)},
                                   {"forget_cell_shift", GraphArg::integer(-14)},
                                   {"input_cell_multiplier", GraphArg::integer(1 << 30)},
                                   {"input_cell_shift", GraphArg::integer(-18)},
                                   {"hidden_multiplier", GraphArg::integer(1 << 30)},
                                   {"hidden_shift", GraphArg::integer(-22)},
                                   {"hidden_zero_point", GraphArg::integer(-3)},
                                   {"cell_clip", GraphArg::integer(0)},
                                   {"cell_state_scale_power", GraphArg::integer(-11)},
                                   {"time_major", GraphArg::boolean(false)},
                                   {"output_state", GraphArg::of_tensor(h)},
                                   {"cell_state", GraphArg::of_tensor(c)},
                                   {"out", GraphArg::of_tensor(mid)}});
  g.call(cortex_m_ns::kReluContract, {{"self", GraphArg::of_tensor(mid)},
                                      {"input_zero_point", GraphArg::integer(-3)},
                                      {"output_zero_point", GraphArg::integer(-3)},
                                      {"output_multiplier", GraphArg::integer(1 << 30)},
                                      {"output_shift", GraphArg::integer(1)},
                                      {"activation_min", GraphArg::integer(-3)},
                                      {"activation_max", GraphArg::integer(127)},
                                      {"out", GraphArg::of_tensor(y)}});
  Built b;
  b.converted = tools::graph_to_program(g.take());
  const ProgramModel& model = b.converted.model;
  const tools::KernelCall& lstm = model.instructions.at(0);
  b.hidden = static_cast<size_t>(lstm.args.at(etns_ops::kLstmContract.arg("output_state").index));
  b.cell = static_cast<size_t>(lstm.args.at(etns_ops::kLstmContract.arg("cell_state").index));
  return b;
}

bool overlaps(const tools::ModelTensor& a, const tools::ModelTensor& b) {
  return a.offset < b.offset + b.nbytes() && b.offset < a.offset + a.nbytes();
}

TEST(OperatorState, ThePlannerGivesTheStateItsOwnBytes) {
  const Built b = build();
  const ProgramModel& model = b.converted.model;
  size_t planned = 0;
  for (size_t v = 0; v < model.values.size(); ++v) {
    const tools::ModelValue& value = model.values[v];
    if (value.kind != runtime::ValueKind::Tensor || value.tensor.storage != tools::TensorStorage::Planned) continue;
    ++planned;
    for (size_t state : {b.hidden, b.cell}) {
      if (v == state) continue;
      EXPECT_FALSE(overlaps(value.tensor, model.values[state].tensor)) << "value " << v << " meets state " << state;
    }
  }
  EXPECT_EQ(planned, 5U);  // x, mid, y and the two states
}

// `etns run` on the host and on QEMU refuses the program with `line`.
void expect_refused_alike(const ProgramModel& model, const std::string& line) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/state.pte";
  const std::vector<uint8_t> pte = tools::write_program(model);
  tools::write_file_atomic(path, pte.data(), pte.size());
  const std::vector<uint8_t> input(kSteps * kInput, 1);
  tools::write_file_atomic(dir.path() + "/in.bin", input.data(), input.size());
  const std::string common =
      "run " + path + " --provider ns --input " + dir.path() + "/in.bin --output " + dir.path() + "/out.bin";
  const testing::CliResult host = testing::run_cli(common);
  EXPECT_EQ(host.exit_code, 1) << host.stderr_text;
  EXPECT_EQ(host.stderr_text, "etns: " + path + ": " + line + "\n");
  if (testing::qemu_unavailable_reason()) return;
  const testing::CliResult qemu = testing::run_cli(common + " --target qemu-m55");
  EXPECT_EQ(qemu.exit_code, 1) << qemu.stderr_text;
  EXPECT_EQ(qemu.stderr_text, host.stderr_text) << "the firmware refuses it with the same line";
}

TEST(OperatorState, StateSharingMemoryIsRefusedAlike) {
  Built b = build();
  ProgramModel& model = b.converted.model;
  // The cell state moved onto y, the next instruction's out (which shares its
  // bytes with the input x, as a program's input and output may): the loader
  // names the first planned tensor it meets.
  const size_t y = static_cast<size_t>(model.outputs.at(0));
  model.values[b.cell].tensor.offset = model.values[y].tensor.offset;
  size_t met = model.values.size();
  for (size_t v = 0; v < model.values.size() && met == model.values.size(); ++v) {
    const tools::ModelValue& value = model.values[v];
    if (v != b.cell && value.kind == runtime::ValueKind::Tensor &&
        value.tensor.storage == tools::TensorStorage::Planned && overlaps(value.tensor, model.values[b.cell].tensor)) {
      met = v;
    }
  }
  ASSERT_LE(met, y);
  expect_refused_alike(model, "c0i0 etns_ops::lstm_s8.out: cell_state (value " + std::to_string(b.cell) +
                                  ") shares planned memory with value " + std::to_string(met) +
                                  "; the operator's state needs memory of its own for the whole method "
                                  "[InvalidProgram]");
}

TEST(OperatorState, StateThatIsAMethodOutputIsRefusedAlike) {
  Built b = build();
  ProgramModel& model = b.converted.model;
  model.outputs.push_back(static_cast<int32_t>(b.hidden));
  expect_refused_alike(model, "c0i0 etns_ops::lstm_s8.out: output_state (value " + std::to_string(b.hidden) +
                                  ") is the operator's state; it must be a planned tensor that is not a "
                                  "constant, a method input or a method output [InvalidProgram]");
}

// The program runs, and gives the same bytes on both targets (the state
// starts at the hidden zero point and 0 on each).
TEST(OperatorState, TheProgramRunsAlike) {
  const Built b = build();
  testing::TempDir dir;
  const std::string path = dir.path() + "/state.pte";
  const std::vector<uint8_t> pte = tools::write_program(b.converted.model);
  tools::write_file_atomic(path, pte.data(), pte.size());
  std::vector<uint8_t> input(kSteps * kInput);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 53 + 1);
  tools::write_file_atomic(dir.path() + "/in.bin", input.data(), input.size());
  const std::string common = "run " + path + " --provider ns --input " + dir.path() + "/in.bin --output ";
  const testing::CliResult host = testing::run_cli(common + dir.path() + "/host.bin");
  ASSERT_EQ(host.exit_code, 0) << host.stderr_text;
  const std::vector<uint8_t> host_out = tools::read_file(dir.path() + "/host.bin");
  EXPECT_EQ(host_out.size(), static_cast<size_t>(kSteps * kState));
  if (testing::qemu_unavailable_reason()) return;
  const testing::CliResult qemu = testing::run_cli(common + dir.path() + "/qemu.bin --target qemu-m55");
  ASSERT_EQ(qemu.exit_code, 0) << qemu.stderr_text;
  EXPECT_EQ(tools::read_file(dir.path() + "/qemu.bin"), host_out);
  // With a dump pass and a counted pass the firmware executes the method
  // several times; each starts from the initial state, so the output and
  // every dumped tensor are still the first execution's.
  const testing::CliResult passes = testing::run_cli(common + dir.path() + "/passes.bin --target qemu-m55 --dump-dir " +
                                                     dir.path() + "/dump --counts " + dir.path() + "/counts.json");
  ASSERT_EQ(passes.exit_code, 0) << passes.stderr_text;
  EXPECT_EQ(tools::read_file(dir.path() + "/passes.bin"), host_out);
  EXPECT_EQ(tools::read_file(dir.path() + "/dump/c0i1.bin"), host_out);
}

}  // namespace
}  // namespace etns
