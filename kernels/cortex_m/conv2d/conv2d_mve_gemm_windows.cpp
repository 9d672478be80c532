// The window walk of conv2d's "mve_gemm" variant (conv2d_mve_gemm_windows.h):
// each output pixel's window read in place or gathered into staging, taps
// outside the image as the input zero point. Called once per chunk of pixels,
// never inlined (it was not before it had its own file either).
#include "kernels/cortex_m/conv2d/conv2d_mve_gemm_windows.h"

#if ETNS_HAVE_MVE

namespace etns::cortex_m::gemm {
namespace {

inline __attribute__((always_inline)) void copy_s8(int8_t* dst, const int8_t* src, int32_t n) {
  for (; n > 0; n -= 16, dst += 16, src += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(n));
    vstrbq_p_s8(dst, vldrbq_z_s8(src, live), live);
  }
}
inline __attribute__((always_inline)) void fill_s8(int8_t* dst, int8x16_t value, int32_t n) {
  for (; n > 0; n -= 16, dst += 16) vstrbq_p_s8(dst, value, vctp8q(static_cast<uint32_t>(n)));
}

// Gathers the window of the output pixel at (oy, ox) of image `image` into
// dst (K bytes, OHWI order). Taps outside the image read the input zero
// point, which contributes 0 once input_offset * sum(w) is in the bias.
// The rare path (dilated or long rows touching the padding): not inlined.
__attribute__((noinline)) void gather_window(const Conv2dParams& p, const int8_t* image, int32_t oy,
                                             int32_t ox, int8_t* dst, int8x16_t zero_point) {
  const int32_t channels = p.input_c;
  const int32_t row_bytes = p.filter_w * channels;
  const int32_t iy0 = oy * p.stride_h - p.pad_h;
  const int32_t ix0 = ox * p.stride_w - p.pad_w;
  // Columns of a filter row in the image, when the row is one run (dilation 1).
  int32_t begin = ix0 < 0 ? -ix0 : 0;
  if (begin > p.filter_w) begin = p.filter_w;
  int32_t end = p.input_w - ix0 < p.filter_w ? p.input_w - ix0 : p.filter_w;
  if (end < begin) end = begin;
  const bool whole_rows = p.dilation_w == 1 && begin == 0 && end == p.filter_w;
  for (int32_t ky = 0; ky < p.filter_h; ++ky, dst += row_bytes) {
    const int32_t iy = iy0 + ky * p.dilation_h;
    if (iy < 0 || iy >= p.input_h) {
      fill_s8(dst, zero_point, row_bytes);
      continue;
    }
    const int8_t* row = image + static_cast<ptrdiff_t>(iy) * p.input_w * channels;
    if (whole_rows) {
      copy_s8(dst, row + static_cast<ptrdiff_t>(ix0) * channels, row_bytes);
    } else if (p.dilation_w == 1) {
      fill_s8(dst, zero_point, begin * channels);
      copy_s8(dst + begin * channels, row + static_cast<ptrdiff_t>(ix0 + begin) * channels,
              (end - begin) * channels);
      fill_s8(dst + end * channels, zero_point, (p.filter_w - end) * channels);
    } else {
      for (int32_t kx = 0; kx < p.filter_w; ++kx) {
        const int32_t ix = ix0 + kx * p.dilation_w;
        int8_t* tap = dst + kx * channels;
        if (ix >= 0 && ix < p.input_w) {
          copy_s8(tap, row + static_cast<ptrdiff_t>(ix) * channels, channels);
        } else {
          fill_s8(tap, zero_point, channels);
        }
      }
    }
  }
}

}  // namespace

