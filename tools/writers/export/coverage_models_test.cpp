#include "tools/writers/export/coverage_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/portable/portable.h"
#include "kernels/registry.h"
#include "tests/support/graph_reference.h"
#include "tests/support/kernel_call.h"
#include "tools/common/failure.h"
#include "tools/writers/export/tier1_models.h"

namespace etns::tools {
namespace {

using runtime::Error;
using testing::KernelCall;

constexpr Provider kProviders[] = {Provider::Arm, Provider::Ns};

std::string label(const std::string& model, Provider p) { return model + "/" + to_string(p); }

const QuantizedGraph& graph(const std::string& model, Provider p) {
  static std::map<std::string, QuantizedGraph> cache;
  const std::string key = label(model, p);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, build_coverage_graph(model, p, kTier1Seed)).first;
  return it->second;
}

std::vector<std::string> op_names(const QuantizedGraph& g) {
  std::vector<std::string> names;
  for (const GraphOp& op : g.ops) names.push_back(op.op);
  return names;
}

const GraphOp& only_op(const QuantizedGraph& g, const std::string& name) {
  const auto it = std::find_if(g.ops.begin(), g.ops.end(), [&](const GraphOp& op) { return op.op == name; });
  EXPECT_NE(it, g.ops.end()) << name;
  return *it;
}

// A logical-order tensor in the memory order of the graph tensor `t`.
std::vector<float> in_memory_order(const std::vector<float>& logical, const GraphTensor& t) {
  return t.sizes.size() == 4 ? to_memory_order(logical, t.sizes, t.dim_order) : logical;
}

TEST(CoverageModels, TheListCoversEveryTier1CaseTheEvidenceModelsLeaveOut) {
  std::vector<std::string> names;
  for (const CoverageModel& m : coverage_models()) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"relu6", "hardtanh", "clamp", "clamp_min", "leaky_relu_0p01",
                                             "leaky_relu_0p2", "sub_channel", "mean_c", "mean_last"}));
  EXPECT_EQ(coverage_model("mean_last").output_sizes, (std::vector<int32_t>{2, 12}));
}

TEST(CoverageModels, UnknownNameIsAUsageErrorListingTheModels) {
  try {
    build_coverage_graph("relu7", Provider::Ns, kTier1Seed);
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_EQ(failure.exit_code(), 2);
    EXPECT_EQ(std::string(failure.what()).rfind("unknown coverage model 'relu7', expected one of relu6, hardtanh,", 0),
              0u)
        << failure.what();
  }
}

TEST(CoverageModels, TwoBuildsAreIdentical) {
  for (const CoverageModel& m : coverage_models())
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m.name, p));
      EXPECT_TRUE(build_coverage_graph(m.name, p, kTier1Seed) == graph(m.name, p));
    }
}

TEST(CoverageModels, OperatorSequencesFollowEachLowering) {
  const std::string q = "cortex_m::quantize_per_tensor", dq = "cortex_m::dequantize_per_tensor";
  for (const CoverageModel& m : coverage_models()) {
    SCOPED_TRACE(m.name);
    EXPECT_EQ(op_names(graph(m.name, Provider::Ns)), (std::vector<std::string>{q, m.ns_operator, dq}));
    std::vector<std::string> arm;
    if (m.ns_operator == "cortex_m_ns::quantized_relu") {
      arm = {q, "aten::clamp", dq};  // stays int8 (QuantizedClampActivationPass)
    } else if (m.name == "sub_channel") {
      arm = {q, dq, dq, "aten::sub", q, dq};  // the constant is read through its own dequantize
    } else {
      arm = {q, dq, m.ns_operator == "cortex_m_ns::quantized_mean" ? "aten::mean" : "aten::leaky_relu", q, dq};
    }
    EXPECT_EQ(op_names(graph(m.name, Provider::Arm)), arm);
  }
}

TEST(CoverageModels, EveryCallPassesTheKernelsPrepare) {
  for (const CoverageModel& m : coverage_models())
    for (Provider p : kProviders) {
      const QuantizedGraph& g = graph(m.name, p);
      for (size_t k = 0; k < g.ops.size(); ++k) {
        SCOPED_TRACE(label(m.name, p) + " op " + std::to_string(k) + " " + g.ops[k].full_name());
        const runtime::KernelEntry* entry = testing::graph_registry(p).find(g.ops[k].full_name().c_str());
        ASSERT_NE(entry, nullptr);
        EXPECT_EQ(entry->argument_count(), g.ops[k].args.size());
        KernelCall call;
        testing::build_call(call, g, g.ops[k], {});
        EXPECT_EQ(call.prepare(*entry), Error::Ok) << call.log();
      }
    }
}

