#include "kernels/common/checks.h"

#include <cfloat>
#include <cmath>
#include <limits>

#include "runtime/core/format.h"

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
  return ctx.fail(Error::InvalidArgument, "%s = %lld, expected [%lld, %lld]", name,
                  static_cast<long long>(value), static_cast<long long>(lo),
                  static_cast<long long>(hi));
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
  return ctx.fail(Error::InvalidArgument, "%s %s and %s %s differ in shape", a_name,
                  format_sizes(a).text, b_name, format_sizes(b).text);
}

Error check_same_dim_order(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                           const Tensor& b, const char* b_name) {
  if (a.same_dim_order(b)) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s and %s have different dim orders", a_name, b_name);
}

Error check_row_major(const PrepareContext& ctx, const Tensor& tensor, const char* name) {
  if (is_row_major_in_memory(tensor)) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s must be contiguous (row-major in memory)", name);
}

Error read_pair(const PrepareContext& ctx, const runtime::IntList& list, const char* name,
                int64_t lo, int64_t hi, int32_t* h, int32_t* w) {
  if (list.size != 2) {
    return ctx.fail(Error::InvalidArgument, "%s has %u values, expected 2 ([h, w])", name,
                    static_cast<unsigned>(list.size));
  }
  char item_name[32];
  for (uint32_t i = 0; i < 2; ++i) {
    runtime::format_text(item_name, sizeof(item_name), "%s[%u]", name, static_cast<unsigned>(i));
    ETNS_TRY(check_range(ctx, item_name, list.at(i), lo, hi));
  }
  *h = static_cast<int32_t>(list.at(0));
  *w = static_cast<int32_t>(list.at(1));
  return Error::Ok;
}

SizesText format_sizes(const Tensor& tensor) { return format_sizes(tensor.sizes, tensor.rank); }

SizesText format_sizes(const int32_t* sizes, size_t rank) {
  SizesText out{};
  const size_t capacity = sizeof(out.text);
  size_t used = runtime::format_text(out.text, capacity, "[");
  for (size_t d = 0; d < rank && used < capacity; ++d) {
    used += runtime::format_text(out.text + used, capacity - used, d == 0 ? "%d" : ", %d",
                                 static_cast<int>(sizes[d]));
  }
  if (used < capacity) runtime::format_text(out.text + used, capacity - used, "]");
  return out;
}

Result<int32_t> read_int_in_range(const PrepareContext& ctx, Arg arg, int64_t lo, int64_t hi) {
  ETNS_ASSIGN_OR_RETURN(const int64_t value, ctx.int_value(arg));
  ETNS_TRY(check_range(ctx, arg.name(), value, lo, hi));
  return static_cast<int32_t>(value);
}

Result<int32_t> read_zero_point(const PrepareContext& ctx, Arg arg) {
  return read_int_in_range(ctx, arg, -128, 127);
}

Result<Requant> read_requant(const PrepareContext& ctx, Arg multiplier, Arg shift) {
  Requant q;
  ETNS_ASSIGN_OR_RETURN(q.multiplier, read_int_in_range(ctx, multiplier, 0, INT32_MAX));
  ETNS_ASSIGN_OR_RETURN(q.shift, read_int_in_range(ctx, shift, -31, 30));
  return q;
}

Result<int32_t> read_first_item(const PrepareContext& ctx, Arg arg, int64_t lo, int64_t hi) {
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList list, ctx.int_list(arg));
  if (list.size == 0) {
    return ctx.fail(Error::InvalidArgument, "%s is empty, expected at least one value",
                    arg.name());
  }
  char item_name[48];
  runtime::format_text(item_name, sizeof(item_name), "%s[0]", arg.name());
  ETNS_TRY(check_range(ctx, item_name, list.at(0), lo, hi));
  return static_cast<int32_t>(list.at(0));
}

