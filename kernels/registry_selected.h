#pragma once

#include "runtime/exec/kernel.h"

namespace etns::kernels {

// A selective build's registry: exactly the operators its programs need
// (`etns kernels PROGRAM... --header`, etns_select_kernels() in CMake).
// Defined by registry_selected.cpp, which the selective build compiles with
// the generated etns_kernel_selection.h on its include path; the provider name
// is the one the programs were selected for ("arm" or "ns").
const runtime::KernelRegistry& registry_selected();

}  // namespace etns::kernels
