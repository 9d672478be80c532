#include "kernels/portable_selection.h"  // generated: the portable operators this build compiled
#include "kernels/registry.h"
#include "kernels/registry_entries.h"

namespace etns::kernels {
namespace {

// Exactly arm plus the cortex_m_ns:: Tier-1 operators (quantized_relu also
// serves relu6, hardtanh and clamp through its bounds).
constexpr runtime::KernelEntry kNsEntries[] = {
#define ETNS_OPERATOR(space, folder, Kernel, name, selection, providers, family) \
  ETNS_ENTRY_IF(ETNS_IN_NS_##providers(selection), space, folder, Kernel, name)
#include "kernels/operators.inc"
#undef ETNS_OPERATOR
};

constexpr runtime::KernelRegistry kNsRegistry{"ns", runtime::Span<const runtime::KernelEntry>(kNsEntries)};

}  // namespace

const runtime::KernelRegistry& registry_ns() {
  return kNsRegistry;
}

}  // namespace etns::kernels
