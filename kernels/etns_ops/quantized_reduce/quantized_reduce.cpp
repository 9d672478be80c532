#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"

#include <cmath>

#include "kernels/common/checks.h"

namespace etns::etns_ops {
namespace {

using kernels::read_scale;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kQuantizedReduceContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kDims = kContract.arg("dims");
constexpr runtime::Arg kKeepdim = kContract.arg("keepdim");
constexpr runtime::Arg kReduction = kContract.arg("reduction");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kScale = kContract.arg("scale");
constexpr runtime::Arg kOut = kContract.out();

// |code| <= 128, so 2^24 codes keep the int32 sum exact, and (float)count and
// (float)sum stay exact where upstream converts them.
constexpr size_t kMaxCount = size_t{1} << 24;
// SumRescaled converts the rounded float to int32: |sum * scale + bias| is at
// most 256 * scale * count, kept below 2^30 so the conversion and the zero
// point's addition stay in range whatever float32's rounding adds.
constexpr double kMaxScaledSum = 1073741824.0;

// Marks the reduced dims; each must be in [0, rank) and named once.
Error read_dims(const runtime::PrepareContext& ctx, const Tensor& self, const runtime::IntList& dims,
                bool* reduced) {
  for (uint8_t d = 0; d < self.rank; ++d) reduced[d] = false;
  for (uint32_t k = 0; k < dims.size; ++k) {
    const int64_t d = dims.at(k);
    if (d < 0 || d >= self.rank) {
      return ctx.fail(Error::InvalidArgument, "dims[%u] = %lld, expected [0, %u) (self's rank)",
                      static_cast<unsigned>(k), static_cast<long long>(d), static_cast<unsigned>(self.rank));
    }
    if (reduced[d]) {
      return ctx.fail(Error::InvalidArgument, "dims names dim %lld twice", static_cast<long long>(d));
    }
    reduced[d] = true;
  }
  return Error::Ok;
}

// Self's sizes and reduced marks in memory order (its dim order): the kernel
// walks the buffer, so a channels_last [N, C, H, W] is walked as N, H, W, C.
struct MemoryDims {
  int32_t sizes[runtime::kMaxTensorRank];
  bool reduced[runtime::kMaxTensorRank];
  uint8_t rank;
};

MemoryDims memory_dims(const Tensor& self, const bool* reduced) {
  MemoryDims m{};
  m.rank = self.rank;
  for (uint8_t k = 0; k < self.rank; ++k) {
    const uint8_t d = self.dim_order[k];
    m.sizes[k] = self.size(d);
    m.reduced[k] = reduced[d];
  }
  return m;
}

// out, read in its memory order, must be self's memory order with each
// reduced dim dropped (keepdim false) or set to 1: the kernel writes the kept
// positions in self's memory order.
Error check_out_shape(const runtime::PrepareContext& ctx, const Tensor& self, const MemoryDims& m, bool keepdim,
                      const Tensor& out) {
  int32_t want[runtime::kMaxTensorRank];
  size_t rank = 0;
  for (uint8_t k = 0; k < m.rank; ++k) {
    if (!m.reduced[k]) {
      want[rank++] = m.sizes[k];
    } else if (keepdim) {
      want[rank++] = 1;
    }
  }
  int32_t have[runtime::kMaxTensorRank];
  for (uint8_t k = 0; k < out.rank; ++k) have[k] = out.size(out.dim_order[k]);
  bool same = out.rank == rank;
  for (size_t k = 0; same && k < rank; ++k) same = have[k] == want[k];
  if (same) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "out %s in memory order, expected %s (self %s with keepdim %s)",
                  kernels::format_sizes(have, out.rank).text, kernels::format_sizes(want, rank).text,
                  kernels::format_sizes(self).text, keepdim ? "true" : "false");
}

// Drops size-1 dims, merges neighbours that are both kept or both reduced,
// and places the alternating runs, last run last, into the
// [outer, reduce_outer, middle, reduce, inner] view.
Error prepare_geometry(const runtime::PrepareContext& ctx, const Tensor& self, const MemoryDims& m,
                       ReduceGeometry& geometry) {
  size_t run_sizes[runtime::kMaxTensorRank];
  bool run_reduced[runtime::kMaxTensorRank];
  int runs = 0;
  int reduced_runs = 0;
  for (uint8_t k = 0; k < m.rank; ++k) {
    const size_t size = static_cast<size_t>(m.sizes[k]);
    if (size == 1) continue;
    if (runs > 0 && run_reduced[runs - 1] == m.reduced[k]) {
      run_sizes[runs - 1] *= size;
    } else {
      run_sizes[runs] = size;
      run_reduced[runs] = m.reduced[k];
      reduced_runs += m.reduced[k] ? 1 : 0;
      ++runs;
    }
  }
  if (reduced_runs > 2) {
    return ctx.fail(Error::NotSupported, "dims leave %d separate reduced runs in self %s, expected at most 2",
                    reduced_runs, kernels::format_sizes(self).text);
  }
  // Slots 0, 2, 4 are kept runs, 1 and 3 reduced ones.
  size_t slots[5] = {1, 1, 1, 1, 1};
  int slot = 4;
  for (int r = runs - 1; r >= 0; --r) {
    if ((slot % 2 == 1) != run_reduced[r]) --slot;
    slots[slot--] = run_sizes[r];
  }
  geometry = ReduceGeometry{slots[0], slots[1], slots[2], slots[3], slots[4]};
  if (self.numel == 0) {
    return ctx.fail(Error::NotSupported, "self %s has no elements", kernels::format_sizes(self).text);
  }
  if (geometry.count() > kMaxCount) {
    return ctx.fail(Error::InvalidArgument,
                    "reduces %zu elements per output, expected at most %zu (the int32 sum stays exact)",
                    geometry.count(), kMaxCount);
  }
  return Error::Ok;
}

}  // namespace

