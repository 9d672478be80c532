#include "firmware/provider.h"
#include "kernels/registry.h"

namespace etns::firmware {

const runtime::KernelRegistry& provider_registry() { return kernels::registry_arm(); }
const char* provider_name() { return "arm"; }

}  // namespace etns::firmware
