#include "kernels/cortex_m/mul/mul.h"

#include "kernels/common/binary_args.h"
#include "kernels/common/channel_broadcast.h"
#include "kernels/common/checks.h"

namespace etns::cortex_m {

using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

// The arguments quantized_mul shares with quantized_add and quantized_sub.
constexpr kernels::BinaryArgIds kArgs = kernels::binary_arg_ids(kMulContract);

}  // namespace

void mul_s8(const MulParams& p, const int8_t* a, const int8_t* b, int8_t* out, size_t n) {
  kernels::fastest(kernels::kMulVariants)(p, a, b, out, n);
}

Error mul_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const kernels::BinaryQuantization q,
                        kernels::read_binary_quantization(ctx, kArgs));
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kArgs.self));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(kArgs.other));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kArgs.out));
  ETNS_ASSIGN_OR_RETURN(const kernels::ChannelBroadcast plan,
                        kernels::plan_channel_broadcast(ctx, *self, *other, *out));
  // The product is symmetric: the full-size operand goes first with its zero point.
  MulParams p;
  kernels::set_operand_order(plan, q, p);
  ETNS_ASSIGN_OR_RETURN(MulParams * params, ctx.make_state<MulParams>());
  *params = p;
  return Error::Ok;
}

Error mul_run(const RunContext& ctx) {
  kernels::run_ordered_binary<MulParams>(ctx, kArgs, &mul_s8);
  return Error::Ok;
}

}  // namespace etns::cortex_m
