#include "kernels/etns_ops/arg_reduce/arg_reduce.h"

#include <cstdint>

#include "kernels/common/checks.h"
#include "runtime/core/log.h"

namespace etns::etns_ops {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kArgReduceContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kDim = kContract.arg("dim");
constexpr runtime::Arg kIsMin = kContract.arg("is_min");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error arg_reduce_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_ASSIGN_OR_RETURN(const int64_t dim64, ctx.int_value(kDim));
  ETNS_ASSIGN_OR_RETURN(const bool is_min, ctx.bool_value(kIsMin));
  const auto rank = static_cast<int64_t>(self->rank);
  if (rank < 1 || dim64 < -rank || dim64 >= rank) {
    return ctx.fail(Error::InvalidArgument, "dim = %lld, expected [-%u, %u) for self %s",
                    static_cast<long long>(dim64), static_cast<unsigned>(self->rank),
                    static_cast<unsigned>(self->rank), format_sizes(*self).text);
  }
  const auto dim = static_cast<uint8_t>(dim64 < 0 ? dim64 + rank : dim64);
  if (self->size(dim) < 1) {
    return ctx.fail(Error::InvalidArgument, "self %s: dim %u is empty, no index to return", format_sizes(*self).text,
                    unsigned{dim});
  }
  int32_t want[runtime::kMaxTensorRank] = {};
  size_t n = 0;
  for (uint8_t d = 0; d < self->rank; ++d) {
    if (d != dim) want[n++] = self->size(d);
  }
  bool same = out->rank == n;
  for (size_t d = 0; same && d < n; ++d) same = out->size(d) == want[d];
  if (!same) {
    return ctx.fail(Error::InvalidArgument, "out %s, expected %s (self %s without dim %u)", format_sizes(*out).text,
                    format_sizes(want, n).text, format_sizes(*self).text, unsigned{dim});
  }
  if (self->nbytes > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "self %s holds more than 2^31 - 1 elements", format_sizes(*self).text);
  }
  int64_t outer = 1, inner = 1;
  for (uint8_t d = 0; d < self->rank; ++d) {
    if (d < dim) outer *= self->size(d);
    if (d > dim) inner *= self->size(d);
  }
  ETNS_ASSIGN_OR_RETURN(ArgReduceParams * p, ctx.make_state<ArgReduceParams>());
  // Each product is bounded by self's element count (checked above).
  p->outer = static_cast<int32_t>(outer);
  p->axis_size = self->size(dim);
  p->inner = static_cast<int32_t>(inner);
  p->is_min = is_min ? 1 : 0;
  return Error::Ok;
}

Error arg_reduce_run(const RunContext& ctx) {
  arg_reduce(ctx.state<ArgReduceParams>(), ctx.tensor(kSelf).data_as<const int8_t>(),
             ctx.tensor(kOut).data_as<int32_t>());
  return Error::Ok;
}

void arg_reduce(const ArgReduceParams& p, const int8_t* self, int32_t* out) {
  kernels::fastest(kernels::kArgReduceVariants)(p, self, out);
}

}  // namespace etns::etns_ops
