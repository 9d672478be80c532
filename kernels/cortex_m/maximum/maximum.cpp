#include "kernels/cortex_m/maximum/maximum.h"

#include "kernels/variants.h"

namespace etns::cortex_m {

void maximum_s8(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  kernels::fastest(kernels::kMaximumVariants)(p, self, other, out);
}

runtime::Error maximum_prepare(runtime::PrepareContext& ctx) {
  return kernels::prepare_broadcast_walk(ctx, "arm_maximum_s8");
}

runtime::Error maximum_run(const runtime::RunContext& ctx) {
  maximum_s8(ctx.state<MaximumParams>(), ctx.tensor(0).data_as<const int8_t>(),
             ctx.tensor(1).data_as<const int8_t>(), ctx.tensor(2).data_as<int8_t>());
  return runtime::Error::Ok;
}

}  // namespace etns::cortex_m
