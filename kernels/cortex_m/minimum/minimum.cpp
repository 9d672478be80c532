#include "kernels/cortex_m/minimum/minimum.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m {

using kernels::check_dtype;
using kernels::check_same_dim_order;
using kernels::check_same_sizes;
using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

void minimum_s8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                size_t n) {
  minimum_s8_ref(p, self, other, out, n);
}

Error minimum_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(0, "self"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(1, "other"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(2, "out"));
  ETNS_TRY(check_dtype(ctx, *self, "self", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *other, "other", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Char));

  // `full` is the operand whose shape (and memory order) out must have.
  MinimumParams p;
  const Tensor* full = self;
  const char* full_name = "self";
  if (self->same_sizes(*other)) {
    // The flat walk pairs elements correctly only in one shared memory order.
    ETNS_TRY(check_same_dim_order(ctx, *self, "self", *other, "other"));
  } else if (other->numel == 1) {
    p.other_stride = 0;
  } else if (self->numel == 1) {
    p.self_stride = 0;
    full = other;
    full_name = "other";
  } else {
    return ctx.fail(Error::NotSupported,
                    "self %s and other %s: broadcasting is supported only for identical "
                    "shapes or a one-element operand",
                    format_sizes(*self).text, format_sizes(*other).text);
  }
  ETNS_TRY(check_same_sizes(ctx, *out, "out", *full, full_name));
  ETNS_TRY(check_same_dim_order(ctx, *out, "out", *full, full_name));

  ETNS_ASSIGN_OR_RETURN(MinimumParams * params, ctx.make_state<MinimumParams>());
  *params = p;
  return Error::Ok;
}

Error minimum_run(const RunContext& ctx) {
  const Tensor& out = ctx.tensor(2);
  minimum_s8(ctx.state<MinimumParams>(), ctx.tensor(0).data_as<const int8_t>(),
             ctx.tensor(1).data_as<const int8_t>(), out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::cortex_m
