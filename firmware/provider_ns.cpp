#include "firmware/provider.h"
#include "kernels/registry.h"

namespace etns::firmware {

const runtime::KernelRegistry& provider_registry() { return kernels::registry_ns(); }
const char* provider_name() { return "ns"; }

}  // namespace etns::firmware
