#include "kernels/etns_ops/squared_difference/squared_difference.h"

#include <cstdint>

#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::etns_ops {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kSquaredDifferenceContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kSelfZeroPoint = kContract.arg("self_zero_point");
constexpr runtime::Arg kSelfMultiplier = kContract.arg("self_multiplier");
constexpr runtime::Arg kSelfShift = kContract.arg("self_shift");
constexpr runtime::Arg kOther = kContract.arg("other");
constexpr runtime::Arg kOtherZeroPoint = kContract.arg("other_zero_point");
constexpr runtime::Arg kOtherMultiplier = kContract.arg("other_multiplier");
constexpr runtime::Arg kOtherShift = kContract.arg("other_shift");
constexpr runtime::Arg kOutZeroPoint = kContract.arg("out_zero_point");
constexpr runtime::Arg kOutMultiplier = kContract.arg("out_multiplier");
constexpr runtime::Arg kOutShift = kContract.arg("out_shift");
constexpr runtime::Arg kOut = kContract.out();

// x's size along out's dim k, sizes right-aligned (1 where x has no such dim).
int32_t aligned_size(const Tensor& x, uint8_t k, uint8_t out_rank) {
  const int offset = static_cast<int>(out_rank) - static_cast<int>(x.rank);
  return static_cast<int>(k) < offset ? 1 : x.size(static_cast<size_t>(k - offset));
}

// The broadcast walk of row-major self and other onto row-major out: dims of
// size 1 in out dropped, neighbours in which the same operands repeat merged.
Error plan_walk(PrepareContext& ctx, const Tensor& self, const Tensor& other, const Tensor& out,
                SquaredDifferenceParams& p) {
  int64_t dims[runtime::kMaxTensorRank] = {};
  int64_t self_sizes[runtime::kMaxTensorRank] = {};
  int64_t other_sizes[runtime::kMaxTensorRank] = {};
  int count = 0;
  int previous = -1;
  for (uint8_t k = 0; k < out.rank; ++k) {
    const int32_t n = out.size(k);
    const int32_t a = aligned_size(self, k, out.rank), b = aligned_size(other, k, out.rank);
    if (n == 1) continue;
    const int kind = a == 1 ? 1 : (b == 1 ? 2 : 0);
    if (kind == previous) {
      dims[count - 1] *= n;
      self_sizes[count - 1] *= a;
      other_sizes[count - 1] *= b;
    } else {
      dims[count] = n;
      self_sizes[count] = a;
      other_sizes[count] = b;
      ++count;
    }
    previous = kind;
  }
  if (count > 4) {
    return ctx.fail(Error::NotSupported, "self %s and other %s broadcast onto out %s over %d alternating dims (4 are walked)",
                    format_sizes(self).text, format_sizes(other).text, format_sizes(out).text, count);
  }
  // Right-aligned in the four walk dims; a repeated operand's stride is 0.
  int64_t self_step = 1, other_step = 1;
  for (int d = count - 1; d >= 0; --d) {
    const int slot = 4 - count + d;
    p.dims[slot] = static_cast<int32_t>(dims[d]);
    p.self_strides[slot] = self_sizes[d] == 1 ? 0 : static_cast<int32_t>(self_step);
    p.other_strides[slot] = other_sizes[d] == 1 ? 0 : static_cast<int32_t>(other_step);
    self_step *= self_sizes[d];
    other_step *= other_sizes[d];
  }
  return Error::Ok;
}

}  // namespace

Error squared_difference_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(kOther));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_ASSIGN_OR_RETURN(const int32_t self_zero_point, kernels::read_zero_point(ctx, kSelfZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int32_t other_zero_point, kernels::read_zero_point(ctx, kOtherZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int32_t out_zero_point, kernels::read_zero_point(ctx, kOutZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant self_q, kernels::read_requant(ctx, kSelfMultiplier, kSelfShift));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant other_q, kernels::read_requant(ctx, kOtherMultiplier, kOtherShift));
  ETNS_ASSIGN_OR_RETURN(const kernels::Requant out_q, kernels::read_requant(ctx, kOutMultiplier, kOutShift));
  // TFLM's input factors are below 1 (SmallerThanOneExp): no left shift, so
  // the scaled inputs stay within 2^15 and their difference squared within int32.
  ETNS_TRY(kernels::check_range(ctx, "self_shift", self_q.shift, -31, 0));
  ETNS_TRY(kernels::check_range(ctx, "other_shift", other_q.shift, -31, 0));
  if (out->numel > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "out %s holds more than 2^31 - 1 elements", format_sizes(*out).text);
  }

  SquaredDifferenceParams walk;
  if (self->same_sizes(*out) && other->same_sizes(*out)) {
    // Equal sizes: one flat row in whatever memory order the three share.
    ETNS_TRY(kernels::check_same_memory_order(ctx, *self, "self", *out, "out"));
    ETNS_TRY(kernels::check_same_memory_order(ctx, *other, "other", *out, "out"));
    walk.dims[3] = static_cast<int32_t>(out->numel);
    walk.self_strides[3] = 1;
    walk.other_strides[3] = 1;
  } else {
    const auto onto = [&](const Tensor& x, const char* name) {
      bool fits = x.rank <= out->rank;
      for (uint8_t k = 0; fits && k < out->rank; ++k) {
        const int32_t d = aligned_size(x, k, out->rank);
        fits = d == 1 || d == out->size(k);
      }
      if (fits) return Error::Ok;
      return ctx.fail(Error::InvalidArgument, "%s %s does not broadcast onto out %s", name, format_sizes(x).text,
                      format_sizes(*out).text);
    };
    ETNS_TRY(onto(*self, "self"));
    ETNS_TRY(onto(*other, "other"));
    for (uint8_t k = 0; k < out->rank; ++k) {
      if (out->size(k) != 1 && aligned_size(*self, k, out->rank) == 1 && aligned_size(*other, k, out->rank) == 1) {
        return ctx.fail(Error::InvalidArgument, "out %s is not the broadcast of self %s and other %s (dim %u)",
                        format_sizes(*out).text, format_sizes(*self).text, format_sizes(*other).text, unsigned{k});
      }
    }
    ETNS_TRY(kernels::check_row_major(ctx, *self, "self"));
    ETNS_TRY(kernels::check_row_major(ctx, *other, "other"));
    ETNS_TRY(kernels::check_row_major(ctx, *out, "out"));
    ETNS_TRY(plan_walk(ctx, *self, *other, *out, walk));
  }

  ETNS_ASSIGN_OR_RETURN(SquaredDifferenceParams * p, ctx.make_state<SquaredDifferenceParams>());
  *p = walk;
  p->self_offset = -self_zero_point;
  p->self_multiplier = self_q.multiplier;
  p->self_shift = self_q.shift;
  p->other_offset = -other_zero_point;
  p->other_multiplier = other_q.multiplier;
  p->other_shift = other_q.shift;
  p->out_zero_point = out_zero_point;
  p->out_multiplier = out_q.multiplier;
  p->out_shift = out_q.shift;
  return Error::Ok;
}

Error squared_difference_run(const RunContext& ctx) {
  squared_difference_s8(ctx.state<SquaredDifferenceParams>(), ctx.tensor(kSelf).data_as<const int8_t>(),
                        ctx.tensor(kOther).data_as<const int8_t>(), ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

void squared_difference_s8(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::fastest(kernels::kSquaredDifferenceVariants)(p, self, other, out);
}

}  // namespace etns::etns_ops