Error quantized_reduce_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList dims, ctx.int_list(kDims));
  ETNS_ASSIGN_OR_RETURN(const bool keepdim, ctx.bool_value(kKeepdim));
  ETNS_ASSIGN_OR_RETURN(const int32_t reduction,
                        kernels::read_int_in_range(ctx, kReduction, static_cast<int64_t>(Reduction::MeanTruncated),
                                                   static_cast<int64_t>(Reduction::Max)));
  ETNS_ASSIGN_OR_RETURN(const int32_t in_zero_point, read_zero_point(ctx, kInputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int32_t out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const float scale, read_scale(ctx, kScale));

  bool reduced[runtime::kMaxTensorRank];
  ETNS_TRY(read_dims(ctx, *self, dims, reduced));
  const MemoryDims m = memory_dims(*self, reduced);
  ETNS_TRY(check_out_shape(ctx, *self, m, keepdim, *out));
  QuantizedReduceState state;
  ETNS_TRY(prepare_geometry(ctx, *self, m, state.geometry));

  QuantizedReduceParams& p = state.params;
  p.reduction = static_cast<Reduction>(reduction);
  p.count = static_cast<int32_t>(state.geometry.count());
  p.count_f = static_cast<float>(p.count);
  p.out_zero_point = out_zero_point;
  p.scale = scale;
  // Upstream's bias, in its order: -input_zero_point * scale (* count for SUM).
  const float zero_point_term = static_cast<float>(-in_zero_point) * scale;
  p.bias = p.reduction == Reduction::SumRescaled ? zero_point_term * p.count_f : zero_point_term;
  if (p.reduction == Reduction::SumRescaled &&
      !(256.0 * static_cast<double>(scale) * static_cast<double>(p.count) < kMaxScaledSum)) {
    return ctx.fail(Error::InvalidArgument,
                    "scale %g over %d elements: the scaled sum could leave int32 (expected 256 * scale * count "
                    "below 2^30)",
                    static_cast<double>(scale), static_cast<int>(p.count));
  }

  ETNS_ASSIGN_OR_RETURN(QuantizedReduceState * stored, ctx.make_state<QuantizedReduceState>());
  *stored = state;
  return Error::Ok;
}

Error quantized_reduce_run(const runtime::RunContext& ctx) {
  const QuantizedReduceState& state = ctx.state<QuantizedReduceState>();
  quantized_reduce_s8(state.params, state.geometry, ctx.tensor(kSelf).data_as<const int8_t>(),
                      ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

void quantized_reduce_s8(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in, int8_t* out) {
  kernels::fastest(kernels::kQuantizedReduceVariants)(p, g, in, out);
}

}  // namespace etns::etns_ops
