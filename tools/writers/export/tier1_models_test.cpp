#include "tools/writers/export/tier1_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/registry.h"
#include "tests/support/graph_reference.h"
#include "tests/support/kernel_call.h"
#include "tools/common/failure.h"

namespace etns::tools {
namespace {

using runtime::Error;
using runtime::ScalarType;
using runtime::ValueKind;
using testing::KernelCall;

constexpr Tier1Model kModels[] = {Tier1Model::Tier1, Tier1Model::Tier1Mean};
constexpr Provider kProviders[] = {Provider::Arm, Provider::Ns};

std::string label(Tier1Model m, Provider p) { return std::string(to_string(m)) + "/" + to_string(p); }

const QuantizedGraph& graph(Tier1Model m, Provider p) { return testing::tier1_graph(m, p); }

const runtime::KernelRegistry& registry(Provider p) { return testing::graph_registry(p); }

uint32_t float_bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

using testing::build_call;
using testing::run_graph;

// The scale of the graph's last op (the dequantize producing the output).
double output_scale(const QuantizedGraph& g) {
  const GraphOp& last = g.ops.back();
  EXPECT_EQ(last.op, "cortex_m::dequantize_per_tensor");
  return last.arg(cortex_m::kDequantizeContract, "scale").double_value;
}

// The contract of a quantize or dequantize call (both have the same arguments).
const runtime::OperatorContract& per_tensor_contract(const GraphOp& op) {
  return op.op == "cortex_m::quantize_per_tensor" ? cortex_m::kQuantizeContract : cortex_m::kDequantizeContract;
}

// ---------------------------------------------------------------------------

TEST(Tier1Models, TwoBuildsAreIdentical) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      EXPECT_TRUE(build_quantized_graph(m, p) == graph(m, p));
    }
  EXPECT_EQ(tier1_weights().conv1, tier1_weights().conv1);
  EXPECT_EQ(example_input(), example_input());
}

TEST(Tier1Models, PinnedWeightsAndInputs) {
  const Tier1Weights w = tier1_weights();
  ASSERT_EQ(w.conv1.size(), 2304u);
  ASSERT_EQ(w.conv2.size(), 2304u);
  EXPECT_EQ(float_bits(w.conv1[0]), 1024058372u) << w.conv1[0];
  EXPECT_EQ(float_bits(w.conv1[2303]), 3182275766u) << w.conv1[2303];
  EXPECT_EQ(float_bits(w.conv2[0]), 3179333963u) << w.conv2[0];
  EXPECT_EQ(w.bias1, std::vector<float>(16, 0.0f));
  EXPECT_EQ(w.bias2, std::vector<float>(16, 0.0f));
  const std::vector<float> x = example_input();
  ASSERT_EQ(x.size(), kSampleSize);
  EXPECT_EQ(float_bits(x[0]), 3219306180u) << x[0];
  EXPECT_EQ(float_bits(x[16383]), 1053015791u) << x[16383];
  const std::vector<std::vector<float>> cal = calibration_samples();
  ASSERT_EQ(cal.size(), 16u);
  EXPECT_EQ(float_bits(cal[15][16383]), 1065889766u) << cal[15][16383];
}

