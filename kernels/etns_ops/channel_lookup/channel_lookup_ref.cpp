#include <cstddef>
#include <cstdint>

#include "kernels/etns_ops/channel_lookup/channel_lookup.h"

namespace etns::etns_ops {

// channel_lookup's numerics (docs/numerics.md#channel_lookup): element c of
// each pixel read through table c at its raw byte; variants match it byte
// for byte.
void channel_lookup_s8_ref(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out) {
  for (int32_t i = 0; i < p.pixels; ++i) {
    for (int32_t c = 0; c < p.channels; ++c) {
      const size_t at = static_cast<size_t>(i) * static_cast<size_t>(p.channels) + static_cast<size_t>(c);
      const uint8_t code = static_cast<uint8_t>(in[at]);
      out[at] = tables[static_cast<size_t>(c) * kChannelLookupEntries + code];
    }
  }
}

}  // namespace etns::etns_ops
