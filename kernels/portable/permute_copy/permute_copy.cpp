#include "kernels/common/checks.h"
#include "kernels/common/strided_copy.h"
#include "kernels/portable/permute_copy/permute_copy.h"

namespace etns::portable {

using runtime::Error;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kPermuteCopyContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kDims = kContract.arg("dims");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error permute_copy_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList dims, ctx.int_list(kDims));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_dtype(ctx, *out, "out", self->dtype));
  ETNS_TRY(check_stock_same_dim_order(ctx, *self, "self", *out, "out"));
  if (dims.size != self->rank || out->rank != self->rank) {
    return ctx.fail(Error::InvalidArgument, "dims has %u entries, self rank %u, out rank %u",
                    static_cast<unsigned>(dims.size), static_cast<unsigned>(self->rank),
                    static_cast<unsigned>(out->rank));
  }
  uint8_t source[runtime::kMaxTensorRank] = {};
  bool seen[runtime::kMaxTensorRank] = {};
  const int64_t rank = self->rank;
  for (size_t d = 0; d < dims.size; ++d) {
    int64_t dim = dims.at(d);
    if (dim < -rank || dim >= rank) {
      return ctx.fail(Error::InvalidArgument, "dims[%zu] = %lld, expected [%lld, %lld]", d,
                      static_cast<long long>(dim), static_cast<long long>(-rank), static_cast<long long>(rank - 1));
    }
    if (dim < 0) dim += rank;
    if (seen[dim]) return ctx.fail(Error::InvalidArgument, "dims[%zu] = %lld repeats a dim", d, static_cast<long long>(dims.at(d)));
    seen[dim] = true;
    source[d] = static_cast<uint8_t>(dim);
    if (out->sizes[d] != self->sizes[dim]) {
      return ctx.fail(Error::InvalidArgument, "out %s is not self %s permuted by dims (dim %zu)",
                      kernels::format_sizes(*out).text, kernels::format_sizes(*self).text, d);
    }
  }
  ETNS_ASSIGN_OR_RETURN(kernels::StridedCopyPlan * plan, ctx.make_state<kernels::StridedCopyPlan>());
  kernels::plan_strided_copy(*self, *out, source, *plan);
  return Error::Ok;
}

Error permute_copy_run(const runtime::RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  if (out.numel > 0) {
    kernels::run_strided_copy(ctx.state<kernels::StridedCopyPlan>(), ctx.tensor(kSelf).data,
                              out.data);
  }
  return Error::Ok;
}

}  // namespace etns::portable