TEST(CoverageModels, ActivationParametersFollowTheNsLowering) {
  // relu6 on ns: the output grid spans [0, 6] exactly, so 0 is -128 and 6 is 127.
  const GraphOp& relu6 = only_op(graph("relu6", Provider::Ns), "cortex_m_ns::quantized_relu");
  using cortex_m_ns::kReluContract;
  EXPECT_EQ(relu6.arg(kReluContract, "output_zero_point").int_value, -128);
  EXPECT_EQ(relu6.arg(kReluContract, "activation_min").int_value, -128);
  EXPECT_EQ(relu6.arg(kReluContract, "activation_max").int_value, 127);
  EXPECT_NE(relu6.arg(kReluContract, "output_multiplier").int_value, int64_t{1} << 30)
      << "the output is requantised, not the identity path";
  // clamp_min has no upper bound: activation_max is qmax.
  EXPECT_EQ(only_op(graph("clamp_min", Provider::Ns), "cortex_m_ns::quantized_relu")
                .arg(kReluContract, "activation_max")
                .int_value,
            127);
  // arm: aten::clamp with Int bounds on the input grid; no upper bound is Null.
  const QuantizedGraph& arm = graph("relu6", Provider::Arm);
  const GraphOp& q = arm.ops[0];
  const GraphOp& clamp = only_op(arm, "aten::clamp");
  const Qparams qx{q.arg(cortex_m::kQuantizeContract, "scale").double_value,
                   static_cast<int32_t>(q.arg(cortex_m::kQuantizeContract, "zero_point").int_value)};
  using portable::kClampContract;
  EXPECT_EQ(clamp.arg(kClampContract, "min").kind, runtime::ValueKind::Int);
  EXPECT_EQ(clamp.arg(kClampContract, "min").int_value, quantize_value(0.0, qx));
  EXPECT_EQ(clamp.arg(kClampContract, "max").int_value, quantize_value(6.0, qx));
  EXPECT_EQ(only_op(graph("clamp_min", Provider::Arm), "aten::clamp").arg(kClampContract, "max").kind,
            runtime::ValueKind::Null);
  // leaky_relu carries the Python slope as a double on arm.
  EXPECT_EQ(only_op(graph("leaky_relu_0p01", Provider::Arm), "aten::leaky_relu")
                .arg(portable::kLeakyReluContract, "negative_slope")
                .double_value,
            0.01);
}