TEST(Tier1Models, PinnedQuantisation) {
  // First quantize's (scale bits, zp), conv1's first multiplier and shift and
  // first weight bytes, per model and provider.
  const QuantizedGraph& arm = graph(Tier1Model::Tier1, Provider::Arm);
  const QuantizedGraph& ns = graph(Tier1Model::Tier1, Provider::Ns);
  using cortex_m::kConv2dContract;
  using cortex_m::kDequantizeContract;
  using cortex_m::kQuantizeContract;
  EXPECT_EQ(float_bits(static_cast<float>(arm.ops[0].arg(kQuantizeContract, "scale").double_value)), 0x3d112288u);
  EXPECT_EQ(arm.ops[0].arg(kQuantizeContract, "zero_point").int_value, 1);
  const GraphTensor& w = arm.tensors.at(arm.ops[1].arg(kConv2dContract, "weight").tensor);
  EXPECT_EQ(std::vector<uint8_t>(w.data.begin(), w.data.begin() + 8), (std::vector<uint8_t>{12, 216, 0, 31, 9, 23, 32, 253}));
  EXPECT_EQ(ns.tensors.at(ns.ops[1].arg(kConv2dContract, "weight").tensor).data, w.data);
  // Calibration-dependent facts: arm's conv1 output zero point (range folded
  // at -3) and the hardswish mul factor; ns's hardswish and sub parameters;
  // both output quantisations; tier1mean's mean factor.
  EXPECT_EQ(arm.ops[1].arg(kConv2dContract, "output_offset").int_value, -46);
  EXPECT_EQ(arm.ops[3].arg(cortex_m::kMulContract, "output_multiplier").int_value, 1167819633);
  EXPECT_EQ(arm.ops[3].arg(cortex_m::kMulContract, "output_shift").int_value, -6);
  EXPECT_EQ(float_bits(static_cast<float>(arm.ops[11].arg(kDequantizeContract, "scale").double_value)), 0x3d4d2701u);
  const GraphOp& hs = ns.ops[2];
  using cortex_m_ns::kHardswishContract;
  EXPECT_EQ(hs.arg(kHardswishContract, "output_multiplier").int_value, 1081552626);
  EXPECT_EQ(hs.arg(kHardswishContract, "output_shift").int_value, -5);
  EXPECT_EQ(hs.arg(kHardswishContract, "relu_q3").int_value, 60);
  EXPECT_EQ(hs.arg(kHardswishContract, "relu_q6").int_value, 120);
  EXPECT_EQ(ns.ops[5].arg(cortex_m_ns::kSubContract, "output_multiplier").int_value, 1135178762);
  EXPECT_EQ(ns.ops[5].arg(cortex_m_ns::kSubContract, "output_shift").int_value, -19);
  EXPECT_EQ(float_bits(static_cast<float>(ns.ops[7].arg(kDequantizeContract, "scale").double_value)), 0x3ccb7decu);
  EXPECT_EQ(ns.ops[7].arg(kDequantizeContract, "zero_point").int_value, -128);
  const GraphOp& mean = graph(Tier1Model::Tier1Mean, Provider::Ns).ops[1];
  EXPECT_EQ(mean.arg(cortex_m_ns::kMeanContract, "output_multiplier").int_value, 1564978992);
  EXPECT_EQ(mean.arg(cortex_m_ns::kMeanContract, "output_shift").int_value, -4);
}

TEST(Tier1Models, InstructionSequencesMatchUpstream) {
  // profiler.md §12.6.
  const std::map<std::string, std::vector<std::string>> want = {
      {"tier1/arm",
       {"cortex_m::quantize_per_tensor.out", "cortex_m::quantized_conv2d.out", "cortex_m::minimum.out",
        "cortex_m::quantized_mul.out", "cortex_m::dequantize_per_tensor.out",
        "cortex_m::quantized_conv2d.out", "cortex_m::dequantize_per_tensor.out", "aten::leaky_relu.out",
        "aten::sub.out", "cortex_m::quantize_per_tensor.out", "aten::clamp.out",
        "cortex_m::dequantize_per_tensor.out"}},
      {"tier1/ns",
       {"cortex_m::quantize_per_tensor.out", "cortex_m::quantized_conv2d.out",
        "cortex_m_ns::quantized_hardswish.out", "cortex_m::quantized_conv2d.out",
        "cortex_m_ns::quantized_leaky_relu.out", "cortex_m_ns::quantized_sub.out",
        "cortex_m_ns::quantized_relu.out", "cortex_m::dequantize_per_tensor.out"}},
      {"tier1mean/arm",
       {"cortex_m::quantize_per_tensor.out", "cortex_m::dequantize_per_tensor.out", "aten::mean.out",
        "cortex_m::quantize_per_tensor.out", "cortex_m::dequantize_per_tensor.out"}},
      {"tier1mean/ns",
       {"cortex_m::quantize_per_tensor.out", "cortex_m_ns::quantized_mean.out",
        "cortex_m::dequantize_per_tensor.out"}},
  };
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      std::vector<std::string> got;
      for (const GraphOp& op : graph(m, p).ops) got.push_back(op.full_name());
      EXPECT_EQ(got, want.at(label(m, p))) << label(m, p);
    }
}

