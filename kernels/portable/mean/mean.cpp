#include <cinttypes>
#include <cstddef>
#include <cstdint>

#include "kernels/common/checks.h"
#include "kernels/portable/canonical_nan.h"
#include "kernels/portable/mean/mean.h"
#include "runtime/core/target_layout.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::is_floating_point;
using runtime::kMaxTensorRank;
using runtime::ScalarType;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kMeanContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kDim = kContract.arg("dim");
constexpr runtime::Arg kKeepdim = kContract.arg("keepdim");
constexpr runtime::Arg kDtype = kContract.arg("dtype");
constexpr runtime::Arg kOut = kContract.out();

// Dims of size 1 are dropped and neighbouring dims of one kind (kept or
// reduced) are merged, so kept and reduced dims alternate: each needs at most
// half the rank, rounded up.
constexpr size_t kMaxWalkDims = (kMaxTensorRank + 1) / 2;

// An odometer over some dims of the contiguous input, outermost first, with
// element strides. Never empty after prepare.
struct Walk {
  uint8_t dims = 0;
  uint32_t sizes[kMaxWalkDims] = {};
  uint32_t strides[kMaxWalkDims] = {};
};
ETNS_TARGET_LAYOUT(Walk, runtime::StructLayout()
                             .member(runtime::fixed<uint8_t>())
                             .member(runtime::fixed<uint32_t>(), 2 * kMaxWalkDims)
                             .done());

struct MeanParams {
  Walk kept;           // one step per output element, in out's memory order
  Walk reduced;        // one output's inputs, row-major over the reduced dims
  uint32_t count = 0;  // reduced elements per output
  // Upstream's fast path (one dim listed, the innermost) seeds the sum with
  // +0.0 instead of the first element; only a row of -0.0 tells them apart.
  bool zero_seed = false;
};
ETNS_TARGET_LAYOUT(MeanParams, runtime::StructLayout()
                                   .member(runtime::layout_of<Walk>(abi), 2)  // kept, reduced
                                   .member(runtime::fixed<uint32_t>())
                                   .member(runtime::fixed<bool>())
                                   .done());

// Appends a dim, merging it into the previous one when the previous steps over
// exactly this dim's extent: the visiting order stays row-major.
bool add_dim(Walk& walk, uint32_t size, uint32_t stride) {
  if (size == 1) return true;
  if (walk.dims > 0 && walk.strides[walk.dims - 1] == size * stride) {
    walk.sizes[walk.dims - 1] *= size;
    walk.strides[walk.dims - 1] = stride;
    return true;
  }
  if (walk.dims == kMaxWalkDims) return false;
  walk.sizes[walk.dims] = size;
  walk.strides[walk.dims] = stride;
  ++walk.dims;
  return true;
}

void finish_walk(Walk& walk) {
  if (walk.dims == 0) {  // only size-1 dims: a single position
    walk.sizes[0] = 1;
    walk.dims = 1;
  }
}

// Moves the odometer to the next position, adjusting `offset`; wraps after the last.
void advance(const Walk& walk, uint32_t* index, size_t& offset) {
  for (size_t d = walk.dims; d-- > 0;) {
    if (++index[d] < walk.sizes[d]) {
      offset += walk.strides[d];
      return;
    }
    index[d] = 0;
    offset -= static_cast<size_t>(walk.sizes[d] - 1u) * walk.strides[d];
  }
}

// ExecuTorch MapReduceOverDimListPlan with op_mean.cpp's lambdas: the first
// element seeds the float32 accumulator (or +0.0 on the fast path, which then
// adds every element) and the others are added one at a time, in row-major
// order of the reduced dims. No wider type, no reassociation.
float sum_reduced(const Walk& walk, const float* first, bool zero_seed) {
  const size_t last = walk.dims - 1u;
  const size_t inner = walk.sizes[last];
  const size_t step = walk.strides[last];
  uint32_t index[kMaxWalkDims] = {};
  size_t offset = 0;
  float acc = zero_seed ? 0.0f : first[0];
  size_t start = zero_seed ? 0 : 1;
  for (;;) {
    const float* row = first + offset;
    for (size_t i = start; i < inner; ++i) acc += row[i * step];
    start = 0;
    size_t d = last;
    for (;;) {
      if (d == 0) return acc;
      --d;
      if (++index[d] < walk.sizes[d]) {
        offset += walk.strides[d];
        break;
      }
      index[d] = 0;
      offset -= static_cast<size_t>(walk.sizes[d] - 1u) * walk.strides[d];
    }
  }
}

