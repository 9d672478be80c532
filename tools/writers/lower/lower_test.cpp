#include "tools/writers/lower/lower.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/portable/portable.h"
#include "tests/support/shared_data.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/writers/export/dscnn_model.h"
#include "tools/writers/export/exporter.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed at scope exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "etns-lower-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (fs::path(path_) / name).string(); }

 private:
  std::string path_;
};

std::string instruction_op(const ProgramModel& model, size_t i) {
  return model.operators.at(model.instructions.at(i).op_index).name;
}

bool has_portable_op(const ProgramModel& model) {
  for (size_t i = 0; i < model.instructions.size(); ++i) {
    if (instruction_op(model, i).rfind("aten::", 0) == 0) return true;
  }
  for (const ModelOperator& op : model.operators) {
    if (op.name.rfind("aten::", 0) == 0) return true;
  }
  return false;
}

// Lowers shared/models/tier1/<model>_arm.pte and checks the properties every
// lowering of a Tier-1 arm program must have; returns the lowered bytes.
// `arena_shrinks` false: the input program's peak is already the quantize of its
// float input (float input and int8 copy live together), which no lowering can
// remove; then the lowered arena must equal that peak, its lower bound.
void check_lowers(const std::string& shared, const std::string& model_name, size_t expected_instructions,
                  bool arena_shrinks) {
  const std::string original = shared + "/models/tier1/" + model_name + "_arm.pte";
  ProgramModel model = read_program(read_file(original), original);
  const uint64_t arena_before = static_cast<uint64_t>(model.non_const_buffer_sizes.at(1));
  const size_t instructions_before = model.instructions.size();
  const LoweringResult result = lower_to_ns(model);
  EXPECT_FALSE(has_portable_op(model));
  EXPECT_EQ(result.instructions_before, instructions_before);
  EXPECT_EQ(model.instructions.size(), expected_instructions);
  EXPECT_LT(result.instructions_after, result.instructions_before);
  EXPECT_EQ(result.arena_before_bytes, arena_before);
  if (arena_shrinks) {
    EXPECT_LT(result.arena_after_bytes, result.arena_before_bytes);
  } else {
    EXPECT_EQ(result.arena_after_bytes, result.arena_before_bytes);
    EXPECT_EQ(result.arena_after_bytes, result.arena_lower_bound_bytes);
    const ModelTensor& in = model.values.at(static_cast<size_t>(model.inputs.at(0))).tensor;
    EXPECT_EQ(result.arena_lower_bound_bytes, in.nbytes() + in.numel());  // float input + its int8 copy
  }
  EXPECT_EQ(static_cast<uint64_t>(model.non_const_buffer_sizes.at(1)), result.arena_after_bytes);
  for (const LoweringKept& kept : result.kept) ADD_FAILURE() << "kept " << kept.instruction << ": " << kept.reason;

  TempDir dir;
  const std::string lowered = dir.file("lowered.pte");
  const std::vector<uint8_t> bytes = write_program(model);
  write_file_atomic(lowered, bytes.data(), bytes.size());
  for (const char* input : {"A", "B", "C"}) {
    const std::vector<uint8_t> in =
        read_file(shared + "/golden/" + model_name + "_arm." + input + ".input.bin");
    const OutputDifference d = compare_lowered(original, lowered, in);
    EXPECT_GT(d.elements, 0u);
    EXPECT_LE(d.max_lsb, 3.0) << model_name << " input " << input;
    EXPECT_LE(d.mean_lsb, d.max_lsb);
  }

  // Idempotent: the lowered program lowers to itself, byte for byte.
  ProgramModel again = read_program(bytes, lowered);
  const LoweringResult second = lower_to_ns(again);
  EXPECT_TRUE(second.rewrites.empty());
  EXPECT_EQ(write_program(again), bytes);
}

TEST(Lower, Tier1ArmBecomesAllInt8WithinThreeLsb) {
  ETNS_REQUIRE_SHARED(shared);
  check_lowers(shared, "tier1", 8, true);
}

TEST(Lower, Tier1MeanArmBecomesAllInt8WithinThreeLsb) {
  ETNS_REQUIRE_SHARED(shared);
  check_lowers(shared, "tier1mean", 3, false);
}

