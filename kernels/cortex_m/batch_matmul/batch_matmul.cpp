#include "kernels/cortex_m/batch_matmul/batch_matmul.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m {
namespace {

using kernels::check_rank;
using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kBatchMatmulContract;
constexpr runtime::Arg kLhs = kContract.arg("lhs");
constexpr runtime::Arg kLhsZeroPoint = kContract.arg("lhs_zero_point");
constexpr runtime::Arg kRhs = kContract.arg("rhs_transposed");
constexpr runtime::Arg kRhsZeroPoint = kContract.arg("rhs_zero_point");
constexpr runtime::Arg kOutputZeroPoint = kContract.arg("output_zero_point");
constexpr runtime::Arg kOutputMultiplier = kContract.arg("output_multiplier");
constexpr runtime::Arg kOutputShift = kContract.arg("output_shift");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void batch_matmul_s8(const BatchMatmulParams& p, const int8_t* lhs, const int8_t* rhs,
                     int8_t* out, int32_t* scratch) {
  kernels::fastest(kernels::kBatchMatmulVariants)(p, lhs, rhs, out, scratch);
}

size_t batch_matmul_scratch_bytes(const BatchMatmulParams& p) {
  const size_t cols = static_cast<size_t>(p.cols);
  return (cols + (cols + 3) / 4 * 4) * sizeof(int32_t);
}

Error batch_matmul_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* lhs, ctx.tensor(kLhs));
  BatchMatmulParams p;
  // Offsets are the negated zero points (CMSIS-NN's input_offset and
  // filter_offset): [-127, 128]. The output zero point is added as is.
  ETNS_ASSIGN_OR_RETURN(p.lhs_offset, kernels::read_int_in_range(ctx, kLhsZeroPoint, -127, 128));
  ETNS_ASSIGN_OR_RETURN(const Tensor* rhs, ctx.tensor(kRhs));
  ETNS_ASSIGN_OR_RETURN(p.rhs_offset, kernels::read_int_in_range(ctx, kRhsZeroPoint, -127, 128));
  ETNS_ASSIGN_OR_RETURN(p.out_offset, kernels::read_zero_point(ctx, kOutputZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.out, kernels::read_requant(ctx, kOutputMultiplier, kOutputShift));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_TRY(check_rank(ctx, *lhs, kLhs.name(), 3));
  ETNS_TRY(check_rank(ctx, *rhs, kRhs.name(), 3));
  ETNS_TRY(check_rank(ctx, *out, kOut.name(), 3));
  if (lhs->size(0) != rhs->size(0)) {
    return ctx.fail(Error::InvalidArgument,
                    "lhs %s has %d batches and rhs_transposed %s %d; expected equal batches",
                    format_sizes(*lhs).text, static_cast<int>(lhs->size(0)),
                    format_sizes(*rhs).text, static_cast<int>(rhs->size(0)));
  }
  if (lhs->size(2) != rhs->size(2)) {
    return ctx.fail(Error::InvalidArgument,
                    "lhs %s and rhs_transposed %s differ in depth (last dim)",
                    format_sizes(*lhs).text, format_sizes(*rhs).text);
  }
  const int32_t expected[3] = {lhs->size(0), lhs->size(1), rhs->size(1)};
  if (out->size(0) != expected[0] || out->size(1) != expected[1] ||
      out->size(2) != expected[2]) {
    return ctx.fail(Error::InvalidArgument,
                    "out %s differs from %s, [batches, lhs rows, rhs_transposed rows]",
                    format_sizes(*out).text, format_sizes(expected, 3).text);
  }
  p.batches = lhs->size(0);
  p.rows = lhs->size(1);
  p.cols = rhs->size(1);
  p.depth = lhs->size(2);

  ETNS_ASSIGN_OR_RETURN(BatchMatmulParams * params, ctx.make_state<BatchMatmulParams>());
  *params = p;
  ctx.request_scratch(batch_matmul_scratch_bytes(p));
  return Error::Ok;
}

Error batch_matmul_run(const RunContext& ctx) {
  batch_matmul_s8(ctx.state<BatchMatmulParams>(), ctx.tensor(kLhs).data_as<const int8_t>(),
                  ctx.tensor(kRhs).data_as<const int8_t>(), ctx.tensor(kOut).data_as<int8_t>(),
                  reinterpret_cast<int32_t*>(ctx.scratch.data()));
  return Error::Ok;
}

}  // namespace etns::cortex_m
