#include <cfloat>
#include <cmath>
#include <cstddef>

#include "kernels/common/checks.h"
#include "kernels/portable/float_rows.h"
#include "kernels/portable/leaky_relu/leaky_relu.h"
#include "runtime/core/target_layout.h"

namespace etns::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;
using runtime::Tensor;

struct LeakyReluParams {
  float slope = 0.0f;
};
ETNS_TARGET_LAYOUT(LeakyReluParams, runtime::StructLayout().member(runtime::fixed<float>()).done());

// ExecuTorch op_leaky_relu.cpp's arithmetic: kernels/portable/float_rows.cpp.
constexpr const runtime::OperatorContract& kContract = kLeakyReluContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kNegativeSlope = kContract.arg("negative_slope");
constexpr runtime::Arg kOut = kContract.out();


}  // namespace

Error leaky_relu_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  bool slope_is_integral = false;
  ETNS_ASSIGN_OR_RETURN(const double slope, ctx.scalar_value(kNegativeSlope, &slope_is_integral));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));

  // The contract has checked both are floating types.
  ETNS_TRY(kernels::check_dtype(ctx, *out, "out", self->dtype));
  if (self->dtype != ScalarType::Float) {
    return ctx.fail(Error::NotSupported, "self dtype %s, only float32 is implemented",
                    runtime::to_string(self->dtype));
  }
  ETNS_TRY(kernels::check_same_sizes(ctx, *self, "self", *out, "out"));
  ETNS_TRY(kernels::check_same_dim_order(ctx, *self, "self", *out, "out"));
  // Converting a finite double beyond float's range is undefined behaviour in C++.
  if (std::isfinite(slope) && (slope > FLT_MAX || slope < -FLT_MAX)) {
    return ctx.fail(Error::InvalidArgument, "negative_slope = %g, outside float32 range", slope);
  }

  ETNS_ASSIGN_OR_RETURN(LeakyReluParams * params, ctx.make_state<LeakyReluParams>());
  params->slope = static_cast<float>(slope);
  return Error::Ok;
}

Error leaky_relu_run(const runtime::RunContext& ctx) {
  const LeakyReluParams& params = ctx.state<LeakyReluParams>();
  const Tensor& self = ctx.tensor(kSelf);
  const Tensor& out = ctx.tensor(kOut);
  kernels::fastest(kernels::kLeakyReluRowVariants)(self.data_as<const float>(), out.data_as<float>(), out.numel,
                                                    params.slope);
  return Error::Ok;
}

}  // namespace etns::portable
