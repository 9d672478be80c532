#include "kernels/etns_ops/concatenate/concatenate.h"

#include <cstdint>

#include "kernels/common/checks.h"

namespace etns::etns_ops {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kConcatenateContract;
constexpr runtime::Arg kInputs[kConcatenateMaxInputs] = {
    kContract.arg("x0"), kContract.arg("x1"), kContract.arg("x2"), kContract.arg("x3"), kContract.arg("x4"),
    kContract.arg("x5"), kContract.arg("x6"), kContract.arg("x7"), kContract.arg("x8"), kContract.arg("x9"),
};
constexpr runtime::Arg kAxis = kContract.arg("axis");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error concatenate_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  const uint8_t rank = out->rank;
  ETNS_ASSIGN_OR_RETURN(const int32_t axis, kernels::read_int_in_range(ctx, kAxis, 0, rank == 0 ? -1 : rank - 1));
  if (out->nbytes > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "out %s holds %zu bytes, above 2^31 - 1", format_sizes(*out).text,
                    out->nbytes);
  }
  const Tensor* inputs[kConcatenateMaxInputs] = {};
  int32_t count = 0;
  int64_t along = 0;
  for (size_t i = 0; i < kConcatenateMaxInputs; ++i) {
    ETNS_ASSIGN_OR_RETURN(const Tensor* x, ctx.optional_tensor(kInputs[i]));
    if (x == nullptr) continue;
    const char* name = kInputs[i].name();
    if (static_cast<size_t>(count) != i) {
      return ctx.fail(Error::InvalidArgument, "%s is given after %s is None; the inputs come first", name,
                      kInputs[count].name());
    }
    ETNS_TRY(kernels::check_dtype(ctx, *x, name, out->dtype));
    if (x->rank != rank) {
      return ctx.fail(Error::InvalidArgument, "%s %s has rank %u, out %s has %u", name, format_sizes(*x).text,
                      static_cast<unsigned>(x->rank), format_sizes(*out).text, static_cast<unsigned>(rank));
    }
    ETNS_TRY(kernels::check_same_dim_order(ctx, *x, name, *out, "out"));
    for (uint8_t d = 0; d < rank; ++d) {
      if (d != axis && x->size(d) != out->size(d)) {
        return ctx.fail(Error::InvalidArgument, "%s %s differs from out %s off axis %d", name, format_sizes(*x).text,
                        format_sizes(*out).text, static_cast<int>(axis));
      }
    }
    along += x->size(static_cast<size_t>(axis));
    inputs[count++] = x;
  }
  if (along != out->size(static_cast<size_t>(axis))) {
    return ctx.fail(Error::InvalidArgument, "the inputs have %lld along axis %d, out %s has %d",
                    static_cast<long long>(along), static_cast<int>(axis), format_sizes(*out).text,
                    static_cast<int>(out->size(static_cast<size_t>(axis))));
  }

  // In memory order: the dims before the axis's position are the rows, the
  // ones after it one contiguous block per index along the axis.
  int64_t outer = 1;
  int64_t inner = out->numel == 0 ? 1 : static_cast<int64_t>(out->nbytes / out->numel);
  bool after = false;
  for (uint8_t k = 0; k < rank; ++k) {
    const uint8_t d = out->dim_order[k];
    if (d == axis) {
      after = true;
    } else if (after) {
      inner *= out->size(d);
    } else {
      outer *= out->size(d);
    }
  }
  ETNS_ASSIGN_OR_RETURN(ConcatenateParams * p, ctx.make_state<ConcatenateParams>());
  // Every product is at most out's bytes, below 2^31 (checked above).
  p->outer = out->numel == 0 ? 0 : static_cast<int32_t>(outer);
  p->count = count;
  for (int32_t i = 0; i < count; ++i) {
    p->row_bytes[i] = static_cast<int32_t>(inputs[i]->size(static_cast<size_t>(axis)) * inner);
  }
  return Error::Ok;
}

Error concatenate_run(const RunContext& ctx) {
  const ConcatenateParams& p = ctx.state<ConcatenateParams>();
  const uint8_t* inputs[kConcatenateMaxInputs] = {};
  for (int32_t i = 0; i < p.count; ++i) inputs[i] = ctx.tensor(kInputs[i]).data_as<const uint8_t>();
  concatenate(p, inputs, ctx.tensor(kOut).data_as<uint8_t>());
  return Error::Ok;
}

void concatenate(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out) {
  kernels::fastest(kernels::kConcatenateVariants)(p, inputs, out);
}

}  // namespace etns::etns_ops
