#pragma once

#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// Portable fallbacks for the aten::*.out operators a program keeps outside the
// int8 kernels (operators.md §4; ExecuTorch kernels/portable/cpu/op_<name>.cpp).
// prepare validates every argument once, at load, and stores what run needs in
// the method arena; it returns InvalidArgument for an argument ExecuTorch's
// portable kernel rejects too, NotSupported for a valid argument this build
// does not implement (another dtype or layout), and InvalidProgram for an
// argument of the wrong kind (the loader checks each argument's kind, and the
// dtypes and layouts each contract below names, before prepare runs; a
// contract names only what upstream refuses too, so its refusals are
// InvalidArgument as upstream's). run reads the tensors' current data pointers,
// writes `out` in place, needs no scratch and always returns Ok. Float results
// are bit-exact with the upstream host build; the numerics are in
// docs/numerics.md and rely on -ffp-contract=off (no fused multiply-add).
//
// Each operator's contract is in its folder's header (kernels/portable/<op>/<op>.h);
// the build compiles the folders ETNS_PORTABLE_OPS names (kernels/operators.inc).
namespace etns::portable {

// float16, float32, float64 and bfloat16: runtime::is_floating_point's set,
// what ExecuTorch's portable kernels call a floating type.
inline constexpr runtime::Dtypes kFloatingTypes =
    runtime::dtype(runtime::ScalarType::Half) | runtime::kFloat32 |
    runtime::dtype(runtime::ScalarType::Double) | runtime::dtype(runtime::ScalarType::BFloat16);

// ExecuTorch's REALHBBF16 set (ET_SWITCH_REALHBBF16_TYPES): the integer
// types uint8 to int64, float16, float32, float64, bool and bfloat16.
inline constexpr runtime::Dtypes kRealHBBF16Types =
    runtime::dtype(runtime::ScalarType::Byte) | runtime::kInt8 | runtime::kInt16 | runtime::kInt32 |
    runtime::dtype(runtime::ScalarType::Long) | runtime::dtype(runtime::ScalarType::Bool) | kFloatingTypes;

// A tensor's dim order as text: "[0, 2, 3, 1]".
struct DimOrderText {
  char text[4 * runtime::kMaxTensorRank + 3];
};
inline DimOrderText format_dim_order(const runtime::Tensor& t) {
  DimOrderText out{};
  size_t n = 0;
  out.text[n++] = '[';
  for (uint8_t i = 0; i < t.rank; ++i) {
    if (i > 0) {
      out.text[n++] = ',';
      out.text[n++] = ' ';
    }
    const unsigned d = t.dim_order[i];
    if (d >= 10) out.text[n++] = static_cast<char>('0' + d / 10 % 10);
    out.text[n++] = static_cast<char>('0' + d % 10);
  }
  out.text[n++] = ']';
  out.text[n] = '\0';
  return out;
}

// ExecuTorch's two dim orders (runtime/core/exec_aten/util/dim_order_util.h):
// the default 0, 1, ..., rank-1, and channels_last, which exists only for 4-D
// ([0, 2, 3, 1]) and 5-D ([0, 2, 3, 4, 1]) tensors. Upstream's data-movement
// kernels compare dim orders exactly: a size-1 dim changes nothing in bytes but
// still counts.
inline bool is_stock_channels_last(const runtime::Tensor& t) {
  if (t.rank != 4 && t.rank != 5) return false;
  if (t.dim_order[0] != 0 || t.dim_order[t.rank - 1] != 1) return false;
  for (uint8_t d = 1; d + 1 < t.rank; ++d) {
    if (t.dim_order[d] != d + 1) return false;
  }
  return true;
}

// tensor_util.h's tensor_is_default_dim_order; InvalidArgument otherwise,
// naming the tensor and its dim order.
inline runtime::Error check_default_dim_order(const runtime::PrepareContext& ctx, const runtime::Tensor& t,
                                              const char* name) {
  if (t.is_contiguous()) return runtime::Error::Ok;
  const DimOrderText order = format_dim_order(t);
  return ctx.fail(runtime::Error::InvalidArgument, "%s has dim order %s, expected the default (0, 1, ...)", name,
                  order.text);
}

// tensor_util.h's tensors_have_same_dim_order for two tensors: both in the
// default dim order, or both channels_last; not merely equal dim orders (two
// [1, 0] tensors are refused). InvalidArgument otherwise, naming both orders.
inline runtime::Error check_stock_same_dim_order(const runtime::PrepareContext& ctx, const runtime::Tensor& a,
                                                 const char* a_name, const runtime::Tensor& b, const char* b_name) {
  if ((a.is_contiguous() && b.is_contiguous()) || (is_stock_channels_last(a) && is_stock_channels_last(b))) {
    return runtime::Error::Ok;
  }
  const DimOrderText a_order = format_dim_order(a), b_order = format_dim_order(b);
  return ctx.fail(runtime::Error::InvalidArgument,
                  "%s has dim order %s and %s %s: expected both the default or both channels_last", a_name,
                  a_order.text, b_name, b_order.text);
}

}  // namespace etns::portable
