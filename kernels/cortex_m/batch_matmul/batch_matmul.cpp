#include "kernels/cortex_m/batch_matmul/batch_matmul.h"

#include "kernels/common/checks.h"
#include "kernels/variants.h"

namespace etns::cortex_m {
namespace {

using kernels::check_dtype;
using kernels::check_rank;
using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;

// Elements in logical (row-major) order: dims larger than 1 appear in
// dim_order in increasing order.
bool stored_in_logical_order(const Tensor& t) {
  int last = -1;
  for (uint8_t i = 0; i < t.rank; ++i) {
    const uint8_t d = t.dim_order[i];
    if (t.size(d) == 1) continue;
    if (static_cast<int>(d) < last) return false;
    last = d;
  }
  return true;
}

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
  ETNS_ASSIGN_OR_RETURN(const Tensor* lhs, ctx.tensor(0, "lhs"));
  BatchMatmulParams p;
  // Offsets are the negated zero points (CMSIS-NN's input_offset and
  // filter_offset): [-127, 128]. The output zero point is added as is.
  ETNS_ASSIGN_OR_RETURN(p.lhs_offset,
                        kernels::read_int_in_range(ctx, 1, "lhs_zero_point", -127, 128));
  ETNS_ASSIGN_OR_RETURN(const Tensor* rhs, ctx.tensor(2, "rhs_transposed"));
  ETNS_ASSIGN_OR_RETURN(p.rhs_offset,
                        kernels::read_int_in_range(ctx, 3, "rhs_zero_point", -127, 128));
  ETNS_ASSIGN_OR_RETURN(p.out_offset, kernels::read_zero_point(ctx, 4, "output_zero_point"));
  ETNS_ASSIGN_OR_RETURN(p.out, kernels::read_requant(ctx, 5, "output_multiplier", 6,
                                                     "output_shift"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(7, "out"));
  ETNS_TRY(check_dtype(ctx, *lhs, "lhs", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *rhs, "rhs_transposed", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Char));
  ETNS_TRY(check_rank(ctx, *lhs, "lhs", 3));
  ETNS_TRY(check_rank(ctx, *rhs, "rhs_transposed", 3));
  ETNS_TRY(check_rank(ctx, *out, "out", 3));
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
  for (const auto& [t, name] :
       {std::pair{lhs, "lhs"}, std::pair{rhs, "rhs_transposed"}, std::pair{out, "out"}}) {
    if (!stored_in_logical_order(*t)) {
      return ctx.fail(Error::NotSupported,
                      "%s %s is not stored contiguously; upstream's arm_batch_matmul_s8 "
                      "reads and writes row-major buffers",
                      name, format_sizes(*t).text);
    }
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
  batch_matmul_s8(ctx.state<BatchMatmulParams>(), ctx.tensor(0).data_as<const int8_t>(),
                  ctx.tensor(2).data_as<const int8_t>(), ctx.tensor(7).data_as<int8_t>(),
                  reinterpret_cast<int32_t*>(ctx.scratch.data()));
  return Error::Ok;
}

}  // namespace etns::cortex_m
