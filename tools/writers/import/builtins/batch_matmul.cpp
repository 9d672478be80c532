#include <algorithm>

#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/cortex_m/transpose/transpose.h"
#include "kernels/portable/view_copy/view_copy.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// BATCH_MATMUL as TFLM's reference BatchMatMul: out[.., m, n] =
// RQ(sum_k (lhs[.., m, k] - zp_l) * (rhs[.., k, n] - zp_r)) + zp_out, clamped
// to int8 (no fused activation), adj_x / adj_y transposing an operand's last
// two dims, ranks 2 to 5. quantized_batch_matmul multiplies [B, M, K] by
// [B, N, K]: equal batch dims flatten into B, and a right operand without
// batches (all 1) folds the left one's batches into M, as TFLM's
// ReshapeToFlattenBatchDimsIfPossible does.
namespace etns::tools::builtins {
namespace {

// A constant [count, rows, cols] with its last two dims swapped.
std::vector<uint8_t> swapped_matrices(const std::vector<uint8_t>& in, size_t count, size_t rows, size_t cols) {
  std::vector<uint8_t> swapped(in.size());
  for (size_t b = 0; b < count; ++b) {
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < cols; ++c) swapped[(b * cols + c) * rows + r] = in[(b * rows + r) * cols + c];
    }
  }
  return swapped;
}

// TFLite tensor t ([.., R, C]) as the contiguous graph tensor of `want` sizes
// quantized_batch_matmul reads, with its last two dims swapped when
// `transpose`: a constant reordered here, else cortex_m::transpose and
// view_copy where the sizes need them.
int32_t matrices(OperatorImport& c, int32_t t, bool transpose, const std::vector<int32_t>& want,
                 const std::string& role) {
  const std::string name = c.name(role);
  if (!transpose) return c.reshaped(t, want, name);
  const std::vector<int32_t>& s = c.shape(t);
  const auto rows = static_cast<size_t>(s[s.size() - 2]), cols = static_cast<size_t>(s[s.size() - 1]);
  const auto count = static_cast<int32_t>(numel(s) / (rows * cols));
  if (!c.tensor(t).data.empty()) {
    return c.graph().tensor(name, runtime::ScalarType::Char, want, contiguous_order(want.size()),
                            GraphTensor::Role::Constant,
                            swapped_matrices(c.tensor(t).data, static_cast<size_t>(count), rows, cols));
  }
  const int32_t from = c.reshaped(t, {count, static_cast<int32_t>(rows), static_cast<int32_t>(cols)}, name + "_batches");
  const std::vector<int32_t> sizes{count, static_cast<int32_t>(cols), static_cast<int32_t>(rows)};
  const int32_t to = c.graph().s8(name + "_transposed", sizes, contiguous_order(3));
  c.call(cortex_m::kTransposeContract,
         {{"input", GraphArg::of_tensor(from)}, {"perm", GraphArg::list({0, 2, 1})}, {"out", GraphArg::of_tensor(to)}},
         Step::Helper);
  if (sizes == want) return to;
  const int32_t viewed = c.graph().s8(name, want, contiguous_order(want.size()));
  c.call(portable::kViewCopyContract,
         {{"self", GraphArg::of_tensor(to)},
          {"size", GraphArg::list(std::vector<int64_t>(want.begin(), want.end()))},
          {"out", GraphArg::of_tensor(viewed)}},
         Step::Helper);
  return viewed;
}

// Refuses batch dims that broadcast unless the right operand has none.
void check_batches(const OperatorImport& c, const std::vector<int32_t>& batch_a, const std::vector<int32_t>& batch_b) {
  if (numel(batch_b) == 1) return;
  const size_t rank = std::max(batch_a.size(), batch_b.size());
  for (size_t i = 0; i < rank; ++i) {
    if (aligned_dim(batch_a, rank, i) != aligned_dim(batch_b, rank, i)) {
      c.fail("batch dims broadcast (equal batch dims, or a right operand without batch dims, are imported)");
    }
  }
}

}  // namespace

void import_batch_matmul(OperatorImport& c) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  const Grid qa = c.int8_grid(a), qb = c.int8_grid(b), out = c.int8_grid(y);
  const std::vector<int32_t>& sa = c.shape(a);
  const std::vector<int32_t>& sb = c.shape(b);
  if (sa.size() < 2 || sa.size() > 5 || sb.size() < 2 || sb.size() > 5) {
    c.fail("ranks " + std::to_string(sa.size()) + " and " + std::to_string(sb.size()) + " (2 to 5 are imported)");
  }
  const tflite::Options& o = c.options();
  const size_t ra = sa.size(), rb = sb.size();
  const int32_t m = o.adj_x ? sa[ra - 1] : sa[ra - 2], k = o.adj_x ? sa[ra - 2] : sa[ra - 1];
  const int32_t kb = o.adj_y ? sb[rb - 1] : sb[rb - 2], n = o.adj_y ? sb[rb - 2] : sb[rb - 1];
  if (kb != k) c.fail("depths differ: " + std::to_string(k) + " and " + std::to_string(kb));
  const std::vector<int32_t> batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
  std::vector<int32_t> product = broadcast_shape(c, batch_a, batch_b);
  product.push_back(m);
  product.push_back(n);
  if (c.shape(y) != product) c.fail("output shape is not the product's");
  const auto batches_a = static_cast<int32_t>(numel(batch_a));
  const bool fold = numel(batch_b) == 1;
  check_batches(c, batch_a, batch_b);
  const int32_t batches = fold ? 1 : batches_a, rows = fold ? batches_a * m : m;
  // GetQuantizedConvolutionMultipler: the scale product rounded to float32.
  const Requant r = tflm::fully_connected_multiplier(qa.scale, qb.scale, out.scale, c.where());
  const int32_t lhs = matrices(c, a, o.adj_x, {batches, rows, k}, "lhs");
  const int32_t rhs = matrices(c, b, !o.adj_y, {batches, n, k}, "rhs");
  const std::vector<int32_t> sizes{batches, rows, n};
  const bool direct = c.shape(y) == sizes;
  const int32_t gy = direct ? c.define(y, Form::Stored) : c.graph().s8(c.name("product"), sizes, contiguous_order(3));
  c.call(cortex_m::kBatchMatmulContract, {{"lhs", GraphArg::of_tensor(lhs)},
                                          {"lhs_zero_point", GraphArg::integer(-qa.zero_point)},
                                          {"rhs_transposed", GraphArg::of_tensor(rhs)},
                                          {"rhs_zero_point", GraphArg::integer(-qb.zero_point)},
                                          {"output_zero_point", GraphArg::integer(out.zero_point)},
                                          {"output_multiplier", GraphArg::integer(r.multiplier)},
                                          {"output_shift", GraphArg::integer(r.shift)},
                                          {"out", GraphArg::of_tensor(gy)}});
  if (!direct) c.view(gy, y, Step::Helper);
  // The inner dimension.
  c.set_macs_per_output(static_cast<uint64_t>(o.adj_x ? sa[ra - 2] : sa.back()));
}

}  // namespace etns::tools::builtins
