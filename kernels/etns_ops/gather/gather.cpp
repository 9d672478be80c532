#include "kernels/etns_ops/gather/gather.h"

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

constexpr const runtime::OperatorContract& kContract = kGatherContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kIndices = kContract.arg("indices");
constexpr runtime::Arg kAxis = kContract.arg("axis");
constexpr runtime::Arg kBatchDims = kContract.arg("batch_dims");
constexpr runtime::Arg kOut = kContract.out();

// out's sizes by the rule: self's before axis, indices' after batch_dims,
// self's after axis.
Error check_out_sizes(const PrepareContext& ctx, const Tensor& self, const Tensor& indices, const Tensor& out,
                      uint8_t axis, uint8_t batch_dims) {
  int32_t want[runtime::kMaxTensorRank] = {};
  size_t n = 0;
  const size_t rank = static_cast<size_t>(self.rank) + indices.rank - 1 - batch_dims;
  if (rank > runtime::kMaxTensorRank || out.rank != rank) {
    return ctx.fail(Error::InvalidArgument, "out %s has rank %u, expected %zu (self's + indices' - 1 - batch_dims)",
                    format_sizes(out).text, static_cast<unsigned>(out.rank), rank);
  }
  for (uint8_t d = 0; d < axis; ++d) want[n++] = self.size(d);
  for (uint8_t d = batch_dims; d < indices.rank; ++d) want[n++] = indices.size(d);
  for (uint8_t d = static_cast<uint8_t>(axis + 1); d < self.rank; ++d) want[n++] = self.size(d);
  for (size_t d = 0; d < n; ++d) {
    if (out.size(d) != want[d]) {
      return ctx.fail(Error::InvalidArgument, "out %s, expected %s (self %s gathered on dim %u by indices %s)",
                      format_sizes(out).text, format_sizes(want, n).text, format_sizes(self).text, unsigned{axis},
                      format_sizes(indices).text);
    }
  }
  return Error::Ok;
}

}  // namespace

int64_t first_bad_index(const int32_t* indices, int64_t count, int32_t axis_size) {
  for (int64_t k = 0; k < count; ++k) {
    if (indices[k] < 0 || indices[k] >= axis_size) return k;
  }
  return -1;
}

