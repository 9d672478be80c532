#pragma once

// The two kernel providers, named once for firmware, tools and documents:
// `arm` (stock cortex_m:: int8 kernels and the portable float fallbacks a
// program needs) and `ns` (arm plus the cortex_m_ns:: Tier-1 int8 kernels).
// Device-safe: no library beyond <cstring>.

#include <cstdint>
#include <cstring>

namespace etns::protocol {

enum class Provider : uint8_t { Arm, Ns };

constexpr Provider kProviders[] = {Provider::Arm, Provider::Ns};

// "arm" or "ns": the name in CLI options, configs, file names and bundles.
constexpr const char* to_string(Provider provider) { return provider == Provider::Arm ? "arm" : "ns"; }

// The provider called `name`; false (and `*out` untouched) for anything else.
inline bool parse_provider_name(const char* name, Provider* out) {
  for (Provider provider : kProviders) {
    if (std::strcmp(name, to_string(provider)) == 0) {
      *out = provider;
      return true;
    }
  }
  return false;
}

}  // namespace etns::protocol
