#include "kernels/etns_ops/channel_lookup/channel_lookup.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {

// The same bytes as channel_lookup_s8_ref, 8 channels a pass: the input
// bytes widened to 16 bits, the channel's table start (c * 256) added, and
// the entries gathered byte by byte from `tables`; the last pass of a pixel
// predicated to its remaining channels. Offsets must fit 16 bits, so more
// than 256 channels take the reference's loop.
void channel_lookup_s8_mve(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out) {
  if (p.channels > 256) {
    channel_lookup_s8_ref(p, tables, in, out);
    return;
  }
  const uint8_t* base = reinterpret_cast<const uint8_t*>(tables);
  for (int32_t i = 0; i < p.pixels; ++i) {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(in) + static_cast<size_t>(i) * static_cast<size_t>(p.channels);
    uint8_t* y = reinterpret_cast<uint8_t*>(out) + static_cast<size_t>(i) * static_cast<size_t>(p.channels);
    for (int32_t c = 0; c < p.channels; c += 8) {
      const mve_pred16_t lanes = vctp16q(static_cast<uint32_t>(p.channels - c));
      const uint16x8_t codes = vldrbq_z_u16(x + c, lanes);
      const uint16x8_t starts = vshlq_n_u16(vidupq_n_u16(static_cast<uint32_t>(c), 1), 8);
      const uint16x8_t entries = vldrbq_gather_offset_z_u16(base, vaddq_u16(starts, codes), lanes);
      vstrbq_p_u16(y + c, entries, lanes);
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
