#include "kernels/common/strided_copy.h"

#include <cstring>

namespace etns::kernels {

void logical_strides(const runtime::Tensor& t, int64_t* strides) {
  int64_t stride = 1;
  for (size_t k = t.rank; k-- > 0;) {
    const uint8_t dim = t.dim_order[k];
    strides[dim] = stride;
    stride *= t.sizes[dim];
  }
}

void plan_strided_copy(const runtime::Tensor& self, const runtime::Tensor& out, const uint8_t* source_dim,
                       StridedCopyPlan& plan) {
  int64_t self_strides[runtime::kMaxTensorRank] = {};
  logical_strides(self, self_strides);
  plan = StridedCopyPlan{};
  plan.element_bytes = static_cast<uint32_t>(runtime::element_size(out.dtype));
  // Out's dims in its memory order, outermost first; size-1 dims walk nowhere.
  for (size_t k = 0; k < out.rank; ++k) {
    const uint8_t dim = out.dim_order[k];
    const int32_t size = out.sizes[dim];
    if (size == 1) continue;
    const int64_t stride = self_strides[source_dim[dim]];
    // This dim continues the previous one in self: one longer dim.
    if (plan.rank > 0 && plan.self_strides[plan.rank - 1] == stride * size) {
      plan.sizes[plan.rank - 1] *= size;
      plan.self_strides[plan.rank - 1] = stride;
      continue;
    }
    plan.sizes[plan.rank] = size;
    plan.self_strides[plan.rank] = stride;
    ++plan.rank;
  }
}

namespace {

template <typename T>
void copy_row(const T* in, int64_t stride, int32_t count, T* out) {
  for (int32_t i = 0; i < count; ++i) out[i] = in[i * stride];
}

// Copies the block of dims [d, rank) starting at `in` to `out`; returns the
// end of what it wrote. memmove, not memcpy: a hostile program may plan
// self and out overlapping; the result is then garbage, never undefined.
uint8_t* copy_block(const StridedCopyPlan& plan, uint32_t d, const uint8_t* in, uint8_t* out) {
  const size_t bytes = plan.element_bytes;
  const int32_t size = plan.sizes[d];
  const int64_t stride = plan.self_strides[d];
  if (d + 1 < plan.rank) {
    for (int32_t i = 0; i < size; ++i) {
      out = copy_block(plan, d + 1, in + static_cast<ptrdiff_t>(i * stride) * static_cast<ptrdiff_t>(bytes), out);
    }
    return out;
  }
  if (stride == 1) {
    std::memmove(out, in, static_cast<size_t>(size) * bytes);
  } else {
    switch (bytes) {
      case 1: copy_row(in, stride, size, out); break;
      case 2: copy_row(reinterpret_cast<const uint16_t*>(in), stride, size, reinterpret_cast<uint16_t*>(out)); break;
      case 4: copy_row(reinterpret_cast<const uint32_t*>(in), stride, size, reinterpret_cast<uint32_t*>(out)); break;
      default:
        for (int32_t i = 0; i < size; ++i) std::memmove(out + static_cast<size_t>(i) * bytes, in + i * stride * static_cast<int64_t>(bytes), bytes);
    }
  }
  return out + static_cast<size_t>(size) * bytes;
}

}  // namespace

void run_strided_copy(const StridedCopyPlan& plan, const void* self, void* out) {
  const auto* in = static_cast<const uint8_t*>(self);
  auto* dst = static_cast<uint8_t*>(out);
  if (plan.rank == 0) {
    std::memmove(dst, in, plan.element_bytes);
    return;
  }
  copy_block(plan, 0, in, dst);
}

}  // namespace etns::kernels
