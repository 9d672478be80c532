#include <cstddef>
#include <cstdint>

#include "kernels/common/requantize.h"
#include "kernels/etns_ops/squared_difference/squared_difference.h"

namespace etns::etns_ops {

// TFLite Micro's SquaredDifference element for int8 (squared_difference.cc)
// with the requantisation of MultiplyByQuantizedMultiplierSmallerThanOneExp
// (the inputs) and MultiplyByQuantizedMultiplier (the square): both are
// requantize.h's RQ. The square wraps modulo 2^32 as the M55's 32-bit
// multiply does; with TFLM's factors (input multipliers at most 2^30 at
// shift 0) it never needs to.
int8_t squared_difference_element(const SquaredDifferenceParams& p, int8_t a, int8_t b) {
  constexpr int32_t kHeadroom = int32_t{1} << kSquaredDifferenceLeftShift;
  const int32_t da = kernels::requantize((a + p.self_offset) * kHeadroom, {p.self_multiplier, p.self_shift});
  const int32_t db = kernels::requantize((b + p.other_offset) * kHeadroom, {p.other_multiplier, p.other_shift});
  const uint32_t d = static_cast<uint32_t>(da) - static_cast<uint32_t>(db);
  const int32_t square = static_cast<int32_t>(d * d);
  const int32_t y = kernels::requantize(square, {p.out_multiplier, p.out_shift}) + p.out_zero_point;
  return static_cast<int8_t>(kernels::clamp_s32(y, -128, 127));
}

// The definition: out's elements in order, each reading its self and other
// elements through the broadcast strides.
void squared_difference_s8_ref(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other,
                               int8_t* out) {
  for (int32_t i = 0; i < p.dims[0]; ++i) {
    for (int32_t j = 0; j < p.dims[1]; ++j) {
      for (int32_t k = 0; k < p.dims[2]; ++k) {
        for (int32_t l = 0; l < p.dims[3]; ++l) {
          const int64_t at_self = int64_t{i} * p.self_strides[0] + int64_t{j} * p.self_strides[1] +
                                  int64_t{k} * p.self_strides[2] + int64_t{l} * p.self_strides[3];
          const int64_t at_other = int64_t{i} * p.other_strides[0] + int64_t{j} * p.other_strides[1] +
                                   int64_t{k} * p.other_strides[2] + int64_t{l} * p.other_strides[3];
          *out++ = squared_difference_element(p, self[at_self], other[at_other]);
        }
      }
    }
  }
}

}  // namespace etns::etns_ops