// op_mean.cpp: out = sum / (float)count, one float32 division. An empty
// reduction divides a zero sum by zero, as upstream does: NaN, written as
// the canonical one (canonical_nan.h).
void mean_f32(const MeanParams& p, const float* in, float* out, size_t out_numel) {
  const float count = static_cast<float>(p.count);
  if (p.count == 0) {
    const float zero = 0.0f;
    for (size_t o = 0; o < out_numel; ++o) out[o] = arithmetic_result(zero / count);
    return;
  }
  uint32_t index[kMaxWalkDims] = {};
  size_t base = 0;
  for (size_t o = 0; o < out_numel; ++o) {
    out[o] = arithmetic_result(sum_reduced(p.reduced, in + base, p.zero_seed) / count);
    advance(p.kept, index, base);
  }
}

// ExecuTorch check_reduction_args: dims in [-rank, rank) (0 or -1 for a 0-d
// tensor), normalised before the duplicate check; none or an empty list
// reduces every dim. Marks the reduced dims in `reduced`.
Error read_reduced_dims(const runtime::PrepareContext& ctx, size_t rank, bool all_dims,
                        const runtime::IntList& dims, bool (&reduced)[kMaxTensorRank]) {
  if (all_dims || dims.size == 0) {
    for (size_t d = 0; d < rank; ++d) reduced[d] = true;
    return Error::Ok;
  }
  const int64_t lo = rank == 0 ? -1 : -static_cast<int64_t>(rank);
  const int64_t hi = rank == 0 ? 0 : static_cast<int64_t>(rank) - 1;
  bool seen[kMaxTensorRank] = {};
  for (uint32_t i = 0; i < dims.size; ++i) {
    const int64_t d = dims.at(i);
    if (d < lo || d > hi) {
      return ctx.fail(Error::InvalidArgument,
                      "dim[%" PRIu32 "] = %lld, expected [%lld, %lld]", i,
                      static_cast<long long>(d), static_cast<long long>(lo),
                      static_cast<long long>(hi));
    }
    const size_t normalised = static_cast<size_t>(d < 0 ? d + (hi + 1) : d);
    if (seen[normalised]) {
      return ctx.fail(Error::InvalidArgument, "dim[%" PRIu32 "] = %lld repeats dim %zu", i,
                      static_cast<long long>(d), normalised);
    }
    seen[normalised] = true;
    if (rank > 0) reduced[normalised] = true;
  }
  return Error::Ok;
}

// check_mean_dim_args: an explicit dtype must be floating and equal out's;
// without one, self and out must both be floating (the contract has
// checked out's). Then: only float32 is implemented.
Error check_dtypes(const runtime::PrepareContext& ctx, const Tensor& self, const Tensor& out,
                   bool has_dtype, int64_t dtype_value) {
  if (has_dtype) {
    if (dtype_value < 0 || dtype_value > INT8_MAX ||
        !runtime::is_valid(static_cast<ScalarType>(dtype_value))) {
      return ctx.fail(Error::InvalidArgument, "dtype = %lld names no ScalarType",
                      static_cast<long long>(dtype_value));
    }
    const ScalarType dtype = static_cast<ScalarType>(dtype_value);
    if (!is_floating_point(dtype)) {
      return ctx.fail(Error::InvalidArgument, "dtype %s, expected a floating type",
                      runtime::to_string(dtype));
    }
    if (dtype != out.dtype) {
      return ctx.fail(Error::InvalidArgument, "dtype %s differs from out dtype %s",
                      runtime::to_string(dtype), runtime::to_string(out.dtype));
    }
  } else {
    if (!is_floating_point(self.dtype)) {
      return ctx.fail(Error::InvalidArgument, "self dtype %s, expected a floating type",
                      runtime::to_string(self.dtype));
    }
  }
  if (self.dtype != ScalarType::Float || out.dtype != ScalarType::Float) {
    return ctx.fail(Error::NotSupported, "self dtype %s, out dtype %s; only float32 is implemented",
                    runtime::to_string(self.dtype), runtime::to_string(out.dtype));
  }
  return Error::Ok;
}

