#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/common/checks.h"
#include "kernels/portable/float_rows.h"
#include "kernels/portable/clamp/clamp.h"
#include "runtime/core/target_layout.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::Result;
using runtime::ScalarType;
using runtime::Tensor;
using runtime::ValueKind;

constexpr const runtime::OperatorContract& kContract = kClampContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kMin = kContract.arg("min");
constexpr runtime::Arg kMax = kContract.arg("max");
constexpr runtime::Arg kOut = kContract.out();

// self dtype -> compute and out dtype.
enum class ClampMode : uint8_t { S8, F32, S8ToF32 };

// An absent bound is stored as the identity bound (the dtype's lowest or
// highest value, +-inf for float): max(v, lowest) and min(v, highest) return v
// unchanged for every v, NaN and -0.0 included, so run needs no flags.
struct ClampParams {
  ClampMode mode = ClampMode::S8;
  int8_t min_s8 = INT8_MIN;
  int8_t max_s8 = INT8_MAX;
  float min_f32 = -INFINITY;
  float max_f32 = INFINITY;
};
ETNS_TARGET_LAYOUT(ClampParams, runtime::StructLayout()
                                    .member(runtime::fixed<ClampMode>())
                                    .member(runtime::fixed<int8_t>(), 2)
                                    .member(runtime::fixed<float>(), 2)
                                    .done());

// A Scalar? argument. Int and Bool are integral and never promote the tensor.
struct Bound {
  bool present = false;
  bool floating = false;
  int64_t int_value = 0;
  double double_value = 0.0;
};

// The contract has checked the kind (Int, Double, Bool or Null); a Bool is
// read here, where scalar_value would refuse it.
Result<Bound> read_bound(const runtime::PrepareContext& ctx, runtime::Arg a) {
  const runtime::EValue& value = ctx.value(a);
  Bound bound;
  switch (value.kind) {
    case ValueKind::Null:
      return bound;
    case ValueKind::Int:
      bound.present = true;
      bound.int_value = value.int_value;
      return bound;
    case ValueKind::Bool:
      bound.present = true;
      bound.int_value = value.bool_value ? 1 : 0;
      return bound;
    case ValueKind::Double:
      bound.present = true;
      bound.floating = true;
      bound.double_value = value.double_value;
      return bound;
    default:
      return ctx.fail(Error::InvalidProgram, "argument %u (%s) is %s, expected a Scalar or None",
                      static_cast<unsigned>(a.index), a.name(), runtime::to_string(value.kind));
  }
}

Error check_float_bound(const runtime::PrepareContext& ctx, const Bound& bound, const char* name) {
  if (!bound.present || !bound.floating) return Error::Ok;  // any int64 fits float's range
  const double v = bound.double_value;
  if (std::isfinite(v) && (v > FLT_MAX || v < -FLT_MAX)) {
    return ctx.fail(Error::InvalidArgument, "%s = %g, outside float32 range", name, v);
  }
  return Error::Ok;
}

// ExecuTorch scalar_to<float>: an integral Scalar converts from int64 directly
// (one rounding), a Double from double.
float bound_as_float(const Bound& bound) {
  return bound.floating ? static_cast<float>(bound.double_value)
                        : static_cast<float>(bound.int_value);
}

// A Double bound promoted the int8 input to float32: each value converts exactly.
void clamp_s8_to_f32(const int8_t* in, float* out, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = min_propagating_nan(max_propagating_nan(static_cast<float>(in[i]), lo), hi);
  }
}

}  // namespace

Error clamp_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Bound min, read_bound(ctx, kMin));
  ETNS_ASSIGN_OR_RETURN(const Bound max, read_bound(ctx, kMax));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));

  if (!min.present && !max.present) {
    return ctx.fail(Error::InvalidArgument, "min and max are both None, expected at least one");
  }
  if (self->dtype != ScalarType::Char && self->dtype != ScalarType::Float) {
    return ctx.fail(Error::NotSupported, "self dtype %s, only int8 and float32 are implemented",
                    runtime::to_string(self->dtype));
  }
  // ExecuTorch promote_type_with_scalar: a floating Scalar lifts an integer
  // tensor to the default float dtype; integral Scalars never promote.
  const bool promoted = self->dtype == ScalarType::Char && (min.floating || max.floating);
  const ScalarType common = promoted ? ScalarType::Float : self->dtype;
  if (out->dtype != common) {
    if (promoted) {
      return ctx.fail(Error::InvalidArgument,
                      "a Double bound promotes int8 self to float32, but out dtype is %s",
                      runtime::to_string(out->dtype));
    }
    return ctx.fail(Error::InvalidArgument, "out dtype %s, expected %s (self's dtype)",
                    runtime::to_string(out->dtype), runtime::to_string(common));
  }
  ETNS_TRY(kernels::check_same_sizes(ctx, *self, "self", *out, "out"));
  ETNS_TRY(kernels::check_same_dim_order(ctx, *self, "self", *out, "out"));

  ClampParams params;
  if (common == ScalarType::Char) {
    // Not promoted, so both bounds are integral.
    if (min.present) {
      ETNS_TRY(kernels::check_range(ctx, "min", min.int_value, INT8_MIN, INT8_MAX));
      params.min_s8 = static_cast<int8_t>(min.int_value);
    }
    if (max.present) {
      ETNS_TRY(kernels::check_range(ctx, "max", max.int_value, INT8_MIN, INT8_MAX));
      params.max_s8 = static_cast<int8_t>(max.int_value);
    }
    params.mode = ClampMode::S8;
  } else {
    ETNS_TRY(check_float_bound(ctx, min, "min"));
    ETNS_TRY(check_float_bound(ctx, max, "max"));
    if (min.present) params.min_f32 = bound_as_float(min);
    if (max.present) params.max_f32 = bound_as_float(max);
    params.mode = promoted ? ClampMode::S8ToF32 : ClampMode::F32;
  }

  ETNS_ASSIGN_OR_RETURN(ClampParams * state, ctx.make_state<ClampParams>());
  *state = params;
  return Error::Ok;
}

Error clamp_run(const runtime::RunContext& ctx) {
  const ClampParams& p = ctx.state<ClampParams>();
  const Tensor& self = ctx.tensor(kSelf);
  const Tensor& out = ctx.tensor(kOut);
  switch (p.mode) {
    case ClampMode::S8:
      kernels::fastest(kernels::kClampRowS8Variants)(self.data_as<const int8_t>(), out.data_as<int8_t>(),
                                                     out.numel, p.min_s8, p.max_s8);
      break;
    case ClampMode::F32:
      kernels::fastest(kernels::kClampRowVariants)(self.data_as<const float>(), out.data_as<float>(), out.numel,
                                                   p.min_f32, p.max_f32);
      break;
    case ClampMode::S8ToF32:
      clamp_s8_to_f32(self.data_as<const int8_t>(), out.data_as<float>(), out.numel, p.min_f32,
                      p.max_f32);
      break;
  }
  return Error::Ok;
}

}  // namespace etns::portable
