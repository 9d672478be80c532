#include "kernels/common/byte_table.h"
#include "kernels/common/isa.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::kernels {

// One contiguous load, one 16-lane byte gather (the raw input bytes are the
// offsets) and one store per 16 elements.
void lookup_s8_mve(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
  const uint8_t* base = reinterpret_cast<const uint8_t*>(table.values);
  const uint8_t* src = reinterpret_cast<const uint8_t*>(in);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out);
  size_t blocks = n / 16;
  while (blocks-- > 0) {
    const uint8x16_t codes = vld1q_u8(src);
    vst1q_u8(dst, vldrbq_gather_offset_u8(base, codes));
    src += 16;
    dst += 16;
  }
  const uint32_t tail = static_cast<uint32_t>(n % 16);
  if (tail != 0) {
    const mve_pred16_t live = vctp8q(tail);
    const uint8x16_t codes = vldrbq_z_u8(src, live);
    vstrbq_p_u8(dst, vldrbq_gather_offset_z_u8(base, codes, live), live);
  }
}

}  // namespace etns::kernels

#endif  // ETNS_HAVE_MVE
