#include "kernels/etns_ops/lstm/lstm.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/requantize.h"

namespace etns::etns_ops {
namespace {

// The gate products: four weight rows against one vector per pass, each
// vector chunk loaded once, 16 bytes per vmladava (the tail predicated).
// Each row's int32 sum is exact, so the order of additions is the
// reference's result; the requantisation is the reference's scalar one.
void gate_product_mve(const int8_t* vector, const int8_t* weights, const int32_t* bias, kernels::Requant rq,
                      int32_t depth, int32_t rows, int16_t* out) {
  const size_t stride = static_cast<size_t>(depth);
  const auto finish = [&](int32_t r, int32_t acc) {
    out[r] = static_cast<int16_t>(kernels::clamp_s32(kernels::requantize(acc, rq), INT16_MIN, INT16_MAX));
  };
  int32_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const int8_t* w0 = weights + static_cast<size_t>(r) * stride;
    const int8_t* w1 = w0 + stride;
    const int8_t* w2 = w1 + stride;
    const int8_t* w3 = w2 + stride;
    int32_t a0 = bias[r], a1 = bias[r + 1], a2 = bias[r + 2], a3 = bias[r + 3];
    int32_t k = 0;
    for (; k + 16 <= depth; k += 16) {
      const int8x16_t x = vld1q_s8(vector + k);
      a0 = vmladavaq_s8(a0, x, vld1q_s8(w0 + k));
      a1 = vmladavaq_s8(a1, x, vld1q_s8(w1 + k));
      a2 = vmladavaq_s8(a2, x, vld1q_s8(w2 + k));
      a3 = vmladavaq_s8(a3, x, vld1q_s8(w3 + k));
    }
    if (k < depth) {
      const mve_pred16_t live = vctp8q(static_cast<uint32_t>(depth - k));
      const int8x16_t x = vldrbq_z_s8(vector + k, live);
      a0 = vmladavaq_s8(a0, x, vldrbq_z_s8(w0 + k, live));
      a1 = vmladavaq_s8(a1, x, vldrbq_z_s8(w1 + k, live));
      a2 = vmladavaq_s8(a2, x, vldrbq_z_s8(w2 + k, live));
      a3 = vmladavaq_s8(a3, x, vldrbq_z_s8(w3 + k, live));
    }
    finish(r, a0);
    finish(r + 1, a1);
    finish(r + 2, a2);
    finish(r + 3, a3);
  }
  for (; r < rows; ++r) {
    const int8_t* w = weights + static_cast<size_t>(r) * stride;
    int32_t acc = bias[r];
    int32_t k = 0;
    for (; k + 16 <= depth; k += 16) acc = vmladavaq_s8(acc, vld1q_s8(vector + k), vld1q_s8(w + k));
    if (k < depth) {
      const mve_pred16_t live = vctp8q(static_cast<uint32_t>(depth - k));
      acc = vmladavaq_s8(acc, vldrbq_z_s8(vector + k, live), vldrbq_z_s8(w + k, live));
    }
    finish(r, acc);
  }
}

}  // namespace

void lstm_s8_mve(const LstmParams& p, const LstmData& d, int16_t* scratch) {
  lstm_s8_steps(p, d, scratch, &gate_product_mve);
}

}  // namespace etns::etns_ops
#endif
