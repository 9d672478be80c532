#include "kernels/cortex_m/pad/pad.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

namespace etns::cortex_m {
namespace {

// Tail-predicated low-overhead loops (wlstp/letp), 16 bytes a pass, the last
// pass only the remaining bytes; GCC 12 does not form them from intrinsics.
// The post-increment adds 16 on the last pass too, so the end is out + n,
// not the pointer the loop leaves.

// out[0, n) = value; returns out + n.
int8_t* fill(int8_t* out, int8x16_t value, size_t n) {
  int8_t* at = out;
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vstrb.8 %q[v], [%[at]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [at] "+r"(at)
      : [n] "r"(n), [v] "w"(value)
      : "lr", "memory");
  return out + n;
}

// out[0, n) = in[0, n); returns out + n.
int8_t* copy(const int8_t* in, int8_t* out, size_t n) {
  int8_t* at = out;
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vldrb.8 q0, [%[in]], #16\n"
      "   vstrb.8 q0, [%[at]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [in] "+r"(in), [at] "+r"(at)
      : [n] "r"(n)
      : "q0", "lr", "memory");
  return out + n;
}

}  // namespace

// Same bytes as pad_s8_ref, written as runs: each stretch of padding between
// two pieces of input (the end of one pixel's channels and the start of the
// next, a padded row, a padded batch) is one fill.
void pad_s8_mve(const PadParams& p, const int8_t* input, int8_t* out) {
  const size_t in_n = static_cast<size_t>(p.input_dims[0]);
  const size_t in_h = static_cast<size_t>(p.input_dims[1]);
  const size_t in_w = static_cast<size_t>(p.input_dims[2]);
  const size_t in_c = static_cast<size_t>(p.input_dims[3]);
  const size_t out_c = static_cast<size_t>(p.pre[3]) + in_c + static_cast<size_t>(p.post[3]);
  const size_t out_row =
      (static_cast<size_t>(p.pre[2]) + in_w + static_cast<size_t>(p.post[2])) * out_c;
  const size_t out_plane =
      (static_cast<size_t>(p.pre[1]) + in_h + static_cast<size_t>(p.post[1])) * out_row;
  const int8x16_t value = vdupq_n_s8(static_cast<int8_t>(p.pad_value));
  const size_t pre_c = static_cast<size_t>(p.pre[3]);
  const size_t post_c = static_cast<size_t>(p.post[3]);

  if (in_n == 0 || in_h == 0 || in_w == 0) {
    // No input pixel: all padding.
    const size_t out_n = static_cast<size_t>(p.pre[0]) + in_n + static_cast<size_t>(p.post[0]);
    fill(out, value, out_n * out_plane);
    return;
  }
  out = fill(out, value, static_cast<size_t>(p.pre[0]) * out_plane);
  for (size_t n = 0; n < in_n; ++n) {
    out = fill(out, value, static_cast<size_t>(p.pre[1]) * out_row);
    for (size_t h = 0; h < in_h; ++h) {
      out = fill(out, value, static_cast<size_t>(p.pre[2]) * out_c + pre_c);
      if (pre_c == 0 && post_c == 0) {
        // Unpadded channels: the row's pixels are one run.
        out = copy(input, out, in_w * in_c);
        input += in_w * in_c;
      } else {
        for (size_t w = 0; w + 1 < in_w; ++w) {
          out = copy(input, out, in_c);
          input += in_c;
          out = fill(out, value, post_c + pre_c);
        }
        out = copy(input, out, in_c);
        input += in_c;
      }
      out = fill(out, value, post_c + static_cast<size_t>(p.post[2]) * out_c);
    }
    out = fill(out, value, static_cast<size_t>(p.post[1]) * out_row);
  }
  fill(out, value, static_cast<size_t>(p.post[0]) * out_plane);
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
