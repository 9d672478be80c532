#include "kernels/cortex_m/maximum/maximum.h"


namespace etns::cortex_m {
namespace {

constexpr kernels::BroadcastArgs kArgs = kernels::broadcast_args(kMaximumContract);

}  // namespace

void maximum_s8(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::fastest(kernels::kMaximumVariants)(p, self, other, out);
}

runtime::Error maximum_prepare(runtime::PrepareContext& ctx) {
  return kernels::prepare_broadcast_walk(ctx, kArgs, "arm_maximum_s8");
}

runtime::Error maximum_run(const runtime::RunContext& ctx) {
  maximum_s8(ctx.state<MaximumParams>(), ctx.tensor(kArgs.self).data_as<const int8_t>(),
             ctx.tensor(kArgs.other).data_as<const int8_t>(),
             ctx.tensor(kArgs.out).data_as<int8_t>());
  return runtime::Error::Ok;
}

}  // namespace etns::cortex_m
