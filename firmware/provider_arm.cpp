#include "firmware/provider.h"
#include "kernels/registry.h"
#include "protocol/provider.h"

namespace etns::firmware {

const runtime::KernelRegistry& provider_registry() { return kernels::registry_arm(); }
const char* provider_name() { return protocol::to_string(protocol::Provider::Arm); }

}  // namespace etns::firmware