TEST(CoverageModels, MeanMasksAreRightAligned) {
  const GraphOp& c = only_op(graph("mean_c", Provider::Ns), "cortex_m_ns::quantized_mean");
  using cortex_m_ns::kMeanContract;
  EXPECT_EQ(c.arg(kMeanContract, "axis_mask").int_list, (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_TRUE(c.arg(kMeanContract, "keepdim").bool_value);
  const GraphOp& last = only_op(graph("mean_last", Provider::Ns), "cortex_m_ns::quantized_mean");
  EXPECT_EQ(last.arg(kMeanContract, "axis_mask").int_list, (std::vector<int64_t>{0, 0, 0, 1}));
  EXPECT_FALSE(last.arg(kMeanContract, "keepdim").bool_value);
  // (M, S) folds the 1/count in: QM(s_in / (s_out * count)).
  const QuantizedGraph& g = graph("mean_last", Provider::Ns);
  const double s_in = g.ops[0].arg(cortex_m::kQuantizeContract, "scale").double_value;
  const double s_out = g.ops[2].arg(cortex_m::kDequantizeContract, "scale").double_value;
  const Requant want = quantize_multiplier(s_in / (s_out * 40.0), "test");
  EXPECT_EQ(last.arg(kMeanContract, "output_multiplier").int_value, want.multiplier);
  EXPECT_EQ(last.arg(kMeanContract, "output_shift").int_value, want.shift);
}

TEST(CoverageModels, SubChannelBroadcastsAChannelVector) {
  const QuantizedGraph& ns = graph("sub_channel", Provider::Ns);
  const GraphOp& sub = only_op(ns, "cortex_m_ns::quantized_sub");
  const GraphTensor& self = ns.tensors[sub.arg(cortex_m_ns::kSubContract, "self").tensor];
  const GraphTensor& other = ns.tensors[sub.arg(cortex_m_ns::kSubContract, "other").tensor];
  EXPECT_EQ(self.dim_order, kChannelsLastOrder);
  EXPECT_EQ(other.sizes, (std::vector<int32_t>{1, 16, 1, 1}));
  EXPECT_EQ(other.role, GraphTensor::Role::Constant);
  const QuantizedGraph& arm = graph("sub_channel", Provider::Arm);
  EXPECT_EQ(arm.tensors[arm.input()].dim_order, contiguous_order(4)) << "portable sub broadcasts contiguous tensors";
}

// Each provider's graph, through the real kernels, stays within one input
// LSB plus one output LSB of the float model on the example input: half an
// LSB from the input's rounding (ns activations requantise onto a finer
// output grid, where that half input LSB is several output LSBs), half from
// the output's, and sub's constant and requantisation steps within the rest.
// The float model sees the input clipped to the int8 input grid's range: an
// example value past the calibrated range saturates in any int8 program.
TEST(CoverageModels, EndToEndAgainstTheFloatModel) {
  for (const CoverageModel& m : coverage_models()) {
    const std::vector<float> x = coverage_example_input(m.name, kTier1Seed);
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m.name, p));
      const QuantizedGraph& g = graph(m.name, p);
      const GraphOp& quantize = g.ops.front();
      const double scale = quantize.arg(cortex_m::kQuantizeContract, "scale").double_value;
      const double zp = static_cast<double>(quantize.arg(cortex_m::kQuantizeContract, "zero_point").int_value);
      std::vector<float> clipped = x;
      for (float& v : clipped) {
        v = static_cast<float>(std::clamp(static_cast<double>(v), (-128 - zp) * scale, (127 - zp) * scale));
      }
      const std::vector<float> want_logical = coverage_float_forward(m.name, clipped, kTier1Seed);
      const std::vector<float> got = testing::run_graph(g, in_memory_order(x, g.tensors[g.input()]));
      const std::vector<float> want = in_memory_order(want_logical, g.tensors[g.output()]);
      ASSERT_EQ(got.size(), want.size());
      const double s_in = quantize.arg(cortex_m::kQuantizeContract, "scale").double_value;
      const double s_out = g.ops.back().arg(cortex_m::kDequantizeContract, "scale").double_value;
      double worst = 0;
      for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(double(got[i]) - double(want[i])));
      EXPECT_LE(worst, s_in + s_out) << "s_in " << s_in << " s_out " << s_out;
      EXPECT_GT(worst, 0.0) << "an int8 model matching a float one exactly means the test compares nothing";
    }
  }
}

TEST(CoverageModels, ActivationsReallyClamp) {
  // The example inputs reach past every bound, so each bound is exercised.
  for (const std::string name : {"relu6", "hardtanh", "clamp", "clamp_min"}) {
    SCOPED_TRACE(name);
    const std::vector<float> x = coverage_example_input(name, kTier1Seed);
    const std::vector<float> y = coverage_float_forward(name, x, kTier1Seed);
    size_t clamped = 0;
    for (size_t i = 0; i < x.size(); ++i) clamped += x[i] != y[i] ? 1 : 0;
    EXPECT_GT(clamped, x.size() / 10);
    const float hi = *std::max_element(y.begin(), y.end());
    const float lo = *std::min_element(y.begin(), y.end());
    if (name == "relu6") {
      EXPECT_EQ(std::make_pair(lo, hi), std::make_pair(0.0f, 6.0f));
    }
    if (name == "hardtanh") {
      EXPECT_EQ(std::make_pair(lo, hi), std::make_pair(-2.0f, 3.0f));
    }
    if (name == "clamp") {
      EXPECT_EQ(std::make_pair(lo, hi), std::make_pair(-1.0f, 2.0f));
    }
    if (name == "clamp_min") {
      EXPECT_EQ(lo, -0.5f);
    }
  }
}

}  // namespace
}  // namespace etns::tools
