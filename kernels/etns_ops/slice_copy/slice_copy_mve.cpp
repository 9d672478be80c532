#include "kernels/etns_ops/slice_copy/slice_copy.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/copy_mve.h"

namespace etns::etns_ops {
namespace {

// n elements of `size` bytes, `stride` bytes apart in self, to consecutive out.
void copy_strided(const uint8_t* in, uint8_t* out, int32_t n, int32_t stride, int32_t size) {
  if (size == 1) {
    for (int32_t i = 0; i < n; ++i, in += stride) *out++ = *in;
    return;
  }
  for (int32_t i = 0; i < n; ++i, in += stride) {
    for (int32_t b = 0; b < size; ++b) *out++ = in[b];
  }
}

}  // namespace

// The same bytes as slice_copy_ref, one innermost run at a time: prepare has
// merged every dim it could, so a contiguous run is as long as the slice
// allows (a whole channel window of a channels_last pixel, whole rows).
void slice_copy_mve(const SliceCopyParams& p, const uint8_t* self, uint8_t* out) {
  const int32_t n = p.count[4];
  const int32_t size = p.element_size;
  const bool contiguous = p.stride[4] == size || n == 1;
  const size_t run_bytes = static_cast<size_t>(n) * static_cast<size_t>(size);
  for (int32_t i0 = 0; i0 < p.count[0]; ++i0) {
    const uint8_t* a0 = self + p.offset + i0 * p.stride[0];
    for (int32_t i1 = 0; i1 < p.count[1]; ++i1) {
      const uint8_t* a1 = a0 + i1 * p.stride[1];
      for (int32_t i2 = 0; i2 < p.count[2]; ++i2) {
        const uint8_t* a2 = a1 + i2 * p.stride[2];
        for (int32_t i3 = 0; i3 < p.count[3]; ++i3) {
          const uint8_t* a3 = a2 + i3 * p.stride[3];
          if (contiguous) {
            kernels::copy_bytes_mve(a3, out, run_bytes);
          } else {
            copy_strided(a3, out, n, p.stride[4], size);
          }
          out += run_bytes;
        }
      }
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
