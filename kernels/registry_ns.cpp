#include "kernels/registry.h"

// The selection first: the entries header reads its macros.
#include "kernels/registry_ns_selection.h"

#include "kernels/registry_entries.h"

namespace etns::kernels {
namespace {

constexpr runtime::KernelEntry kNsEntries[] = {ETNS_SELECTED_KERNEL_ENTRIES};

constexpr runtime::KernelRegistry kNsRegistry{"ns", runtime::Span<const runtime::KernelEntry>(kNsEntries)};

}  // namespace

const runtime::KernelRegistry& registry_ns() {
  return kNsRegistry;
}

}  // namespace etns::kernels