TEST(Tier1Models, GraphIsWellFormed) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      const QuantizedGraph& g = graph(m, p);
      ASSERT_GE(g.input(), 0);
      ASSERT_GE(g.output(), 0);
      EXPECT_EQ(g.tensors[g.input()].role, GraphTensor::Role::Input);
      EXPECT_EQ(g.tensors[g.output()].role, GraphTensor::Role::Output);
      EXPECT_EQ(g.tensors[g.input()].dtype, ScalarType::Float);
      EXPECT_EQ(g.tensors[g.output()].dtype, ScalarType::Float);
      const std::vector<int32_t> in_sizes{1, 16, 32, 32};
      EXPECT_EQ(g.tensors[g.input()].sizes, in_sizes);
      const std::vector<int32_t> out_sizes =
          m == Tier1Model::Tier1 ? in_sizes : std::vector<int32_t>{1, 16, 1, 1};
      EXPECT_EQ(g.tensors[g.output()].sizes, out_sizes);
      // Every non-constant tensor but the input is written exactly once, before it is read.
      std::vector<int> written(g.tensors.size(), 0);
      written[g.input()] = 1;
      for (const GraphOp& op : g.ops) {
        for (size_t i = 0; i + 1 < op.args.size(); ++i) {
          if (op.args[i].kind != ValueKind::Tensor) continue;
          const GraphTensor& t = g.tensors.at(op.args[i].tensor);
          if (t.role != GraphTensor::Role::Constant) {
            EXPECT_EQ(written[op.args[i].tensor], 1) << t.name;
          } else {
            EXPECT_EQ(t.data.size(), t.nbytes()) << t.name;
          }
        }
        ASSERT_EQ(op.args.back().kind, ValueKind::Tensor);
        EXPECT_EQ(g.tensors.at(op.out_tensor()).role == GraphTensor::Role::Constant, false);
        EXPECT_EQ(written[op.out_tensor()]++, 0) << g.tensors[op.out_tensor()].name;
        if (p == Provider::Arm) {
          EXPECT_EQ(op.op.rfind("cortex_m_ns::", 0), std::string::npos);
        }
      }
      for (size_t t = 0; t < g.tensors.size(); ++t) {
        if (g.tensors[t].role != GraphTensor::Role::Constant) {
          EXPECT_EQ(written[t], 1) << g.tensors[t].name;
        }
        // tier1 keeps every 4-D activation channels_last, tier1mean contiguous.
        if (g.tensors[t].sizes.size() == 4 && g.tensors[t].role != GraphTensor::Role::Constant) {
          const std::vector<uint8_t> order = m == Tier1Model::Tier1 ? std::vector<uint8_t>{0, 2, 3, 1}
                                                                     : std::vector<uint8_t>{0, 1, 2, 3};
          EXPECT_EQ(g.tensors[t].dim_order, order) << g.tensors[t].name;
        }
      }
    }
}

TEST(Tier1Models, QuantisationParametersAreWellFormed) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      for (const GraphOp& op : graph(m, p).ops) {
        if (op.op == "cortex_m::quantize_per_tensor" || op.op == "cortex_m::dequantize_per_tensor") {
          const double s = op.arg(per_tensor_contract(op), "scale").double_value;
          EXPECT_EQ(static_cast<double>(static_cast<float>(s)), s) << "scale is a float32 value";
          EXPECT_GT(s, 0.0);
          const int64_t zero_point = op.arg(per_tensor_contract(op), "zero_point").int_value;
          EXPECT_GE(zero_point, -128);
          EXPECT_LE(zero_point, 127);
        }
        if (op.op == "cortex_m::quantized_conv2d") {
          const QuantizedGraph& g = graph(m, p);
          const GraphTensor& mult = g.tensors.at(op.arg(cortex_m::kConv2dContract, "requantize_multipliers").tensor);
          const GraphTensor& shift = g.tensors.at(op.arg(cortex_m::kConv2dContract, "requantize_shifts").tensor);
          for (size_t c = 0; c < 16; ++c) {
            int32_t mv, sv;
            std::memcpy(&mv, mult.data.data() + 4 * c, 4);
            std::memcpy(&sv, shift.data.data() + 4 * c, 4);
            EXPECT_GE(mv, 1 << 30);  // QM's normalised multipliers
            EXPECT_GE(sv, -31);
            EXPECT_LE(sv, 30);
          }
          // Symmetric per-channel weights use the full range: each channel reaches +-127 or -128.
          const GraphTensor& w = g.tensors.at(op.arg(cortex_m::kConv2dContract, "weight").tensor);
          for (size_t oc = 0; oc < 16; ++oc) {
            int peak = 0;
            for (size_t i = 0; i < 144; ++i) peak = std::max(peak, std::abs(int(int8_t(w.data[oc * 144 + i]))));
            EXPECT_GE(peak, 127) << "channel " << oc;
          }
        }
      }
    }
}

