#include "firmware/provider.h"
#include "kernels/registry.h"
#include "protocol/provider.h"

namespace etns::firmware {

const runtime::KernelRegistry& provider_registry() { return kernels::registry_ns(); }
const char* provider_name() { return protocol::to_string(protocol::Provider::Ns); }

}  // namespace etns::firmware
