#pragma once

#include <string>
#include <vector>

#include "protocol/provider.h"

// A selective build: the operators one or more programs need, checked against
// a provider's kernels, written as the header registry_selected.cpp compiles
// (etns_kernel_selection.h) and as a CMake fragment. Used by `etns kernels`
// and, through it, by etns_select_kernels() (cmake/etnsSelectKernels.cmake).
namespace etns::tools {

struct ProgramOperators {
  std::string path;
  std::vector<std::string> operators;  // "cortex_m::quantized_conv2d.out", every
                                       // method's, sorted, once each
};

struct KernelSelection {
  protocol::Provider provider = protocol::Provider::Arm;
  std::vector<ProgramOperators> programs;
  std::vector<std::string> operators;  // the union, sorted
};

// The operators of the program at `path` (verified as the loader verifies it),
// over all its methods. Throws Failure with one line naming the file.
ProgramOperators program_operators(const std::string& path);

// The selection for `programs` on `provider`. Throws Failure naming the
// program and the operator when the provider has no kernel for one, and
// which provider has.
KernelSelection select_kernels(const std::vector<std::string>& programs, protocol::Provider provider);

// The selection macro of a listed operator, as kernels/operators.inc names it:
// "cortex_m::quantized_conv2d.out" -> "ETNS_SELECT_CORTEX_M_QUANTIZED_CONV2D_OUT".
// Throws Failure for an operator the list does not hold.
std::string selection_macro(const std::string& operator_name);

// etns_kernel_selection.h: one #define per operator and ETNS_SELECTED_PROVIDER.
std::string selection_header(const KernelSelection& selection);

// A CMake fragment: ETNS_SELECTED_PROVIDER, ETNS_SELECTED_OPERATORS, the
// kernel libraries to link (ETNS_SELECTED_LIBRARIES, as etns:: targets) and
// ETNS_SELECTED_PROGRAMS.
std::string selection_cmake(const KernelSelection& selection);

// What `etns kernels` prints: each program's operators and the union.
std::string render_selection(const KernelSelection& selection);
std::string selection_json(const KernelSelection& selection);

}  // namespace etns::tools