TEST(Tier1Models, ArmHardswishDecomposition) {
  // operators.md §2.4/§2.5: the constant is q(3) on conv1's output grid, the
  // lower clamp at -3 is folded into conv1's range, so `other` has zero point
  // -128 and code -128 of conv1's output is about -3.
  const QuantizedGraph& g = graph(Tier1Model::Tier1, Provider::Arm);
  const GraphOp& conv1 = g.ops[1];
  const GraphOp& mul = g.ops[3];
  using cortex_m::kMulContract;
  const int64_t zp1 = conv1.arg(cortex_m::kConv2dContract, "output_offset").int_value;
  EXPECT_EQ(mul.arg(kMulContract, "self_zero_point").int_value, zp1);
  const int64_t other_zp = mul.arg(kMulContract, "other_zero_point").int_value;
  EXPECT_EQ(other_zp, -128);
  const GraphTensor& three = g.tensors.at(g.ops[2].arg(cortex_m::kMinimumContract, "other").tensor);
  ASSERT_TRUE(three.sizes.empty());
  ASSERT_EQ(three.data.size(), 1u);
  const int64_t q3 = int8_t(three.data[0]);
  EXPECT_EQ(q3 - zp1, zp1 - other_zp);  // both round(3 / s1)
  // Recover s1 from the mul factor s1^2 / (6 s_a) and the hardswish scale.
  const double factor = static_cast<double>(mul.arg(kMulContract, "output_multiplier").int_value) *
                        std::ldexp(1.0, int(mul.arg(kMulContract, "output_shift").int_value) - 31);
  const double s_a = g.ops[4].arg(cortex_m::kDequantizeContract, "scale").double_value;
  const double s1 = std::sqrt(factor * 6.0 * s_a);
  EXPECT_NEAR(s1 * static_cast<double>(-128 - zp1), -3.0, s1);
}

TEST(Tier1Models, EveryCallPassesTheKernelsPrepare) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      const QuantizedGraph& g = graph(m, p);
      for (size_t k = 0; k < g.ops.size(); ++k) {
        SCOPED_TRACE(label(m, p) + " op " + std::to_string(k) + " " + g.ops[k].full_name());
        const runtime::KernelEntry* entry = registry(p).find(g.ops[k].full_name().c_str());
        ASSERT_NE(entry, nullptr);
        EXPECT_EQ(entry->argument_count(), g.ops[k].args.size());
        KernelCall call;
        build_call(call, g, g.ops[k], {});
        EXPECT_EQ(call.prepare(*entry), Error::Ok) << call.log();
        EXPECT_EQ(call.log(), "");
      }
    }
}

// Largest |a - b| / lsb over all elements.
double max_lsb(const std::vector<float>& a, const std::vector<float>& b, double lsb) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::fabs(double(a[i]) - double(b[i])) / lsb);
  return worst;
}

// Mean of |a - b| / lsb.
double mean_lsb(const std::vector<float>& a, const std::vector<float>& b, double lsb) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) sum += std::fabs(double(a[i]) - double(b[i])) / lsb;
  return sum / static_cast<double>(a.size());
}

