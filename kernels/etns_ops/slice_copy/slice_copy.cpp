#include "kernels/etns_ops/slice_copy/slice_copy.h"

#include <cstdint>

#include "kernels/common/checks.h"

namespace etns::etns_ops {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kSliceCopyContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kStart = kContract.arg("start");
constexpr runtime::Arg kStep = kContract.arg("step");
constexpr runtime::Arg kOut = kContract.out();

// start or step: one entry per dim.
Error read_list(const PrepareContext& ctx, runtime::Arg arg, uint8_t rank, int64_t values[kSliceCopyMaxRank]) {
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList list, ctx.int_list(arg));
  if (list.size != rank) {
    return ctx.fail(Error::InvalidArgument, "%s has %u entries, expected %u (one per dim of self)", arg.name(),
                    static_cast<unsigned>(list.size), static_cast<unsigned>(rank));
  }
  for (uint8_t d = 0; d < rank; ++d) values[d] = list.at(d);
  return Error::Ok;
}

}  // namespace

Error slice_copy_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_dtype(ctx, *out, "out", self->dtype));
  const uint8_t rank = self->rank;
  if (rank < 1 || rank > kSliceCopyMaxRank) {
    return ctx.fail(Error::InvalidArgument, "self %s has rank %u, expected 1 to %u", format_sizes(*self).text,
                    static_cast<unsigned>(rank), static_cast<unsigned>(kSliceCopyMaxRank));
  }
  if (out->rank != rank) {
    return ctx.fail(Error::InvalidArgument, "out %s has rank %u, expected self's %u", format_sizes(*out).text,
                    static_cast<unsigned>(out->rank), static_cast<unsigned>(rank));
  }
  int64_t start[kSliceCopyMaxRank] = {};
  int64_t step[kSliceCopyMaxRank] = {};
  ETNS_TRY(read_list(ctx, kStart, rank, start));
  ETNS_TRY(read_list(ctx, kStep, rank, step));
  if (self->nbytes > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "self %s holds %zu bytes, above 2^31 - 1 (the walk's offsets are 32-bit)",
                    format_sizes(*self).text, self->nbytes);
  }

  // Every index out reads, checked in 64 bits: start and the last index
  // along each dim inside self (the walk is monotonic along a dim).
  for (uint8_t d = 0; d < rank; ++d) {
    const int64_t size = self->size(d);
    const int64_t n = out->size(d);
    if (step[d] == 0) return ctx.fail(Error::InvalidArgument, "step[%u] = 0, expected nonzero", unsigned{d});
    if (n == 0) continue;
    if (start[d] < 0 || start[d] >= size) {
      return ctx.fail(Error::InvalidArgument, "start[%u] = %lld is outside self %s's dim %u, [0, %lld)", unsigned{d},
                      static_cast<long long>(start[d]), format_sizes(*self).text, unsigned{d},
                      static_cast<long long>(size));
    }
    // |step| >= size already leaves the dim at the second element, and
    // bounding it first keeps (n - 1) * step inside 64 bits.
    const bool step_fits = step[d] > -size && step[d] < size;
    const int64_t last = step_fits ? start[d] + (n - 1) * step[d] : -1;
    if (n > 1 && (!step_fits || last < 0 || last >= size)) {
      return ctx.fail(Error::InvalidArgument,
                      "start[%u] = %lld with step[%u] = %lld reads %lld elements of self %s's dim %u of size %lld",
                      unsigned{d}, static_cast<long long>(start[d]), unsigned{d}, static_cast<long long>(step[d]),
                      static_cast<long long>(n), format_sizes(*self).text, unsigned{d}, static_cast<long long>(size));
    }
  }

  // Self's element stride per logical dim, from its dim order.
  int64_t self_stride[kSliceCopyMaxRank] = {};
  int64_t running = 1;
  for (int k = rank - 1; k >= 0; --k) {
    const uint8_t d = self->dim_order[k];
    self_stride[d] = running;
    running *= self->size(d);
  }
  const int64_t element_size = self->numel == 0 ? 1 : static_cast<int64_t>(self->nbytes / self->numel);

  // The walk in out's memory order, size-1 dims dropped, then each dim merged
  // into the one outside it where that one's stride spans it exactly.
  int64_t count[kSliceCopyMaxRank] = {};
  int64_t stride[kSliceCopyMaxRank] = {};
  int walked = 0;
  int64_t offset = 0;
  bool empty = false;
  for (uint8_t k = 0; k < rank; ++k) {
    const uint8_t d = out->dim_order[k];
    const int64_t n = out->size(d);
    if (n == 0) empty = true;
    if (n == 0) continue;
    offset += start[d] * self_stride[d] * element_size;
    if (n == 1) continue;
    const int64_t s = step[d] * self_stride[d] * element_size;
    if (walked > 0 && stride[walked - 1] == s * n) {
      count[walked - 1] *= n;
      stride[walked - 1] = s;
      continue;
    }
    count[walked] = n;
    stride[walked] = s;
    ++walked;
  }

  ETNS_ASSIGN_OR_RETURN(SliceCopyParams * p, ctx.make_state<SliceCopyParams>());
  p->element_size = static_cast<int32_t>(element_size);
  if (empty) {
    p->count[0] = 0;
    return Error::Ok;
  }
  // Every offset lies inside self's bytes, below 2^31 (checked above).
  p->offset = static_cast<int32_t>(offset);
  const int first = static_cast<int>(kSliceCopyMaxRank) - walked;
  for (int k = 0; k < walked; ++k) {
    p->count[first + k] = static_cast<int32_t>(count[k]);
    p->stride[first + k] = static_cast<int32_t>(stride[k]);
  }
  return Error::Ok;
}

Error slice_copy_run(const RunContext& ctx) {
  slice_copy(ctx.state<SliceCopyParams>(), ctx.tensor(kSelf).data_as<const uint8_t>(),
             ctx.tensor(kOut).data_as<uint8_t>());
  return Error::Ok;
}

void slice_copy(const SliceCopyParams& p, const uint8_t* self, uint8_t* out) {
  kernels::fastest(kernels::kSliceCopyVariants)(p, self, out);
}

}  // namespace etns::etns_ops
