#include "kernels/registry.h"

// The selection first: the entries header reads its macros.
#include "kernels/registry_arm_selection.h"

#include "kernels/registry_entries.h"

namespace etns::kernels {
namespace {

constexpr runtime::KernelEntry kArmEntries[] = {ETNS_SELECTED_KERNEL_ENTRIES};

constexpr runtime::KernelRegistry kArmRegistry{"arm", runtime::Span<const runtime::KernelEntry>(kArmEntries)};

}  // namespace

const runtime::KernelRegistry& registry_arm() {
  return kArmRegistry;
}

}  // namespace etns::kernels