Error gather_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* indices, ctx.tensor(kIndices));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_ASSIGN_OR_RETURN(const int64_t axis64, ctx.int_value(kAxis));
  ETNS_ASSIGN_OR_RETURN(const int64_t batch64, ctx.int_value(kBatchDims));
  ETNS_TRY(kernels::check_dtype(ctx, *out, "out", self->dtype));
  if (batch64 < 0 || batch64 > indices->rank || batch64 >= self->rank) {
    return ctx.fail(Error::InvalidArgument, "batch_dims = %lld, expected [0, %u] (indices' rank) below self's rank %u",
                    static_cast<long long>(batch64), static_cast<unsigned>(indices->rank),
                    static_cast<unsigned>(self->rank));
  }
  if (axis64 < batch64 || axis64 >= self->rank) {
    return ctx.fail(Error::InvalidArgument, "axis = %lld, expected [batch_dims, rank(self)) = [%lld, %u)",
                    static_cast<long long>(axis64), static_cast<long long>(batch64),
                    static_cast<unsigned>(self->rank));
  }
  const auto axis = static_cast<uint8_t>(axis64);
  const auto batch_dims = static_cast<uint8_t>(batch64);
  for (uint8_t d = 0; d < batch_dims; ++d) {
    if (indices->size(d) != self->size(d)) {
      return ctx.fail(Error::InvalidArgument, "indices %s and self %s differ in batch dim %u",
                      format_sizes(*indices).text, format_sizes(*self).text, unsigned{d});
    }
  }
  ETNS_TRY(check_out_sizes(ctx, *self, *indices, *out, axis, batch_dims));
  if (self->nbytes > static_cast<size_t>(INT32_MAX) || out->nbytes > static_cast<size_t>(INT32_MAX) ||
      indices->nbytes > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "self %s, indices %s or out %s holds more than 2^31 - 1 bytes",
                    format_sizes(*self).text, format_sizes(*indices).text, format_sizes(*out).text);
  }

  // The walk is in memory order: both tensors contiguous, or one shared dim
  // order that replaces the axis by indices' single non-batch dim and keeps
  // the batch dims outermost.
  const bool contiguous = self->is_contiguous() && out->is_contiguous();
  if (!contiguous) {
    bool walkable = indices->rank == batch_dims + 1 && self->same_dim_order(*out);
    for (uint8_t p = 0; walkable && p < batch_dims; ++p) walkable = self->dim_order[p] == p;
    if (!walkable) {
      return ctx.fail(Error::NotSupported,
                      "self %s and out %s: expected both in the default dim order, or one dim order with the batch "
                      "dims outermost and one indices dim after batch_dims",
                      format_sizes(*self).text, format_sizes(*out).text);
    }
  }
  int64_t batches = 1, outer = 1, inner = 1, coords = 1;
  int32_t axis_size = self->size(axis);
  bool after_axis = false;
  for (uint8_t p = 0; p < self->rank; ++p) {
    const uint8_t d = contiguous ? p : self->dim_order[p];
    if (d == axis) {
      after_axis = true;
    } else if (p < batch_dims) {
      batches *= self->size(d);
    } else if (after_axis) {
      inner *= self->size(d);
    } else {
      outer *= self->size(d);
    }
  }
  for (uint8_t d = batch_dims; d < indices->rank; ++d) coords *= indices->size(d);
  const int64_t element = static_cast<int64_t>(runtime::element_size(self->dtype));
  if (indices->is_constant) {
    const int64_t bad = first_bad_index(indices->data_as<const int32_t>(), batches * coords, axis_size);
    if (bad >= 0) {
      return ctx.fail(Error::InvalidArgument, "indices[%lld] = %d is outside self %s's dim %u, [0, %d)",
                      static_cast<long long>(bad), static_cast<int>(indices->data_as<const int32_t>()[bad]),
                      format_sizes(*self).text, unsigned{axis}, static_cast<int>(axis_size));
    }
  }
  ETNS_ASSIGN_OR_RETURN(GatherParams * p, ctx.make_state<GatherParams>());
  // Every product is bounded by self's or out's bytes (checked above).
  p->batches = static_cast<int32_t>(batches);
  p->outer = static_cast<int32_t>(outer);
  p->axis_size = axis_size;
  p->coords = static_cast<int32_t>(coords);
  p->inner_bytes = static_cast<int32_t>(inner * element);
  return Error::Ok;
}

Error gather_run(const RunContext& ctx) {
  const GatherParams& p = ctx.state<GatherParams>();
  const Tensor& indices = ctx.tensor(kIndices);
  const int32_t* idx = indices.data_as<const int32_t>();
  if (!indices.is_constant) {
    // A computed index is checked before any byte moves (TFLM's Eval fails
    // on it too; constants were checked at load).
    const int64_t bad = first_bad_index(idx, static_cast<int64_t>(p.batches) * p.coords, p.axis_size);
    ETNS_RETURN_IF(bad >= 0, Error::InvalidArgument,
                   "etns_ops::gather.out: indices[%lld] = %d is outside self's gathered dim, [0, %d)",
                   static_cast<long long>(bad), bad >= 0 ? static_cast<int>(idx[bad]) : 0,
                   static_cast<int>(p.axis_size));
  }
  gather(p, idx, ctx.tensor(kSelf).data_as<const uint8_t>(), ctx.tensor(kOut).data_as<uint8_t>());
  return Error::Ok;
}

void gather(const GatherParams& p, const int32_t* indices, const uint8_t* self, uint8_t* out) {
  kernels::fastest(kernels::kGatherVariants)(p, indices, self, out);
}

}  // namespace etns::etns_ops
