#include "kernels/cortex_m/softmax/softmax.h"

#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {

using kernels::check_dtype;
using kernels::check_row_major;
using kernels::check_same_sizes;
using kernels::format_sizes;
using kernels::read_int_in_range;
using kernels::read_zero_point;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

constexpr size_t kInput = 0, kOut = 7;

// CMSIS-NN's int8 softmax writes probabilities on the grid p = (q + 128) / 256.
constexpr int32_t kOutputZeroPoint = -128;

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
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput, "input"));
  ETNS_ASSIGN_OR_RETURN(const int64_t dim, ctx.int_value(1, "dim"));
  // Read and range-checked, but not used: softmax works on differences of codes.
  ETNS_ASSIGN_OR_RETURN(const int32_t input_zero_point,
                        read_zero_point(ctx, 2, "input_zero_point"));
  static_cast<void>(input_zero_point);
  ETNS_ASSIGN_OR_RETURN(const int64_t output_zero_point, ctx.int_value(3, "output_zero_point"));
  ETNS_ASSIGN_OR_RETURN(const int32_t multiplier,
                        read_int_in_range(ctx, 4, "input_multiplier", 0, INT32_MAX));
  // CMSIS-NN's documented range; the kernel forms 2^shift.
  ETNS_ASSIGN_OR_RETURN(const int32_t shift, read_int_in_range(ctx, 5, "input_shift", 0, 31));
  // The row's maximum has difference 0; a positive diff_min would drop every element.
  ETNS_ASSIGN_OR_RETURN(const int32_t diff_min,
                        read_int_in_range(ctx, 6, "diff_min", INT32_MIN, 0));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut, "out"));
  if (output_zero_point != kOutputZeroPoint) {
    return ctx.fail(Error::InvalidArgument,
                    "output_zero_point = %lld, expected -128 (CMSIS-NN's int8 softmax output)",
                    static_cast<long long>(output_zero_point));
  }

  ETNS_TRY(check_dtype(ctx, *input, "input", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Char));
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
  ETNS_TRY(check_row_major(ctx, *input, "input"));
  ETNS_TRY(check_row_major(ctx, *out, "out"));
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
