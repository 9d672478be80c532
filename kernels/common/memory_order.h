#pragma once

#include <cstdint>

#include "kernels/common/checks.h"

// Elementwise kernels (cortex_m_ns's, etns_ops::lookup_table) walk their
// tensors' flat buffers in step. ns-cmsis-nn's wrappers check only the sizes;
// the walk is right when the tensors hold their elements in one memory order,
// which a dim order states only up to its size-1 dims (a [1, C, 1, 1] tensor
// is the same bytes contiguous or channels_last).
namespace etns::kernels {

// a and b (equal sizes) keep their elements in the same memory order: their
// dim orders agree once size-1 dims are skipped.
inline bool same_memory_order(const runtime::Tensor& a, const runtime::Tensor& b) {
  if (a.same_dim_order(b)) return true;
  if (!a.same_sizes(b)) return false;
  uint8_t i = 0, j = 0;
  for (;;) {
    while (i < a.rank && a.size(a.dim_order[i]) == 1) ++i;
    while (j < b.rank && b.size(b.dim_order[j]) == 1) ++j;
    if (i == a.rank || j == b.rank) return i == a.rank && j == b.rank;
    if (a.dim_order[i] != b.dim_order[j]) return false;
    ++i;
    ++j;
  }
}

// Logs "self and out have different dim orders" unless same_memory_order holds.
inline runtime::Error check_same_memory_order(const runtime::PrepareContext& ctx,
                                              const runtime::Tensor& a, const char* a_name,
                                              const runtime::Tensor& b, const char* b_name) {
  if (same_memory_order(a, b)) return runtime::Error::Ok;
  return check_same_dim_order(ctx, a, a_name, b, b_name);
}

// An elementwise operator's self and out: equal sizes, one memory order.
inline runtime::Error check_unary_layout(const runtime::PrepareContext& ctx,
                                         const runtime::Tensor& self, const runtime::Tensor& out) {
  ETNS_TRY(check_same_sizes(ctx, self, "self", out, "out"));
  return check_same_memory_order(ctx, self, "self", out, "out");
}

}  // namespace etns::kernels
