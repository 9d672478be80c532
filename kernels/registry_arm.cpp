#include "kernels/registry.h"
#include "kernels/registry_arm_entries.h"

namespace etns::kernels {
namespace {

constexpr runtime::KernelEntry kArmEntries[] = {ETNS_ARM_KERNEL_ENTRIES};

constexpr runtime::KernelRegistry kArmRegistry{"arm", runtime::Span<const runtime::KernelEntry>(kArmEntries)};

}  // namespace

const runtime::KernelRegistry& registry_arm() {
  return kArmRegistry;
}

}  // namespace etns::kernels
