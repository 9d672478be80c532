#pragma once

#include "protocol/provider.h"
#include "runtime/exec/kernel.h"

namespace etns::kernels {

// Stock cortex_m int8 operators plus the portable fallbacks this build selected.
const runtime::KernelRegistry& registry_arm();
// registry_arm() plus the cortex_m_ns Tier-1 int8 operators.
const runtime::KernelRegistry& registry_ns();
// The registry of `provider`.
const runtime::KernelRegistry& registry_of(protocol::Provider provider);
// The registry named "arm" or "ns" (protocol/provider.h); nullptr for any other name.
const runtime::KernelRegistry* find_registry(const char* provider);

}  // namespace etns::kernels
