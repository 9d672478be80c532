#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/common/checks.h"
#include "kernels/portable/float_rows.h"
#include "kernels/portable/sub/sub.h"
#include "runtime/core/target_layout.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::is_floating_point;
using runtime::ScalarType;
using runtime::Tensor;
using runtime::ValueKind;

constexpr const runtime::OperatorContract& kContract = kSubContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kOther = kContract.arg("other");
constexpr runtime::Arg kAlpha = kContract.arg("alpha");
constexpr runtime::Arg kOut = kContract.out();

// Broadcast walks are merged (size-1 dims dropped, runs of dims that advance
// together fused), so real shapes need two or three dims; six bounds the state.
constexpr size_t kMaxWalkDims = 6;

// out is written in memory order; each walk dim advances self and other by its
// stride (0 along a broadcast dim). Equal shapes are one dim of numel elements.
struct SubParams {
  float alpha = 0.0f;
  uint8_t dims = 0;
  uint32_t sizes[kMaxWalkDims] = {};
  uint32_t self_strides[kMaxWalkDims] = {};
  uint32_t other_strides[kMaxWalkDims] = {};
};
ETNS_TARGET_LAYOUT(SubParams, runtime::StructLayout()
                                  .member(runtime::fixed<float>())
                                  .member(runtime::fixed<uint8_t>())
                                  .member(runtime::fixed<uint32_t>(), 3 * kMaxWalkDims)
                                  .done());

// Size of `tensor` along dim d of a rank-`rank` result, right-aligned (numpy).
int32_t aligned_size(const Tensor& tensor, size_t d, size_t rank) {
  const size_t missing = rank - tensor.rank;
  return d < missing ? 1 : tensor.sizes[d - missing];
}

// Element stride of a contiguous `tensor` along result dim d; 0 where it broadcasts.
uint32_t aligned_stride(const Tensor& tensor, size_t d, size_t rank) {
  const size_t missing = rank - tensor.rank;
  if (d < missing || tensor.sizes[d - missing] == 1) return 0;
  uint32_t stride = 1;
  for (size_t k = d - missing + 1; k < tensor.rank; ++k) {
    stride *= static_cast<uint32_t>(tensor.sizes[k]);
  }
  return stride;
}

Error check_float32_operand(const runtime::PrepareContext& ctx, const Tensor& tensor,
                            const char* name) {
  if (tensor.dtype == ScalarType::Float) return Error::Ok;
  if (tensor.dtype == ScalarType::Bool) {
    return ctx.fail(Error::InvalidArgument, "%s dtype bool, sub does not take bool tensors", name);
  }
  return ctx.fail(Error::NotSupported, "%s dtype %s, only float32 is implemented", name,
                  runtime::to_string(tensor.dtype));
}

// Fills params' walk for self, other -> out; shapes were checked to broadcast.
Error plan_broadcast(const runtime::PrepareContext& ctx, const Tensor& self, const Tensor& other,
                     const Tensor& out, SubParams& params) {
  const size_t rank = out.rank;
  for (size_t d = 0; d < rank; ++d) {
    const uint32_t size = static_cast<uint32_t>(out.sizes[d]);
    if (size == 1) continue;
    const uint32_t a_stride = aligned_stride(self, d, rank);
    const uint32_t b_stride = aligned_stride(other, d, rank);
    if (params.dims > 0) {
      const size_t last = params.dims - 1u;
      // The previous dim is the outer half of one longer run when both operands
      // step over exactly this dim's extent with it.
      if (params.self_strides[last] == a_stride * size &&
          params.other_strides[last] == b_stride * size) {
        params.sizes[last] *= size;
        params.self_strides[last] = a_stride;
        params.other_strides[last] = b_stride;
        continue;
      }
    }
    if (params.dims == kMaxWalkDims) {
      return ctx.fail(Error::NotSupported,
                      "broadcast needs more than %zu dims after merging, not implemented",
                      kMaxWalkDims);
    }
    params.sizes[params.dims] = size;
    params.self_strides[params.dims] = a_stride;
    params.other_strides[params.dims] = b_stride;
    ++params.dims;
  }
  if (params.dims == 0) {  // every dim has size 1: one element
    params.sizes[0] = 1;
    params.dims = 1;
  }
  return Error::Ok;
}

