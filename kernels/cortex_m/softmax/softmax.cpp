#include "kernels/cortex_m/softmax/softmax.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m {

using kernels::check_same_sizes;
using kernels::format_sizes;
using kernels::read_int_in_range;
using kernels::read_zero_point;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kSoftmaxContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kDim = kContract.arg("dim");
constexpr runtime::Arg kInputZeroPoint = kContract.arg("input_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kInputMultiplier = kContract.arg("input_multiplier");
constexpr runtime::Arg kInputShift = kContract.arg("input_shift");
constexpr runtime::Arg kDiffMin = kContract.arg("diff_min");
constexpr runtime::Arg kOut = kContract.out();

// CMSIS-NN's int8 softmax writes probabilities on the grid p = (q + 128) / 256.
constexpr int32_t kSoftmaxOutputZeroPoint = -128;

}  // namespace

void softmax_init_params(SoftmaxParams& p, int32_t rows, int32_t row_size, int32_t multiplier,
                         int32_t shift, int32_t diff_min) {
  p.rows = rows;
  p.row_size = row_size;
  p.multiplier = multiplier;
  p.shift = shift;
  p.diff_min = diff_min;
  for (int32_t d = 0; d < 256; ++d) p.exp_table[d] = softmax_exp_s8(p, -d);
}

void softmax_s8(const SoftmaxParams& p, const int8_t* input, int8_t* out) {
  kernels::fastest(kernels::kSoftmaxVariants)(p, input, out);
}

Error softmax_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(const int64_t dim, ctx.int_value(kDim));
  // Read and range-checked, but not used: softmax works on differences of codes.
  ETNS_ASSIGN_OR_RETURN(const int32_t input_zero_point, read_zero_point(ctx, kInputZeroPoint));
  static_cast<void>(input_zero_point);
  ETNS_ASSIGN_OR_RETURN(const int64_t output_zero_point, ctx.int_value(kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(const int32_t multiplier,
                        read_int_in_range(ctx, kInputMultiplier, 0, INT32_MAX));
  // CMSIS-NN's documented range; the kernel forms 2^shift (1 << shift in
  // upstream's C, undefined for a negative shift).
  ETNS_ASSIGN_OR_RETURN(const int32_t shift, read_int_in_range(ctx, kInputShift, 0, 31));
  // The row's maximum has difference 0; a positive diff_min would drop every element.
  ETNS_ASSIGN_OR_RETURN(const int32_t diff_min, read_int_in_range(ctx, kDiffMin, INT32_MIN, 0));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  if (output_zero_point != kSoftmaxOutputZeroPoint) {
    return ctx.fail(Error::InvalidArgument,
                    "output_zero_point = %lld, expected -128 (CMSIS-NN's int8 softmax output)",
                    static_cast<long long>(output_zero_point));
  }

  if (input->rank < 1) {
    return ctx.fail(Error::InvalidArgument, "input has rank 0, expected at least 1");
  }
  const int64_t rank = input->rank;
  if (dim < -rank || dim >= rank) {
    return ctx.fail(Error::InvalidArgument, "dim = %lld, expected [%lld, %lld] for rank %lld",
                    static_cast<long long>(dim), static_cast<long long>(-rank),
                    static_cast<long long>(rank - 1), static_cast<long long>(rank));
  }
  if ((dim < 0 ? dim + rank : dim) != rank - 1) {
    return ctx.fail(Error::NotSupported,
                    "dim = %lld: only the last dimension (-1 or %lld) is supported, as upstream",
                    static_cast<long long>(dim), static_cast<long long>(rank - 1));
  }
  ETNS_TRY(check_same_sizes(ctx, *out, "out", *input, "input"));
  if (input->numel == 0) {
    return ctx.fail(Error::InvalidArgument, "input %s is empty", format_sizes(*input).text);
  }
  const int32_t row_size = input->size(static_cast<size_t>(rank - 1));
  const size_t rows = input->numel / static_cast<size_t>(row_size);
  if (rows > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::InvalidArgument, "input %s has more than %d rows",
                    format_sizes(*input).text, static_cast<int>(INT32_MAX));
  }

  ETNS_ASSIGN_OR_RETURN(SoftmaxParams * params, ctx.make_state<SoftmaxParams>());
  softmax_init_params(*params, static_cast<int32_t>(rows), row_size, multiplier, shift, diff_min);
  return Error::Ok;
}

Error softmax_run(const RunContext& ctx) {
  softmax_s8(ctx.state<SoftmaxParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
             ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

}  // namespace etns::cortex_m
