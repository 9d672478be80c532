#include "kernels/cortex_m/minimum/minimum.h"

#include "kernels/variants.h"

namespace etns::cortex_m {

void minimum_s8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::fastest(kernels::kMinimumVariants)(p, self, other, out);
}

runtime::Error minimum_prepare(runtime::PrepareContext& ctx) {
  return kernels::prepare_broadcast_walk(ctx, "arm_minimum_s8");
}

runtime::Error minimum_run(const runtime::RunContext& ctx) {
  minimum_s8(ctx.state<MinimumParams>(), ctx.tensor(0).data_as<const int8_t>(),
             ctx.tensor(1).data_as<const int8_t>(), ctx.tensor(2).data_as<int8_t>());
  return runtime::Error::Ok;
}

}  // namespace etns::cortex_m
