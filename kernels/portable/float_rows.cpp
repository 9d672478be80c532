#include "kernels/portable/float_rows.h"

#include <cmath>

#include "kernels/portable/canonical_nan.h"

namespace etns::portable {

// ExecuTorch op_leaky_relu.cpp: the comparison and the multiply in float32.
// -0.0 >= 0 holds, so -0.0 is copied; NaN fails it and NaN * slope is NaN.
void leaky_relu_row_ref(const float* in, float* out, size_t n, float slope) {
  for (size_t i = 0; i < n; ++i) {
    const float x = in[i];
    out[i] = arithmetic_result(x >= 0.0f ? x : x * slope);
  }
}

// ExecuTorch math_util.h max_override/min_override: NaN in either operand wins
// (the value first), otherwise std::max/std::min, which keep `v` on ties, so
// -0.0 clamped at +0.0 stays -0.0.
float max_propagating_nan(float v, float bound) {
  if (std::isnan(v)) return v;
  if (std::isnan(bound)) return bound;
  return v < bound ? bound : v;
}

float min_propagating_nan(float v, float bound) {
  if (std::isnan(v)) return v;
  if (std::isnan(bound)) return bound;
  return bound < v ? bound : v;
}

// op_clamp.cpp: the min bound first, then the max bound, in float32.
void clamp_row_ref(const float* in, float* out, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = canonical_nan(min_propagating_nan(max_propagating_nan(in[i], lo), hi));
  }
}

void clamp_row_s8_ref(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi) {
  for (size_t i = 0; i < n; ++i) {
    int8_t v = in[i];
    v = v < lo ? lo : v;
    v = hi < v ? hi : v;
    out[i] = v;
  }
}

// ExecuTorch op_sub.cpp: a - alpha * b in float32; -ffp-contract=off forbids
// an FMA.
void sub_row_ref(const float* a, size_t a_step, const float* b, size_t b_step, float* out, size_t n, float alpha) {
  for (size_t i = 0; i < n; ++i) out[i] = arithmetic_result(a[i * a_step] - alpha * b[i * b_step]);
}

}  // namespace etns::portable