// out's sizes must be self's with the reduced dims dropped (or 1 with keepdim).
Error check_out_shape(const runtime::PrepareContext& ctx, const Tensor& self, const Tensor& out,
                      const bool (&reduced)[kMaxTensorRank], bool keepdim) {
  const size_t rank = self.rank;
  int32_t expected[kMaxTensorRank] = {};
  size_t expected_rank = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      expected[expected_rank++] = self.sizes[d];
    } else if (keepdim) {
      expected[expected_rank++] = 1;
    }
  }
  bool out_matches = out.rank == expected_rank;
  for (size_t d = 0; out_matches && d < expected_rank; ++d) {
    out_matches = out.sizes[d] == expected[d];
  }
  if (!out_matches) {
    return ctx.fail(Error::InvalidArgument, "out shape %s, expected %s",
                    kernels::format_sizes(out).text,
                    kernels::format_sizes(expected, expected_rank).text);
  }
  return Error::Ok;
}

// The kept and reduced walks over self and the reduced count, on the input's
// row-major element strides (the contract has checked its memory is
// row-major, as upstream's reduction indexes it).
Error plan_walks(const runtime::PrepareContext& ctx, const Tensor& self,
                 const bool (&reduced)[kMaxTensorRank], MeanParams& params) {
  const size_t rank = self.rank;
  uint32_t strides[kMaxTensorRank] = {};
  uint32_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = stride;
    stride *= static_cast<uint32_t>(self.sizes[d]);
  }
  params.count = 1;
  bool fits = true;
  for (size_t d = 0; d < rank; ++d) {
    const uint32_t size = static_cast<uint32_t>(self.sizes[d]);
    if (reduced[d]) params.count *= size;
    if (self.numel > 0) {
      fits = fits && add_dim(reduced[d] ? params.reduced : params.kept, size, strides[d]);
    }
  }
  if (!fits) return ctx.fail(Error::Internal, "dim walk longer than %zu dims", kMaxWalkDims);
  finish_walk(params.kept);
  finish_walk(params.reduced);
  return Error::Ok;
}

}  // namespace

Error mean_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  const bool all_dims = ctx.is_null(kDim);
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList dims, ctx.int_list(kDim));  // Null: empty
  ETNS_ASSIGN_OR_RETURN(const bool keepdim, ctx.bool_value(kKeepdim));
  const bool has_dtype = !ctx.is_null(kDtype);
  int64_t dtype_value = 0;
  if (has_dtype) {
    ETNS_ASSIGN_OR_RETURN(dtype_value, ctx.int_value(kDtype));
  }
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));

  const size_t rank = self->rank;
  bool reduced[kMaxTensorRank] = {};
  ETNS_TRY(read_reduced_dims(ctx, rank, all_dims, dims, reduced));
  ETNS_TRY(check_dtypes(ctx, *self, *out, has_dtype, dtype_value));
  ETNS_TRY(check_out_shape(ctx, *self, *out, reduced, keepdim));
  if (self->numel > UINT32_MAX) {
    return ctx.fail(Error::NotSupported, "self has %zu elements, more than 2^32 - 1", self->numel);
  }

  MeanParams params;
  // op_mean.cpp's fast path: a non-empty input, one listed dim, the last.
  params.zero_seed =
      !all_dims && dims.size == 1 && rank > 0 && self->numel > 0 && reduced[rank - 1];
  ETNS_TRY(plan_walks(ctx, *self, reduced, params));

  ETNS_ASSIGN_OR_RETURN(MeanParams * state, ctx.make_state<MeanParams>());
  *state = params;
  return Error::Ok;
}

Error mean_run(const runtime::RunContext& ctx) {
  const MeanParams& params = ctx.state<MeanParams>();
  const Tensor& out = ctx.tensor(kOut);
  mean_f32(params, ctx.tensor(kSelf).data_as<const float>(), out.data_as<float>(), out.numel);
  return Error::Ok;
}

}  // namespace etns::portable