TEST(Tier1Models, EndToEndAgainstTheFloatModel) {
  const Tier1Weights w = tier1_weights();
  const std::vector<float> x = example_input();
  for (Tier1Model m : kModels) {
    const QuantizedGraph& arm = graph(m, Provider::Arm);
    const QuantizedGraph& ns = graph(m, Provider::Ns);
    const GraphTensor& in = arm.tensors[arm.input()];
    const GraphTensor& out = arm.tensors[arm.output()];
    const std::vector<float> input = to_memory_order(x, in.sizes, in.dim_order);
    const std::vector<float> want = to_memory_order(float_forward(m, w, x), out.sizes, out.dim_order);
    const std::vector<float> got_arm = run_graph(arm, input);
    const std::vector<float> got_ns = run_graph(ns, input);
    ASSERT_EQ(got_arm.size(), want.size());
    ASSERT_EQ(got_ns.size(), want.size());
    const double lsb_arm = output_scale(arm), lsb_ns = output_scale(ns);
    const double lsb_both = std::max(lsb_arm, lsb_ns);
    const double arm_err = max_lsb(got_arm, want, lsb_arm);
    const double ns_err = max_lsb(got_ns, want, lsb_ns);
    const double arm_ns = max_lsb(got_arm, got_ns, lsb_both);
    std::printf("%s: max |arm - float| = %.3f LSB (mean %.3f, lsb %.6g); max |ns - float| = %.3f LSB "
                "(mean %.3f, lsb %.6g); max |arm - ns| = %.3f LSB of %.6g\n",
                to_string(m), arm_err, mean_lsb(got_arm, want, lsb_arm), lsb_arm, ns_err,
                mean_lsb(got_ns, want, lsb_ns), lsb_ns, arm_ns, lsb_both);
    SCOPED_TRACE(to_string(m));
    // Measured (x86-64 host): tier1 arm 2.37, ns 5.86 (its output LSB is half
    // of arm's: relu has its own range), arm vs ns 3.06; tier1mean 1.06 both,
    // arm and ns identical.
    if (m == Tier1Model::Tier1) {
      EXPECT_LE(arm_err, 3.0);
      EXPECT_LE(ns_err, 6.0);
      EXPECT_LE(arm_ns, 3.5);
    } else {
      EXPECT_LE(arm_err, 1.5);
      EXPECT_LE(ns_err, 1.5);
      EXPECT_LE(arm_ns, 1.0);
    }
    // Most elements are within one LSB.
    EXPECT_LE(mean_lsb(got_arm, want, lsb_arm), 0.6);
    EXPECT_LE(mean_lsb(got_ns, want, lsb_ns), 0.6);
  }
}

TEST(Tier1Models, ObserverFollowsTorch) {
  // Range widened to hold 0; zero point from the float32 division, ties to even.
  const Qparams a = observe_min_max(0.5f, 2.0f);
  EXPECT_EQ(a.scale, double(2.0f / 255.0f));
  EXPECT_EQ(a.zero_point, -128);
  const Qparams b = observe_min_max(-1.0f, 1.0f);
  EXPECT_EQ(b.scale, double(2.0f / 255.0f));
  // float32 2/255 lies above 2/255, so -1 / scale = -127.49999 rounds to -127.
  EXPECT_EQ(b.zero_point, -1);
  // A tie: scale exactly 1, lo / scale = -2.5 rounds half to even (-2), not away (-3).
  const Qparams tie = observe_min_max(-2.5f, 252.5f);
  EXPECT_EQ(tie.scale, 1.0);
  EXPECT_EQ(tie.zero_point, -126);
  const Qparams c = observe_min_max(-3.0f, 0.0f);
  EXPECT_EQ(c.zero_point, 127);
  const Qparams d = observe_min_max(0.0f, 0.0f);
  EXPECT_EQ(d.scale, double(1.1920928955078125e-07f));
  EXPECT_EQ(d.zero_point, -128);
}

TEST(Tier1Models, ParsesNames) {
  EXPECT_EQ(parse_model("tier1mean"), Tier1Model::Tier1Mean);
  EXPECT_EQ(parse_provider("ns"), Provider::Ns);
  EXPECT_THROW(parse_model("tier2"), Failure);
  EXPECT_THROW(parse_provider("ARM"), Failure);
}

TEST(Tier1Models, ToMemoryOrderChannelsLast) {
  std::vector<float> nchw(2 * 3 * 2);
  for (size_t i = 0; i < nchw.size(); ++i) nchw[i] = float(i);
  // [1, 3, 2, 2]: NHWC memory walks c fastest.
  const std::vector<float> nhwc = to_memory_order(nchw, {1, 3, 2, 2}, {0, 2, 3, 1});
  EXPECT_EQ(nhwc, (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(to_memory_order(nchw, {1, 3, 2, 2}, {0, 1, 2, 3}), nchw);
}

}  // namespace
}  // namespace etns::tools
