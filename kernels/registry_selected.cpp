// Compiled by a selective build, not by etns itself: `etns kernels --header`
// writes etns_kernel_selection.h (one ETNS_SELECT_* macro per operator the
// programs need, and ETNS_SELECTED_PROVIDER), and etns_select_kernels() in
// CMake puts it on this file's include path. The registry references only
// those operators' kernels, so the linker takes nothing else from the
// kernel archives.
#include "kernels/registry_selected.h"

#include "etns_kernel_selection.h"
#include "kernels/registry_entries.h"

#ifndef ETNS_SELECTED_PROVIDER
#error "etns_kernel_selection.h names no provider: regenerate it with etns kernels --header"
#endif

namespace etns::kernels {
namespace {

// Every row whose selection macro the header defines. The trailing empty row
// keeps the array valid when nothing is selected (a program of delegates
// only); the span leaves it out.
constexpr runtime::KernelEntry kSelectedEntries[] = {
#define ETNS_OPERATOR(space, folder, Kernel, name, selection, providers, family) \
  ETNS_ENTRY_IF(ETNS_SELECTED(selection), space, folder, Kernel, name)
#include "kernels/operators.inc"
#undef ETNS_OPERATOR
    runtime::KernelEntry{}};

constexpr runtime::KernelRegistry kSelectedRegistry{
    ETNS_SELECTED_PROVIDER, runtime::Span<const runtime::KernelEntry>(
                                kSelectedEntries, sizeof(kSelectedEntries) / sizeof(kSelectedEntries[0]) - 1)};

}  // namespace

const runtime::KernelRegistry& registry_selected() { return kSelectedRegistry; }

}  // namespace etns::kernels
