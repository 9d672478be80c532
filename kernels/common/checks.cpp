#include "kernels/common/checks.h"

#include <cinttypes>

namespace etns::kernels {

Error check_dtype(const PrepareContext& ctx, const Tensor& tensor, const char* name,
                  ScalarType expected) {
  if (tensor.dtype == expected) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s dtype %s, expected %s", name,
                  runtime::to_string(tensor.dtype), runtime::to_string(expected));
}

Error check_range(const PrepareContext& ctx, const char* name, int64_t value, int64_t lo,
                  int64_t hi) {
  if (value >= lo && value <= hi) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s = %" PRId64 ", expected [%" PRId64 ", %" PRId64 "]",
                  name, value, lo, hi);
}

Error check_rank(const PrepareContext& ctx, const Tensor& tensor, const char* name,
                 uint8_t expected) {
  if (tensor.rank == expected) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s has rank %u, expected %u", name,
                  static_cast<unsigned>(tensor.rank), static_cast<unsigned>(expected));
}

Error check_same_sizes(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                       const Tensor& b, const char* b_name) {
  if (a.same_sizes(b)) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s and %s differ in shape (%zu vs %zu elements, rank %u vs %u)",
                  a_name, b_name, a.numel, b.numel, static_cast<unsigned>(a.rank),
                  static_cast<unsigned>(b.rank));
}

Error check_same_dim_order(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                           const Tensor& b, const char* b_name) {
  if (a.same_dim_order(b)) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s and %s have different dim orders", a_name, b_name);
}

Result<int32_t> read_int_in_range(const PrepareContext& ctx, size_t index, const char* name,
                                  int64_t lo, int64_t hi) {
  ETNS_ASSIGN_OR_RETURN(const int64_t value, ctx.int_value(index, name));
  ETNS_TRY(check_range(ctx, name, value, lo, hi));
  return static_cast<int32_t>(value);
}

Result<int32_t> read_zero_point(const PrepareContext& ctx, size_t index, const char* name) {
  return read_int_in_range(ctx, index, name, -128, 127);
}

Result<Requant> read_requant(const PrepareContext& ctx, size_t multiplier_index,
                             const char* multiplier_name, size_t shift_index,
                             const char* shift_name) {
  Requant q;
  ETNS_ASSIGN_OR_RETURN(q.multiplier,
                        read_int_in_range(ctx, multiplier_index, multiplier_name, 0, INT32_MAX));
  ETNS_ASSIGN_OR_RETURN(q.shift, read_int_in_range(ctx, shift_index, shift_name, -31, 30));
  return q;
}

}  // namespace etns::kernels