// etns's own arm programs (no ../shared needed): every one lowers to all
// int8 within 3 output LSBs on its example input, except sub_channel, whose
// broadcast (contiguous) has no ns kernel and stays, with the reason, and
// dscnn, which is all int8 already.
TEST(Lower, EtnsOwnArmProgramsLowerWithoutShared) {
  const Tier1Export exported = export_tier1();
  TempDir dir;
  for (const ExportedProgram& p : exported.programs) {
    if (p.provider != Provider::Arm) continue;
    SCOPED_TRACE(p.file);
    ProgramModel model = read_program(p.bytes, p.file);
    const LoweringResult result = lower_to_ns(model);
    EXPECT_EQ(result.rewrites.empty(), p.model == "sub_channel" || p.model == kDscnnModel);
    EXPECT_LE(result.instructions_after, result.instructions_before);
    EXPECT_LE(result.arena_after_bytes, result.arena_before_bytes);
    if (p.model == kDscnnModel) {
      // All int8 already: its only portable operators move data (flatten).
      EXPECT_TRUE(result.kept.empty());
      EXPECT_EQ(write_program(model), p.bytes) << "nothing to lower leaves the program as it was";
      continue;
    }
    if (p.model == "sub_channel") {
      ASSERT_EQ(result.kept.size(), 1u);
      EXPECT_EQ(result.kept[0].instruction, "c0i3 aten::sub.out");
      EXPECT_NE(result.kept[0].reason.find("[1, C, 1, 1] channel vector"), std::string::npos) << result.kept[0].reason;
      continue;
    }
    for (const LoweringKept& kept : result.kept) ADD_FAILURE() << "kept " << kept.instruction << ": " << kept.reason;
    EXPECT_FALSE(has_portable_op(model));
    const std::string original = dir.file(p.file), lowered = dir.file("lowered_" + p.file);
    write_file_atomic(original, p.bytes.data(), p.bytes.size());
    const std::vector<uint8_t> bytes = write_program(model);
    write_file_atomic(lowered, bytes.data(), bytes.size());
    const std::string input_file = exported.manifest["models"][p.model]["providers"]["arm"]["example_input"];
    const auto input = std::find_if(exported.inputs.begin(), exported.inputs.end(),
                                    [&](const ExportedFile& f) { return f.file == input_file; });
    ASSERT_NE(input, exported.inputs.end());
    const OutputDifference d = compare_lowered(original, lowered, input->bytes);
    EXPECT_GT(d.elements, 0u);
    EXPECT_LE(d.max_lsb, 3.0);
    ProgramModel again = read_program(bytes, lowered);
    EXPECT_TRUE(lower_to_ns(again).rewrites.empty()) << "idempotent";
    EXPECT_EQ(write_program(again), bytes);
  }
}

