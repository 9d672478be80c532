#include "kernels/cortex_m_ns/mean/mean.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::read_requant;
using kernels::read_zero_point;
using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kMeanContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kAxisMask = kContract.arg("axis_mask");
constexpr runtime::Arg kKeepdim = kContract.arg("keepdim");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kOutputMultiplier = kContract.arg("output_multiplier");
constexpr runtime::Arg kOutputShift = kContract.arg("output_shift");
constexpr runtime::Arg kOut = kContract.out();

constexpr uint8_t kMaxRank = 4;
// Each term |q - zp| <= 255, so this many keep the int32 sum exact.
constexpr size_t kMaxReduce = static_cast<size_t>(INT32_MAX) / 255;

// The contract has checked the layout (row-major in memory); the geometry
// right-aligns at most 4 dims into CMSIS's (n, h, w, c), as upstream does.
Error check_at_most_4d(const runtime::PrepareContext& ctx, const Tensor& t, const char* name) {
  if (t.rank <= kMaxRank) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s has rank %u, expected at most 4", name,
                  static_cast<unsigned>(t.rank));
}

// Right-aligns self's sizes into CMSIS's (n, h, w, c) as the mask is, drops
// size-1 dims (their mask bit changes nothing), merges neighbours that are
// both kept or both reduced, and places the alternating runs, last run last,
// into the [outer, reduce_outer, middle, reduce, inner] view.
Error prepare_geometry(const runtime::PrepareContext& ctx, const Tensor& self,
                       const runtime::IntList& mask, MeanGeometry& geometry) {
  size_t dims[kMaxRank] = {1, 1, 1, 1};
  for (uint8_t d = 0; d < self.rank; ++d) {
    dims[kMaxRank - self.rank + d] = static_cast<size_t>(self.size(d));
  }
  size_t run_sizes[kMaxRank];
  bool run_reduced[kMaxRank];
  int runs = 0;
  for (int k = 0; k < kMaxRank; ++k) {
    const int64_t bit = mask.at(static_cast<size_t>(k));
    if (bit != 0 && bit != 1) {
      return ctx.fail(Error::InvalidArgument, "axis_mask[%d] = %lld, expected 0 or 1", k,
                      static_cast<long long>(bit));
    }
    if (dims[k] == 1) continue;
    if (runs > 0 && run_reduced[runs - 1] == (bit == 1)) {
      run_sizes[runs - 1] *= dims[k];
    } else {
      run_sizes[runs] = dims[k];
      run_reduced[runs] = bit == 1;
      ++runs;
    }
  }
  // Slots 0, 2, 4 are kept runs, 1 and 3 reduced ones; at most 4 runs alternate.
  size_t slots[5] = {1, 1, 1, 1, 1};
  int slot = 4;
  for (int r = runs - 1; r >= 0; --r) {
    if ((slot % 2 == 1) != run_reduced[r]) --slot;
    slots[slot--] = run_sizes[r];
  }
  geometry = MeanGeometry{slots[0], slots[1], slots[2], slots[3], slots[4]};
  if (geometry.count() > kMaxReduce) {
    return ctx.fail(Error::InvalidArgument,
                    "reduces %zu elements per output, expected at most %zu (the int32 sum "
                    "could overflow)",
                    geometry.count(), kMaxReduce);
  }
  return Error::Ok;
}

}  // namespace

Error mean_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));
  ETNS_TRY(check_at_most_4d(ctx, *self, "self"));
  ETNS_TRY(check_at_most_4d(ctx, *out, "out"));

  MeanState state;
  ETNS_ASSIGN_OR_RETURN(state.params.in_zero_point, read_zero_point(ctx, kInputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList mask, ctx.int_list(kAxisMask));
  if (mask.size != kMaxRank) {
    return ctx.fail(Error::InvalidArgument, "axis_mask has %u entries, expected 4",
                    static_cast<unsigned>(mask.size));
  }
  // keepdim only shapes `out`, whose element count is checked below.
  ETNS_ASSIGN_OR_RETURN(const bool keepdim, ctx.bool_value(kKeepdim));
  (void)keepdim;
  ETNS_ASSIGN_OR_RETURN(state.params.out_zero_point, read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(state.params.out, read_requant(ctx, kOutputMultiplier, kOutputShift));

  ETNS_TRY(prepare_geometry(ctx, *self, mask, state.geometry));
  if (out->numel != state.geometry.outputs()) {
    return ctx.fail(Error::InvalidArgument,
                    "out has %zu elements, expected %zu (the product of the kept dims)", out->numel,
                    state.geometry.outputs());
  }

  ETNS_ASSIGN_OR_RETURN(MeanState * stored, ctx.make_state<MeanState>());
  *stored = state;
  return Error::Ok;
}

Error mean_run(const runtime::RunContext& ctx) {
  const MeanState& state = ctx.state<MeanState>();
  mean_s8(state.params, state.geometry, ctx.tensor(kSelf).data_as<const int8_t>(),
          ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

void mean_s8(const MeanParams& p, const MeanGeometry& g, const int8_t* in, int8_t* out) {
  kernels::fastest(kernels::kMeanVariants)(p, g, in, out);
}

}  // namespace etns::cortex_m_ns