// ExecuTorch op_sub.cpp: a - alpha * b in the compute dtype (float32); the
// product is rounded before the subtraction (-ffp-contract=off forbids an FMA).
void sub_f32(const SubParams& p, const float* a, const float* b, float* out) {
  const size_t last = p.dims - 1u;
  const size_t inner = p.sizes[last];
  const size_t a_step = p.self_strides[last];
  const size_t b_step = p.other_strides[last];
  const SubRowFn row = kernels::fastest(kernels::kSubRowVariants);
  uint32_t index[kMaxWalkDims] = {};
  size_t a_offset = 0;
  size_t b_offset = 0;
  for (;;) {
    row(a + a_offset, a_step, b + b_offset, b_step, out, inner, p.alpha);
    out += inner;
    size_t d = last;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++index[d] < p.sizes[d]) {
        a_offset += p.self_strides[d];
        b_offset += p.other_strides[d];
        break;
      }
      index[d] = 0;
      a_offset -= static_cast<size_t>(p.sizes[d] - 1u) * p.self_strides[d];
      b_offset -= static_cast<size_t>(p.sizes[d] - 1u) * p.other_strides[d];
    }
  }
}

}  // namespace

Error sub_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(kOther));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  // The schema's Scalar admits a Bool; upstream's sub refuses it (InvalidArgument,
  // where scalar_value would call the program malformed).
  if (ctx.value(kAlpha).kind == ValueKind::Bool) {
    return ctx.fail(Error::InvalidArgument, "alpha is Bool, expected Int or Double");
  }
  bool alpha_is_integral = false;
  ETNS_ASSIGN_OR_RETURN(const double alpha, ctx.scalar_value(kAlpha, &alpha_is_integral));

  ETNS_TRY(check_float32_operand(ctx, *self, "self"));
  ETNS_TRY(check_float32_operand(ctx, *other, "other"));
  if (out->dtype != ScalarType::Float) {
    // float32 results may be cast to a wider float, never to an integer type.
    return ctx.fail(is_floating_point(out->dtype) ? Error::NotSupported : Error::InvalidArgument,
                    "out dtype %s, expected float32", runtime::to_string(out->dtype));
  }
  if (std::isfinite(alpha) && (alpha > FLT_MAX || alpha < -FLT_MAX)) {
    return ctx.fail(Error::InvalidArgument, "alpha = %g, outside float32 range", alpha);
  }

  // numpy broadcasting: right-aligned, each pair of sizes equal or one of them 1.
  const size_t rank = self->rank > other->rank ? self->rank : other->rank;
  bool shapes_equal = self->rank == other->rank;
  bool out_matches = out->rank == rank;
  for (size_t d = 0; d < rank; ++d) {
    const int32_t a = aligned_size(*self, d, rank);
    const int32_t b = aligned_size(*other, d, rank);
    if (a != b && a != 1 && b != 1) {
      return ctx.fail(Error::InvalidArgument, "self %s and other %s do not broadcast",
                      kernels::format_sizes(*self).text, kernels::format_sizes(*other).text);
    }
    shapes_equal = shapes_equal && a == b;
    if (out_matches && out->sizes[d] != (a == 1 ? b : a)) out_matches = false;
  }
  if (!out_matches) {
    int32_t expected[runtime::kMaxTensorRank] = {};
    for (size_t d = 0; d < rank; ++d) {
      const int32_t a = aligned_size(*self, d, rank);
      expected[d] = a == 1 ? aligned_size(*other, d, rank) : a;
    }
    return ctx.fail(Error::InvalidArgument, "out shape %s, expected %s",
                    kernels::format_sizes(*out).text, kernels::format_sizes(expected, rank).text);
  }
  if (out->numel > UINT32_MAX) {
    return ctx.fail(Error::NotSupported, "out has %zu elements, more than 2^32 - 1", out->numel);
  }

  SubParams params;
  params.alpha = static_cast<float>(alpha);
  if (shapes_equal) {
    // Equal shapes in one dim order: the flat walk is valid for any layout.
    ETNS_TRY(kernels::check_same_dim_order(ctx, *self, "self", *other, "other"));
    ETNS_TRY(kernels::check_same_dim_order(ctx, *self, "self", *out, "out"));
    params.dims = 1;
    params.sizes[0] = static_cast<uint32_t>(out->numel);
    params.self_strides[0] = 1;
    params.other_strides[0] = 1;
  } else {
    if (!self->is_contiguous() || !other->is_contiguous() || !out->is_contiguous()) {
      return ctx.fail(
          Error::NotSupported,
          "broadcasting self %s with other %s is implemented for contiguous tensors only",
          kernels::format_sizes(*self).text, kernels::format_sizes(*other).text);
    }
    ETNS_TRY(plan_broadcast(ctx, *self, *other, *out, params));
  }

  ETNS_ASSIGN_OR_RETURN(SubParams * state, ctx.make_state<SubParams>());
  *state = params;
  return Error::Ok;
}

Error sub_run(const runtime::RunContext& ctx) {
  const SubParams& params = ctx.state<SubParams>();
  const Tensor& out = ctx.tensor(kOut);
  if (out.numel == 0) return Error::Ok;
  sub_f32(params, ctx.tensor(kSelf).data_as<const float>(),
          ctx.tensor(kOther).data_as<const float>(), out.data_as<float>());
  return Error::Ok;
}

}  // namespace etns::portable
