#include <cstring>

#include "kernels/registry.h"

namespace etns::kernels {

const runtime::KernelRegistry* find_registry(const char* provider) {
  if (std::strcmp(provider, "arm") == 0) return &registry_arm();
  if (std::strcmp(provider, "ns") == 0) return &registry_ns();
  return nullptr;
}

}  // namespace etns::kernels
