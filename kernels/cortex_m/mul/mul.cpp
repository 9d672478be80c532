#include "kernels/cortex_m/mul/mul.h"

#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::check_dtype;
using kernels::check_same_dim_order;
using kernels::check_same_sizes;
using kernels::format_sizes;
using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// Upstream's rule: both 4-D with the same C, and one of them holds exactly C values.
bool is_channel_broadcast(const Tensor& self, const Tensor& other) {
  if (self.rank != 4 || other.rank != 4 || self.size(1) != other.size(1)) return false;
  const size_t channels = static_cast<size_t>(self.size(1));
  return self.numel == channels || other.numel == channels;
}

// True when memory holds the tensor in N, H, W, C order: channels_last, or
// contiguous where C or H * W is 1.
bool is_nhwc_in_memory(const Tensor& t) {
  if (t.is_channels_last()) return true;
  return t.rank == 4 && t.is_contiguous() && (t.size(1) == 1 || (t.size(2) == 1 && t.size(3) == 1));
}

}  // namespace

void mul_s8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kMulVariants)(p, a, b, out, n);
}

Error mul_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(0, "self"));
  ETNS_ASSIGN_OR_RETURN(const int32_t self_zero_point, read_zero_point(ctx, 1, "self_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(2, "other"));
  ETNS_ASSIGN_OR_RETURN(const int32_t other_zero_point,
                        read_zero_point(ctx, 3, "other_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const int32_t out_zero_point, read_zero_point(ctx, 4, "output_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant requant,
                        read_requant(ctx, 5, "output_multiplier", 6, "output_shift"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(7, "out"));
  ETNS_TRY(check_dtype(ctx, *self, "self", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *other, "other", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Char));

  MulParams p;
  p.a_zero_point = self_zero_point;
  p.b_zero_point = other_zero_point;
  p.out_zero_point = out_zero_point;
  p.out = requant;
  if (self->same_sizes(*other)) {
    // The flat walk pairs elements correctly only in one shared memory order.
    ETNS_TRY(check_same_dim_order(ctx, *self, "self", *other, "other"));
    ETNS_TRY(check_same_sizes(ctx, *out, "out", *self, "self"));
    ETNS_TRY(check_same_dim_order(ctx, *out, "out", *self, "self"));
  } else if (is_channel_broadcast(*self, *other)) {
    p.a_is_other = self->numel == static_cast<size_t>(self->size(1));
    const Tensor& full = p.a_is_other ? *other : *self;
    const char* full_name = p.a_is_other ? "other" : "self";
    if (p.a_is_other) {
      p.a_zero_point = other_zero_point;
      p.b_zero_point = self_zero_point;
    }
    p.b_channels = static_cast<size_t>(self->size(1));
    ETNS_TRY(check_same_sizes(ctx, *out, "out", full, full_name));
    // The per-channel vector repeats per pixel only in NHWC memory; upstream
    // asks for channels_last but does not enforce it.
    if (!is_nhwc_in_memory(full) || !is_nhwc_in_memory(*out)) {
      return ctx.fail(Error::NotSupported,
                      "channel broadcast needs %s and out in NHWC memory order (channels_last)",
                      full_name);
    }
  } else {
    return ctx.fail(Error::InvalidArgument,
                    "self %s and other %s differ in shape and are not a channel broadcast "
                    "(both 4-D, same C, one of them C elements)",
                    format_sizes(*self).text, format_sizes(*other).text);
  }

  ETNS_ASSIGN_OR_RETURN(MulParams * params, ctx.make_state<MulParams>());
  *params = p;
  return Error::Ok;
}

Error mul_run(const RunContext& ctx) {
  const MulParams& p = ctx.state<MulParams>();
  const Tensor& self = ctx.tensor(0);
  const Tensor& other = ctx.tensor(2);
  const Tensor& out = ctx.tensor(7);
  const Tensor& a = p.a_is_other ? other : self;
  const Tensor& b = p.a_is_other ? self : other;
  mul_s8(p, a.data_as<const int8_t>(), b.data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::cortex_m