TEST(Lower, Tier1ArmRewritesAndParameters) {
  ETNS_REQUIRE_SHARED(shared);
  ProgramModel model = read_program(read_file(shared + "/models/tier1/tier1_arm.pte"));
  const LoweringResult result = lower_to_ns(model);
  ASSERT_EQ(result.rewrites.size(), 4u);
  EXPECT_EQ(result.rewrites[0].op, "cortex_m_ns::quantized_hardswish.out");
  // The mul's (M, S), zero points -39 → -113, relu_q3 = 50 - (-39).
  EXPECT_EQ(result.rewrites[0].parameters,
            "input_zero_point=-39 output_zero_point=-113 output_multiplier=1084628855 output_shift=-6 "
            "relu_q3=89 relu_q6=178 prescale=0");
  EXPECT_EQ(result.rewrites[1].op, "cortex_m_ns::quantized_leaky_relu.out");
  EXPECT_EQ(result.rewrites[2].op, "cortex_m_ns::quantized_sub.out");
  EXPECT_EQ(result.rewrites[3].op, "cortex_m_ns::quantized_relu.out");
  EXPECT_EQ(result.rewrites[3].parameters,
            "input_zero_point=1 output_zero_point=1 output=(1073741824, 1) activation=[1, 127]");
  const std::vector<std::string> expected = {
      "cortex_m::quantize_per_tensor",    "cortex_m::quantized_conv2d",          "cortex_m_ns::quantized_hardswish",
      "cortex_m::quantized_conv2d",       "cortex_m_ns::quantized_leaky_relu",   "cortex_m_ns::quantized_sub",
      "cortex_m_ns::quantized_relu",      "cortex_m::dequantize_per_tensor"};
  ASSERT_EQ(model.instructions.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(instruction_op(model, i), expected[i]) << i;
}

TEST(Lower, Tier1MeanArmParameters) {
  ETNS_REQUIRE_SHARED(shared);
  ProgramModel model = read_program(read_file(shared + "/models/tier1/tier1mean_arm.pte"));
  const LoweringResult result = lower_to_ns(model);
  ASSERT_EQ(result.rewrites.size(), 1u);
  // operators.md §7: QM(s_in / (s_out · 1024)) = (1494462729, -4), as tier1mean_ns has it.
  EXPECT_EQ(result.rewrites[0].parameters,
            "input_zero_point=1 axis_mask=[0, 0, 1, 1] keepdim=true output_zero_point=4 "
            "output=(1494462729, -4) count=1024");
}

TEST(Lower, ChannelsLastMeanStaysAndIsReported) {
  ETNS_REQUIRE_SHARED(shared);
  const std::string path = shared + "/models/tier1/tier1mean_arm.pte";
  ProgramModel model = read_program(read_file(path));
  size_t mean = model.instructions.size();
  for (size_t i = 0; i < model.instructions.size(); ++i) {
    if (instruction_op(model, i) == "aten::mean") mean = i;
  }
  ASSERT_LT(mean, model.instructions.size());
  const size_t self = portable::kMeanContract.arg("self").index;
  ModelTensor& in = model.values.at(static_cast<size_t>(model.instructions[mean].args[self])).tensor;
  ASSERT_EQ(in.sizes.size(), 4u);
  in.dim_order = {0, 2, 3, 1};
  const ProgramModel before = model;
  const LoweringResult result = lower_to_ns(model);
  EXPECT_TRUE(result.rewrites.empty());
  EXPECT_EQ(model, before);
  ASSERT_EQ(result.kept.size(), 1u);
  EXPECT_EQ(result.kept[0].instruction, "c0i" + std::to_string(mean) + " aten::mean.out");
  EXPECT_NE(result.kept[0].reason.find("not contiguous"), std::string::npos) << result.kept[0].reason;
  const std::string report = lowering_report("in.pte", "out.pte", result, nullptr, "");
  EXPECT_NE(report.find("aten::mean.out`: input is not contiguous"), std::string::npos) << report;
}

TEST(Lower, SubWithAlphaTwoKeepsTheIslandButLowersTheRest) {
  ETNS_REQUIRE_SHARED(shared);
  ProgramModel model = read_program(read_file(shared + "/models/tier1/tier1_arm.pte"));
  size_t sub = model.instructions.size();
  for (size_t i = 0; i < model.instructions.size(); ++i) {
    if (instruction_op(model, i) == "aten::sub") sub = i;
  }
  ASSERT_LT(sub, model.instructions.size());
  model.instructions[sub].args[portable::kSubContract.arg("alpha").index] =
      model.add_value(ModelValue::integer(2));
  const LoweringResult result = lower_to_ns(model);
  // Hardswish and the int8 clamp still lower; leaky_relu feeds the float sub, so it stays too.
  ASSERT_EQ(result.rewrites.size(), 2u);
  EXPECT_EQ(result.rewrites[0].op, "cortex_m_ns::quantized_hardswish.out");
  EXPECT_EQ(result.rewrites[1].op, "cortex_m_ns::quantized_relu.out");
  ASSERT_EQ(result.kept.size(), 2u);
  EXPECT_EQ(result.kept[0].instruction, "c0i7 aten::leaky_relu.out");
  EXPECT_NE(result.kept[0].reason.find("stays float"), std::string::npos) << result.kept[0].reason;
  EXPECT_EQ(result.kept[1].instruction, "c0i8 aten::sub.out");
  EXPECT_EQ(result.kept[1].reason, "alpha is not the constant 1");
  EXPECT_EQ(model.instructions.size(), 11u);  // 12 less the minimum
  EXPECT_TRUE(has_portable_op(model));
}

// An int8 clamp after data movement (view_copy of a quantize, then a pad)
// lowers with the zero point the quantize set: movement keeps it.
TEST(Lower, AnInt8ClampTakesItsZeroPointThroughDataMovement) {
  GraphBuilder g("clamp_after_movement", Provider::Arm);
  const std::vector<uint8_t> order2 = contiguous_order(2);
  const int32_t x = g.tensor("x", runtime::ScalarType::Float, {2, 8}, order2, GraphTensor::Role::Input);
  const int32_t q = g.tensor("q", runtime::ScalarType::Char, {2, 8}, order2, GraphTensor::Role::Activation);
  const int32_t v = g.tensor("v", runtime::ScalarType::Char, {4, 4}, order2, GraphTensor::Role::Activation);
  const int32_t p = g.tensor("p", runtime::ScalarType::Char, {4, 5}, order2, GraphTensor::Role::Activation);
  const int32_t y = g.tensor("y", runtime::ScalarType::Char, {4, 5}, order2, GraphTensor::Role::Output);
  using A = GraphArg;
  g.per_tensor(cortex_m::kQuantizeContract, x, Qparams{0.05, -7}, q);
  g.call(portable::kViewCopyContract,
         {{"self", A::of_tensor(q)}, {"size", A::list({4, 4})}, {"out", A::of_tensor(v)}});
  g.call(cortex_m::kPadContract, {{"input", A::of_tensor(v)},
                                  {"pre_pad", A::list({0, 0, 0, 0})},
                                  {"post_pad", A::list({0, 0, 0, 1})},
                                  {"pad_value", A::integer(-7)},
                                  {"out", A::of_tensor(p)}});
  g.call(portable::kClampContract, {{"self", A::of_tensor(p)},
                                    {"min", A::integer(-100)},
                                    {"max", A::integer(100)},
                                    {"out", A::of_tensor(y)}});
  ProgramModel model = read_program(graph_to_pte(g.take()), "clamp_after_movement");
  const LoweringResult result = lower_to_ns(model);
  ASSERT_EQ(result.rewrites.size(), 1u);
  EXPECT_EQ(result.rewrites[0].op, "cortex_m_ns::quantized_relu.out");
  EXPECT_NE(result.rewrites[0].parameters.find("input_zero_point=-7 output_zero_point=-7"), std::string::npos)
      << result.rewrites[0].parameters;
  EXPECT_NE(result.rewrites[0].derivation.find("of the producer"), std::string::npos)
      << result.rewrites[0].derivation;
}

// Found by the lower fuzz target: a call passing fewer arguments than its
// operator takes loads unbound, and the rules read arguments by position.
TEST(Lower, ACallWithTheWrongArgumentCountIsRefusedNamingIt) {
  for (const ExportedProgram& p : export_tier1().programs) {
    if (p.file != "relu6_arm.pte") continue;
    ProgramModel model = read_program(p.bytes, p.file);
    size_t dequantize = model.instructions.size();
    for (size_t i = 0; i < model.instructions.size(); ++i) {
      if (model.operators[model.instructions[i].op_index].name == "cortex_m::dequantize_per_tensor") dequantize = i;
    }
    ASSERT_LT(dequantize, model.instructions.size());
    std::vector<int32_t>& args = model.instructions[dequantize].args;
    // Drop quant_min: 6 schema arguments instead of 7.
    args.erase(args.begin() + cortex_m::kDequantizeContract.arg("quant_min").index);
    try {
      lower_to_ns(model);
      FAIL() << "lowered a call with a missing argument";
    } catch (const Failure& failure) {
      EXPECT_EQ(std::string(failure.what()), "lower: c0i" + std::to_string(dequantize) +
                                                 " cortex_m::dequantize_per_tensor.out passes 6 arguments, the "
                                                 "operator takes 7");
    }
  }
}

}  // namespace
}  // namespace etns::tools
