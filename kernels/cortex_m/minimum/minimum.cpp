#include "kernels/cortex_m/minimum/minimum.h"


namespace etns::cortex_m {
namespace {

constexpr kernels::BroadcastArgs kArgs = kernels::broadcast_args(kMinimumContract);

}  // namespace

void minimum_s8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::fastest(kernels::kMinimumVariants)(p, self, other, out);
}

runtime::Error minimum_prepare(runtime::PrepareContext& ctx) {
  return kernels::prepare_broadcast_walk(ctx, kArgs, "arm_minimum_s8");
}

runtime::Error minimum_run(const runtime::RunContext& ctx) {
  minimum_s8(ctx.state<MinimumParams>(), ctx.tensor(kArgs.self).data_as<const int8_t>(),
             ctx.tensor(kArgs.other).data_as<const int8_t>(),
             ctx.tensor(kArgs.out).data_as<int8_t>());
  return runtime::Error::Ok;
}

}  // namespace etns::cortex_m
