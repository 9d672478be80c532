#include "kernels/etns_ops/gather_hw/gather_hw.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/copy_mve.h"

namespace etns::etns_ops {

// The same bytes as gather_hw_s8_ref. Upsampling repeats source rows: an
// output row whose source row is the previous output row's is one copy of
// that row; any other is one copy per pixel (a byte loop for one channel).
void gather_hw_s8_mve(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                      int8_t* out) {
  const size_t c = static_cast<size_t>(p.channels);
  const size_t row_in = static_cast<size_t>(p.in_w) * c;
  const size_t row_out = static_cast<size_t>(p.out_w) * c;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = self + static_cast<size_t>(n) * static_cast<size_t>(p.in_h) * row_in;
    for (int32_t y = 0; y < p.out_h; ++y) {
      if (y > 0 && rows[y] == rows[y - 1]) {
        kernels::copy_bytes_mve(out - row_out, out, row_out);
        out += row_out;
        continue;
      }
      const int8_t* line = image + static_cast<size_t>(rows[y]) * row_in;
      if (c == 1) {
        for (int32_t x = 0; x < p.out_w; ++x) *out++ = line[cols[x]];
        continue;
      }
      for (int32_t x = 0; x < p.out_w; ++x) {
        kernels::copy_bytes_mve(line + static_cast<size_t>(cols[x]) * c, out, c);
        out += c;
      }
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
