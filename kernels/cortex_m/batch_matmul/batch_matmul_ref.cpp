#include "kernels/cortex_m/batch_matmul/batch_matmul.h"

namespace etns::cortex_m {

using kernels::requantize;

// CMSIS-NN arm_batch_matmul_s8, every (b, m, n) as one arm_nn_vec_mat_mult_t_s8
// dot product. The sum is exact in int64 and kept modulo 2^32, which is what
// every grouping of CMSIS-NN's wrapping int32 sums gives (its Helium path adds
// the offset terms separately; the total is the same polynomial).
void batch_matmul_s8_ref(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                         int8_t* out, int32_t* /*scratch*/) {
  const size_t depth = static_cast<size_t>(p.depth);
  for (int32_t b = 0; b < p.batches; ++b) {
    for (int32_t m = 0; m < p.rows; ++m) {
      const int8_t* lhs_row = lhs + (static_cast<size_t>(b) * static_cast<size_t>(p.rows) +
                                     static_cast<size_t>(m)) * depth;
      for (int32_t n = 0; n < p.cols; ++n) {
        const int8_t* rhs_row = rhs + (static_cast<size_t>(b) * static_cast<size_t>(p.cols) +
                                       static_cast<size_t>(n)) * depth;
        int64_t sum = 0;
        for (size_t k = 0; k < depth; ++k) {
          sum += int64_t{lhs_row[k] + p.lhs_offset} * (rhs_row[k] + p.rhs_offset);
        }
        const auto acc = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
        // The zero point is added in int32, wrapping like CMSIS-NN's add.
        const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(requantize(acc, p.out)) +
                                                  static_cast<uint32_t>(p.out_offset));
        *out++ = static_cast<int8_t>(kernels::clamp_s32(shifted, -128, 127));
      }
    }
  }
}

}  // namespace etns::cortex_m
