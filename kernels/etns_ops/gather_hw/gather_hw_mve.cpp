#include "kernels/etns_ops/gather_hw/gather_hw.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::etns_ops {
namespace {

// out[0, n) = in[0, n) as a tail-predicated low-overhead loop (wlstp/letp),
// 16 bytes a pass and the last pass only the remaining ones (GCC 12 does not
// form these loops from intrinsics).
void copy_run(const int8_t* in, int8_t* out, size_t n) {
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vldrb.8 q0, [%[in]], #16\n"
      "   vstrb.8 q0, [%[out]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [in] "+r"(in), [out] "+r"(out)
      : [n] "r"(n)
      : "q0", "lr", "memory");
}

}  // namespace

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
        copy_run(out - row_out, out, row_out);
        out += row_out;
        continue;
      }
      const int8_t* line = image + static_cast<size_t>(rows[y]) * row_in;
      if (c == 1) {
        for (int32_t x = 0; x < p.out_w; ++x) *out++ = line[cols[x]];
        continue;
      }
      for (int32_t x = 0; x < p.out_w; ++x) {
        copy_run(line + static_cast<size_t>(cols[x]) * c, out, c);
        out += c;
      }
    }
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