Result<ScalarType> read_quantized_dtype(const PrepareContext& ctx, Arg arg) {
  ETNS_ASSIGN_OR_RETURN(const int64_t code, ctx.int_value(arg));
  if (code == static_cast<int64_t>(ScalarType::Char)) return ScalarType::Char;
  if (code == static_cast<int64_t>(ScalarType::Short)) return ScalarType::Short;
  return ctx.fail(Error::InvalidArgument, "%s = %lld, expected 1 (int8) or 2 (int16)", arg.name(),
                  static_cast<long long>(code));
}

Result<float> read_scale(const PrepareContext& ctx, Arg arg) {
  ETNS_ASSIGN_OR_RETURN(const double scale, ctx.double_value(arg));
  // Compared as float32: a double beyond float's range becomes infinite there.
  const float scale_f = std::isfinite(scale) && std::fabs(scale) <= FLT_MAX
                            ? static_cast<float>(scale)
                            : std::numeric_limits<float>::infinity();
  const float inverse = 1.0f / scale_f;
  if (!(scale_f > 0.0f) || !std::isfinite(scale_f) || !std::isfinite(inverse)) {
    return ctx.fail(Error::InvalidArgument,
                    "%s = %g, expected finite and > 0 with a finite float32 inverse", arg.name(),
                    scale);
  }
  return scale_f;
}

Error read_quantize_args(const PrepareContext& ctx, const QuantizeArgIds& ids,
                         IntegerTensor integer, QuantizeArgs* args) {
  QuantizeArgs a;
  ETNS_ASSIGN_OR_RETURN(a.input, ctx.tensor(ids.input));
  ETNS_ASSIGN_OR_RETURN(a.scale, read_scale(ctx, ids.scale));
  ETNS_ASSIGN_OR_RETURN(const int64_t zero_point, ctx.int_value(ids.zero_point));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_min, ctx.int_value(ids.quant_min));
  ETNS_ASSIGN_OR_RETURN(const int64_t quant_max, ctx.int_value(ids.quant_max));
  ETNS_ASSIGN_OR_RETURN(a.dtype, read_quantized_dtype(ctx, ids.dtype));
  ETNS_ASSIGN_OR_RETURN(a.out, ctx.tensor(ids.out));

  // The contract takes int8 or int16 for the integer tensor; it must be the
  // one dtype names.
  if (integer == IntegerTensor::Out) {
    ETNS_TRY(check_dtype(ctx, *a.out, "out", a.dtype));
  } else {
    ETNS_TRY(check_dtype(ctx, *a.input, "input", a.dtype));
  }
  const int64_t type_min = a.dtype == ScalarType::Char ? INT8_MIN : INT16_MIN;
  const int64_t type_max = a.dtype == ScalarType::Char ? INT8_MAX : INT16_MAX;
  ETNS_TRY(check_range(ctx, ids.quant_min.name(), quant_min, type_min, type_max));
  ETNS_TRY(check_range(ctx, ids.quant_max.name(), quant_max, quant_min, type_max));
  ETNS_TRY(check_range(ctx, ids.zero_point.name(), zero_point, quant_min, quant_max));
  ETNS_TRY(check_same_sizes(ctx, *a.input, "input", *a.out, "out"));
  ETNS_TRY(check_same_dim_order(ctx, *a.input, "input", *a.out, "out"));
  a.zero_point = static_cast<int32_t>(zero_point);
  a.quant_min = static_cast<int32_t>(quant_min);
  a.quant_max = static_cast<int32_t>(quant_max);
  *args = a;
  return Error::Ok;
}

Error check_vector(const PrepareContext& ctx, const Tensor& t, const char* name, int64_t count,
                   const char* what) {
  if (static_cast<uint64_t>(t.numel) == static_cast<uint64_t>(count) && count >= 0) {
    return Error::Ok;
  }
  return ctx.fail(Error::InvalidArgument, "%s %s has %zu values, expected %lld (one per %s)", name,
                  format_sizes(t).text, t.numel, static_cast<long long>(count), what);
}

}  // namespace etns::kernels
