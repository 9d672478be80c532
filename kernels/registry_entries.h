#pragma once

// The registries' rows, made from the one list of operators (operators.inc).
// A registry source defines ETNS_OPERATOR(space, folder, Kernel, name,
// selection, providers, family) as ETNS_ENTRY_IF(<whether it takes the row>,
// space, folder, Kernel, name), includes the list inside its array of
// entries, and undefines it (registry_arm.cpp).
//
// A row left out leaves no reference to its kernel, so the linker takes
// nothing of it from the kernel archives. A selected row is one whose
// ETNS_SELECT_<selection> macro is defined as 1: by the portable build
// (ETNS_PORTABLE_OPS, the generated portable_selection.h) or by a selective
// build (`etns kernels --header`, registry_selected.cpp).
#include "kernels/operator_headers.h"  // generated from operators.inc: every folder's header
#include "runtime/exec/kernel.h"

#define ETNS_PP_CAT(a, b) ETNS_PP_CAT_I(a, b)
#define ETNS_PP_CAT_I(a, b) a##b
// ETNS_PP_IS_SET(MACRO) is 1 where MACRO is defined as 1 and 0 otherwise:
// "1" pastes into ETNS_PP_PROBE_1, whose comma moves the 1 into the second
// argument; any other spelling leaves the 0 there.
#define ETNS_PP_PROBE_1 ~, 1
#define ETNS_PP_SECOND(...) ETNS_PP_SECOND_I(__VA_ARGS__, ~)
#define ETNS_PP_SECOND_I(first, second, ...) second
#define ETNS_PP_IS_SET(macro) ETNS_PP_SECOND(ETNS_PP_CAT(ETNS_PP_PROBE_, macro), 0)
#define ETNS_SELECTED(selection) ETNS_PP_IS_SET(ETNS_SELECT_##selection)

// Which rows each provider binds, by the row's providers column.
#define ETNS_IN_ARM_arm(selection) 1
#define ETNS_IN_ARM_ns(selection) 0
#define ETNS_IN_ARM_portable(selection) ETNS_SELECTED(selection)
#define ETNS_IN_NS_arm(selection) 1
#define ETNS_IN_NS_ns(selection) 1
#define ETNS_IN_NS_portable(selection) ETNS_SELECTED(selection)

// The row itself, under the list's name (which may be another namespace's
// spelling of the contract's operator: registry.cpp checks each).
#define ETNS_KERNEL_ENTRY(space, folder, Kernel, name)                                                   \
  ::etns::runtime::KernelEntry {                                                                         \
    name, &::etns::space::k##Kernel##Contract, &::etns::space::folder##_prepare, &::etns::space::folder##_run \
  }
#define ETNS_ENTRY_IF_0(...)
#define ETNS_ENTRY_IF_1(...) ETNS_KERNEL_ENTRY(__VA_ARGS__),
#define ETNS_ENTRY_IF(taken, ...) ETNS_PP_CAT(ETNS_ENTRY_IF_, taken)(__VA_ARGS__)
