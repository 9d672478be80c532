#include "kernels/registry.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "kernels/portable_selection.h"
#include "kernels/registry_entries.h"

namespace etns::kernels {
namespace {

// A row of the one list of operators (operators.inc).
struct Row {
  const char* name;
  const char* selection;
  const char* providers;
  bool compiled;  // a portable row this build compiled; every other row is compiled
};

const std::vector<Row>& rows() {
  static const std::vector<Row> listed = {
#define ETNS_OPERATOR(space, folder, Kernel, name, selection, providers, family) \
  {name, #selection, #providers, std::string(#providers) != "portable" || ETNS_SELECTED(selection)},
#include "kernels/operators.inc"
#undef ETNS_OPERATOR
  };
  return listed;
}

std::set<std::string> names_of(const runtime::KernelRegistry& registry) {
  std::set<std::string> names;
  for (const runtime::KernelEntry& e : registry.entries) names.insert(e.name);
  EXPECT_EQ(names.size(), registry.entries.size()) << registry.provider << ": duplicate names";
  return names;
}

// What each provider binds follows from the list's providers column alone.
TEST(Registry, EachProviderBindsExactlyItsRowsOfTheList) {
  std::set<std::string> arm, ns;
  for (const Row& row : rows()) {
    const std::string providers = row.providers;
    if (!row.compiled) continue;
    if (providers != "ns") arm.insert(row.name);
    ns.insert(row.name);
  }
  EXPECT_EQ(names_of(registry_arm()), arm);
  EXPECT_EQ(names_of(registry_ns()), ns);
}

// The facts the list must keep (the brief's two providers), checked apart
// from it: ns is arm plus the Tier-1 operators, arm holds the sixteen stock ones.
TEST(Registry, NsIsExactlyArmPlusTheTier1Operators) {
  const std::set<std::string> arm = names_of(registry_arm());
  const std::set<std::string> ns = names_of(registry_ns());
  std::set<std::string> extra;
  for (const std::string& name : ns) {
    if (arm.count(name) == 0) extra.insert(name);
  }
  EXPECT_EQ(extra, (std::set<std::string>{
                       "cortex_m_ns::quantized_hardswish.out", "cortex_m_ns::quantized_leaky_relu.out",
                       "cortex_m_ns::quantized_mean.out", "cortex_m_ns::quantized_relu.out",
                       "cortex_m_ns::quantized_sub.out"}));
  for (const std::string& name : arm) EXPECT_EQ(ns.count(name), 1u) << name;
  size_t stock = 0;
  for (const std::string& name : arm) stock += name.rfind("cortex_m::", 0) == 0 ? 1 : 0;
  EXPECT_EQ(stock, 16u);
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
  // The host build selects every portable fallback (ETNS_PORTABLE_OPS default),
  // and either spelling of _to_dim_order_copy binds both.
  for (const char* name : {"aten::clamp.out", "aten::clone.out", "aten::leaky_relu.out", "aten::mean.out",
                           "aten::permute_copy.out", "aten::sub.out", "aten::view_copy.out",
                           "dim_order_ops::_to_dim_order_copy.out", "aten::_to_dim_order_copy.out"}) {
    EXPECT_NE(registry_arm().find(name), nullptr) << name;
  }
  EXPECT_EQ(registry_arm().find("cortex_m_ns::quantized_sub.out"), nullptr);
  EXPECT_EQ(registry_arm().find("cortex_m::quantized_mul"), nullptr) << "keys are exact";
}

// The list's naming rule for selection macros: the name in capitals, each run
// of other characters one underscore (the only place the rule is spelled out).
TEST(Registry, EveryRowsSelectionMacroSpellsItsName) {
  std::set<std::string> seen;
  for (const Row& row : rows()) {
    std::string expected;
    bool in_run = false;
    for (const char* c = row.name; *c != '\0'; ++c) {
      if (std::isalnum(static_cast<unsigned char>(*c))) {
        expected += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
        in_run = false;
      } else if (!in_run) {
        expected += '_';
        in_run = true;
      }
    }
    EXPECT_EQ(std::string(row.selection), expected) << row.name;
    EXPECT_TRUE(seen.insert(row.name).second) << row.name << " is listed twice";
  }
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