void window_sources(Windows& g, int32_t count, const int8_t** sources, int8x16_t zero_point) {
  // The cursor in locals: the stores below may alias g.
  int32_t batch = g.batch, oy = g.oy, ox = g.ox;
  ptrdiff_t at = g.at;
  const int8_t* const input = g.input;
  const int32_t ox_lo = g.ox_lo, ox_hi = g.ox_hi, output_w = g.output_w;
  const ptrdiff_t pixel_step = g.pixel_step, row_step = g.row_step;
  const int32_t row_bytes = g.row_bytes, filter_h = g.filter_h;
  // Bytes a row copy reads from its row's start: whole vectors.
  const ptrdiff_t row_reach = (filter_h - 1) * row_step + ((row_bytes + 15) & ~15);
  bool row_inside = oy >= g.oy_lo && oy < g.oy_hi;
  for (int32_t q = 0; q < count; ++q) {
    const bool inside = row_inside && ox >= ox_lo && ox < ox_hi;
    if (g.one_tap) {
      sources[q] = inside ? input + at : g.zeros;
    } else {
      int8_t* stage = g.staging + q * g.staging_slot;
      sources[q] = stage;
      const int8_t* src = input + (inside ? at : 0);
      if (inside && g.whole_rows && src + row_reach <= g.input_end) {
        // The common case: each filter row copied 16 bytes at a time; the
        // next row's stores overwrite the excess (the slot has 16 spare).
        int8_t* dst = stage;
        if (row_bytes <= 16) {
          for (int32_t rows = filter_h; rows > 0; --rows, src += row_step, dst += row_bytes) {
            vst1q_s8(dst, vld1q_s8(src));
          }
        } else {
          for (int32_t rows = filter_h; rows > 0; --rows, src += row_step, dst += row_bytes) {
            for (int32_t c = 0; c < row_bytes; c += 16) vst1q_s8(dst + c, vld1q_s8(src + c));
          }
        }
      } else if (g.whole_rows && row_bytes <= 16) {
        // Short rows touching the padding: per row one load predicated to
        // the in-image lanes (the others read nothing), the zero point
        // selected into the rest, one store.
        const int32_t ix0 = ox * g.stride_w - g.pad_w;
        int32_t begin = ix0 < 0 ? -ix0 : 0;
        if (begin > g.filter_w) begin = g.filter_w;
        int32_t end = g.input_w - ix0 < g.filter_w ? g.input_w - ix0 : g.filter_w;
        if (end < begin) end = begin;
        const mve_pred16_t lanes =
            static_cast<mve_pred16_t>(vctp8q(static_cast<uint32_t>(end * g.input_c)) &
                                      ~vctp8q(static_cast<uint32_t>(begin * g.input_c)));
        const int8_t* image = input + batch * g.image_bytes;
        int32_t iy = oy * g.stride_h - g.pad_h;
        ptrdiff_t row_at =
            static_cast<ptrdiff_t>(iy) * g.row_stride + static_cast<ptrdiff_t>(ix0) * g.input_c;
        int8_t* dst = stage;
        for (int32_t rows = filter_h; rows > 0;
             --rows, iy += g.dilation_h, row_at += row_step, dst += row_bytes) {
          if (iy < 0 || iy >= g.input_h) {
            vst1q_s8(dst, zero_point);
          } else {
            vst1q_s8(dst, vpselq_s8(vldrbq_z_s8(image + row_at, lanes), zero_point, lanes));
          }
        }
      } else {
        gather_window(*g.p, input + batch * g.image_bytes, oy, ox, stage, zero_point);
      }
    }
    at += pixel_step;
    if (++ox == output_w) {
      ox = 0;
      if (++oy == g.output_h) {
        oy = 0;
        ++batch;
      }
      row_inside = oy >= g.oy_lo && oy < g.oy_hi;
      at = batch * g.image_bytes + (oy * g.stride_h - g.pad_h) * g.row_stride -
           static_cast<ptrdiff_t>(g.pad_w) * g.input_c;
    }
  }
  g.batch = batch;
  g.oy = oy;
  g.ox = ox;
  g.at = at;
}

}  // namespace etns::cortex_m::gemm

#endif  // ETNS_HAVE_MVE
