#include "tools/writers/export/dscnn_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/support/graph_reference.h"
#include "tools/writers/export/seeded_random.h"
#include "tools/writers/export/tier1_models.h"

namespace etns::tools {
namespace {

const QuantizedGraph& graph() {
  static const QuantizedGraph g = build_dscnn_graph(Provider::Arm, kTier1Seed);
  return g;
}

size_t argmax(const std::vector<float>& v) {
  return static_cast<size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

TEST(Dscnn, IsAKeywordSpotterMadeOfCortexMOperators) {
  std::vector<std::string> names;
  for (const GraphOp& op : graph().ops) names.push_back(op.full_name());
  EXPECT_EQ(names, (std::vector<std::string>{
                       "cortex_m::quantize_per_tensor.out", "cortex_m::quantized_conv2d.out",
                       "cortex_m::quantized_depthwise_conv2d.out", "cortex_m::quantized_conv2d.out",
                       "cortex_m::quantized_avg_pool2d.out", "dim_order_ops::_to_dim_order_copy.out",
                       "aten::view_copy.out", "cortex_m::quantized_linear.out", "cortex_m::softmax.out",
                       "cortex_m::dequantize_per_tensor.out"}));
  EXPECT_EQ(graph().tensors[graph().input()].sizes, (std::vector<int32_t>{1, 1, 49, 10}));
  EXPECT_EQ(graph().tensors[graph().output()].sizes, (std::vector<int32_t>{1, 12}));
  EXPECT_EQ(build_dscnn_graph(Provider::Ns, kTier1Seed).ops, graph().ops) << "no Tier-1 operator: one program";
}

TEST(Dscnn, IsDeterministicPerSeed) {
  EXPECT_EQ(build_dscnn_graph(Provider::Arm, kTier1Seed), graph());
  EXPECT_FALSE(build_dscnn_graph(Provider::Arm, 7) == graph());
}

// The int8 program through the real kernels against the float model: on the
// example input and 15 more, every probability within 0.05 of the float
// one (the softmax output grid is 1/256) and the same top class on all but at
// most one input.
TEST(Dscnn, EndToEndAgainstTheFloatModel) {
  SeededRandom random(kTier1Seed + 9000);
  std::vector<std::vector<float>> inputs{dscnn_example_input(kTier1Seed)};
  for (int k = 0; k < 15; ++k) {
    std::vector<float> x(49 * 10);
    for (float& v : x) v = random.normal_float();
    inputs.push_back(x);
  }
  double worst = 0;
  int top_differs = 0;
  for (const std::vector<float>& x : inputs) {
    const std::vector<float> want = dscnn_float_forward(x, kTier1Seed);
    const std::vector<float> got = testing::run_graph(graph(), x);  // C = 1: NHWC is NCHW
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(double(got[i]) - double(want[i])));
    top_differs += argmax(got) != argmax(want) ? 1 : 0;
    float total = 0;
    for (float p : got) total += p;
    EXPECT_NEAR(total, 1.0, 0.05) << "softmax rows sum to one";
  }
  EXPECT_LE(worst, 0.05);
  EXPECT_GT(worst, 0.0) << "an int8 model matching a float one exactly means the test compares nothing";
  EXPECT_LE(top_differs, 1);
}

}  // namespace
}  // namespace etns::tools
