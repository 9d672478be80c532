#include "kernels/registry.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

namespace etns::kernels {
namespace {

TEST(Registry, NsIsExactlyArmPlusTheTier1Operators) {
  std::set<std::string> arm, ns;
  for (const runtime::KernelEntry& e : registry_arm().entries) arm.insert(e.name);
  for (const runtime::KernelEntry& e : registry_ns().entries) ns.insert(e.name);
  EXPECT_EQ(arm.size(), registry_arm().entries.size()) << "duplicate names";
  EXPECT_EQ(ns.size(), registry_ns().entries.size()) << "duplicate names";
  std::set<std::string> extra;
  for (const std::string& name : ns) {
    if (arm.count(name) == 0) extra.insert(name);
  }
  EXPECT_EQ(extra, (std::set<std::string>{
                       "cortex_m_ns::quantized_hardswish.out", "cortex_m_ns::quantized_leaky_relu.out",
                       "cortex_m_ns::quantized_mean.out", "cortex_m_ns::quantized_relu.out",
                       "cortex_m_ns::quantized_sub.out"}));
  for (const std::string& name : arm) EXPECT_EQ(ns.count(name), 1u) << name;
}

TEST(Registry, ArmHasTheStockOperatorsAndTheSelectedFallbacks) {
  for (const char* name : {"cortex_m::quantize_per_tensor.out", "cortex_m::dequantize_per_tensor.out",
                           "cortex_m::quantized_conv2d.out",
                           "cortex_m::quantized_depthwise_conv2d.out", "cortex_m::minimum.out",
                           "cortex_m::maximum.out", "cortex_m::quantized_linear.out",
                           "cortex_m::quantized_mul.out", "cortex_m::softmax.out",
                           "cortex_m::quantized_add.out", "cortex_m::quantized_avg_pool2d.out",
                           "cortex_m::quantized_max_pool2d.out", "cortex_m::quantized_transpose_conv2d.out",
                           "cortex_m::transpose.out", "cortex_m::pad.out",
                           "cortex_m::quantized_batch_matmul.out"}) {
    EXPECT_NE(registry_arm().find(name), nullptr) << name;
  }
  // The host build selects every portable fallback (ETNS_PORTABLE_OPS default).
  for (const char* name : {"aten::clamp.out", "aten::clone.out", "aten::leaky_relu.out", "aten::mean.out",
                           "aten::permute_copy.out", "aten::sub.out", "aten::view_copy.out",
                           "dim_order_ops::_to_dim_order_copy.out"}) {
    EXPECT_NE(registry_arm().find(name), nullptr) << name;
  }
  EXPECT_EQ(registry_arm().find("cortex_m_ns::quantized_sub.out"), nullptr);
  EXPECT_EQ(registry_arm().find("cortex_m::quantized_mul"), nullptr) << "keys are exact";
}

TEST(Registry, FindsProvidersByName) {
  EXPECT_EQ(find_registry("arm"), &registry_arm());
  EXPECT_EQ(find_registry("ns"), &registry_ns());
  EXPECT_EQ(find_registry("cmsis"), nullptr);
  EXPECT_EQ(&registry_of(protocol::Provider::Arm), &registry_arm());
  EXPECT_EQ(&registry_of(protocol::Provider::Ns), &registry_ns());
  EXPECT_STREQ(registry_ns().provider, "ns");
}

}  // namespace
}  // namespace etns::kernels
