#include "kernels/common/checks.h"
#include "kernels/common/strided_copy.h"
#include "kernels/portable/to_dim_order_copy/to_dim_order_copy.h"

namespace etns::portable {

using runtime::Error;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kToDimOrderCopyContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kNonBlocking = kContract.arg("non_blocking");
constexpr runtime::Arg kDimOrder = kContract.arg("dim_order");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error to_dim_order_copy_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const bool non_blocking, ctx.bool_value(kNonBlocking));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  if (non_blocking) return ctx.fail(Error::InvalidArgument, "non_blocking = true, expected false");
  ETNS_TRY(kernels::check_same_sizes(ctx, *self, "self", *out, "out"));
  if (ctx.is_null(kDimOrder)) {
    // Upstream: None preserves self's dim order.
    if (!out->same_dim_order(*self)) {
      const DimOrderText self_order = format_dim_order(*self), out_order = format_dim_order(*out);
      return ctx.fail(Error::InvalidArgument, "dim_order is None (keep self's %s) but out has dim order %s",
                      self_order.text, out_order.text);
    }
  } else {
    ETNS_ASSIGN_OR_RETURN(const runtime::IntList dim_order, ctx.int_list(kDimOrder));
    if (dim_order.size != out->rank) {
      return ctx.fail(Error::InvalidArgument, "dim_order has %u entries, out has rank %u",
                      static_cast<unsigned>(dim_order.size), static_cast<unsigned>(out->rank));
    }
    for (size_t k = 0; k < dim_order.size; ++k) {
      if (dim_order.at(k) != out->dim_order[k]) {
        return ctx.fail(Error::InvalidArgument, "dim_order[%zu] = %lld, out's is %u", k,
                        static_cast<long long>(dim_order.at(k)), static_cast<unsigned>(out->dim_order[k]));
      }
    }
    if (!out->is_contiguous() && !out->is_channels_last()) {
      return ctx.fail(Error::InvalidArgument, "dim_order is neither contiguous nor channels_last");
    }
  }
  if (out->dtype != self->dtype) {
    return ctx.fail(Error::NotSupported, "self %s to out %s: this build copies without a dtype conversion",
                    runtime::to_string(self->dtype), runtime::to_string(out->dtype));
  }
  uint8_t same[runtime::kMaxTensorRank] = {};
  for (size_t d = 0; d < out->rank; ++d) same[d] = static_cast<uint8_t>(d);
  ETNS_ASSIGN_OR_RETURN(kernels::StridedCopyPlan * plan, ctx.make_state<kernels::StridedCopyPlan>());
  kernels::plan_strided_copy(*self, *out, same, *plan);
  return Error::Ok;
}

Error to_dim_order_copy_run(const runtime::RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  if (out.numel > 0) {
    kernels::run_strided_copy(ctx.state<kernels::StridedCopyPlan>(), ctx.tensor(kSelf).data,
                              out.data);
  }
  return Error::Ok;
}

}  // namespace etns::portable
