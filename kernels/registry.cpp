#include "kernels/registry.h"

namespace etns::kernels {

const runtime::KernelRegistry& registry_of(protocol::Provider provider) {
  return provider == protocol::Provider::Ns ? registry_ns() : registry_arm();
}

const runtime::KernelRegistry* find_registry(const char* provider) {
  protocol::Provider parsed;
  return protocol::parse_provider_name(provider, &parsed) ? &registry_of(parsed) : nullptr;
}

}  // namespace etns::kernels
