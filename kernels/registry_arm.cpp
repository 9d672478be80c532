#include "kernels/portable_selection.h"  // generated: the portable operators this build compiled
#include "kernels/registry.h"
#include "kernels/registry_entries.h"

namespace etns::kernels {
namespace {

// The stock cortex_m:: operators and the portable fallbacks this build compiled.
constexpr runtime::KernelEntry kArmEntries[] = {
#define ETNS_OPERATOR(space, folder, Kernel, name, selection, providers, family) \
  ETNS_ENTRY_IF(ETNS_IN_ARM_##providers(selection), space, folder, Kernel, name)
#include "kernels/operators.inc"
#undef ETNS_OPERATOR
};

constexpr runtime::KernelRegistry kArmRegistry{"arm", runtime::Span<const runtime::KernelEntry>(kArmEntries)};

}  // namespace

const runtime::KernelRegistry& registry_arm() {
  return kArmRegistry;
}

}  // namespace etns::kernels
