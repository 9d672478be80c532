#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/registry.h"
#include "kernels/registry_arm_entries.h"

namespace etns::kernels {
namespace {

// quantized_relu also serves relu6, hardtanh and clamp through its activation bounds.
constexpr runtime::KernelEntry kNsEntries[] = {
    ETNS_ARM_KERNEL_ENTRIES
    runtime::kernel_entry(cortex_m_ns::kHardswishContract, &cortex_m_ns::hardswish_prepare,
                          &cortex_m_ns::hardswish_run),
    runtime::kernel_entry(cortex_m_ns::kLeakyReluContract, &cortex_m_ns::leaky_relu_prepare,
                          &cortex_m_ns::leaky_relu_run),
    runtime::kernel_entry(cortex_m_ns::kMeanContract, &cortex_m_ns::mean_prepare,
                          &cortex_m_ns::mean_run),
    runtime::kernel_entry(cortex_m_ns::kReluContract, &cortex_m_ns::relu_prepare,
                          &cortex_m_ns::relu_run),
    runtime::kernel_entry(cortex_m_ns::kSubContract, &cortex_m_ns::sub_prepare,
                          &cortex_m_ns::sub_run),
};

constexpr runtime::KernelRegistry kNsRegistry{"ns", runtime::Span<const runtime::KernelEntry>(kNsEntries)};

}  // namespace

const runtime::KernelRegistry& registry_ns() {
  return kNsRegistry;
}

}  // namespace etns::kernels
