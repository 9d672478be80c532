#pragma once

#include "runtime/exec/kernel.h"

// The kernel provider an image is built with: provider_arm.cpp or
// provider_ns.cpp is linked, never both, so an image's symbols show which
// kernels it carries.
namespace etns::firmware {

const runtime::KernelRegistry& provider_registry();
const char* provider_name();  // "arm" or "ns"

}  // namespace etns::firmware
