#include "kernels/cortex_m/linear/linear.h"

#include "kernels/common/checks.h"
#include "runtime/core/format.h"

namespace etns::cortex_m {

using kernels::check_rank;
using kernels::check_vector;
using kernels::format_sizes;
using kernels::read_first_item;
using kernels::read_int_in_range;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kLinearContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kWeights = kContract.arg("weights");
constexpr runtime::Arg kBias = kContract.arg("bias");
constexpr runtime::Arg kKernelSum = kContract.arg("kernel_sum");
constexpr runtime::Arg kInputOffset = kContract.arg("input_offset");
constexpr runtime::Arg kFilterOffset = kContract.arg("filter_offset");
constexpr runtime::Arg kOutputOffset = kContract.arg("output_offset");
constexpr runtime::Arg kMultipliers = kContract.arg("requantize_multipliers");
constexpr runtime::Arg kShifts = kContract.arg("requantize_shifts");
constexpr runtime::Arg kActivationMax = kContract.arg("activation_max");
constexpr runtime::Arg kActivationMin = kContract.arg("activation_min");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void linear_s8(const LinearParams& p, const int8_t* input, const int8_t* weight,
               const int32_t* bias, const int32_t* kernel_sum, int8_t* out, uint8_t* scratch) {
  kernels::fastest(kernels::kLinearVariants)(p, input, weight, bias, kernel_sum, out, scratch);
}

size_t linear_scratch_bytes(const LinearParams& p, bool has_kernel_sum) {
  // The Helium variant keeps the derived kernel sums here; the host budgets
  // the same bytes although its reference needs none.
  if (!has_kernel_sum) return static_cast<size_t>(p.out_features) * sizeof(int32_t) + 15;
  return 0;
}

Error linear_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(const Tensor* weights, ctx.tensor(kWeights));
  ETNS_ASSIGN_OR_RETURN(const Tensor* bias, ctx.optional_tensor(kBias));
  ETNS_ASSIGN_OR_RETURN(const Tensor* kernel_sum, ctx.optional_tensor(kKernelSum));
  // input_offset and filter_offset are minus int8 zero points, output_offset one.
  ETNS_ASSIGN_OR_RETURN(const int32_t input_offset,
                        read_int_in_range(ctx, kInputOffset, -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(const int32_t filter_offset,
                        read_int_in_range(ctx, kFilterOffset, -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(const int32_t output_offset,
                        read_int_in_range(ctx, kOutputOffset, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t multiplier, read_first_item(ctx, kMultipliers, 0, INT32_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t shift, read_first_item(ctx, kShifts, -31, 30));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_max,
                        read_int_in_range(ctx, kActivationMax, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_min,
                        read_int_in_range(ctx, kActivationMin, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  if (activation_min > activation_max) {
    return ctx.fail(Error::InvalidArgument, "activation_min = %d is above activation_max = %d",
                    static_cast<int>(activation_min), static_cast<int>(activation_max));
  }

  if (input->rank < 1) {
    return ctx.fail(Error::InvalidArgument, "input has rank 0, expected at least 1 ([..., in])");
  }
  ETNS_TRY(check_rank(ctx, *weights, "weights", 2));
  const int32_t out_features = weights->size(0);
  const int32_t in_features = weights->size(1);
  const uint8_t last = static_cast<uint8_t>(input->rank - 1);
  if (input->size(last) != in_features) {
    return ctx.fail(Error::InvalidArgument,
                    "input %s has %d features, weights %s expect %d ([out, in])",
                    format_sizes(*input).text, static_cast<int>(input->size(last)),
                    format_sizes(*weights).text, static_cast<int>(in_features));
  }
  // out: input's leading dims, then out_features.
  bool out_fits = out->rank == input->rank && out->size(last) == out_features;
  for (uint8_t d = 0; out_fits && d < last; ++d) out_fits = out->size(d) == input->size(d);
  if (!out_fits) {
    return ctx.fail(Error::InvalidArgument,
                    "out %s does not fit input %s and weights %s (expected input's leading dims, "
                    "then %d)",
                    format_sizes(*out).text, format_sizes(*input).text,
                    format_sizes(*weights).text, static_cast<int>(out_features));
  }
  if (bias != nullptr) {
    ETNS_TRY(check_vector(ctx, *bias, "bias", out_features, "output feature"));
  }
  if (kernel_sum != nullptr) {
    ETNS_TRY(check_vector(ctx, *kernel_sum, "kernel_sum", out_features, "output feature"));
  }
  uint64_t batches = 1;
  for (uint8_t d = 0; d < last; ++d) {
    batches *= static_cast<uint64_t>(input->size(d));
    if (batches > static_cast<uint64_t>(INT32_MAX)) break;
  }
  if (batches > static_cast<uint64_t>(INT32_MAX)) {
    return ctx.fail(Error::InvalidArgument, "input %s has more than %d rows",
                    format_sizes(*input).text, static_cast<int>(INT32_MAX));
  }

  LinearParams p;
  p.batches = static_cast<int32_t>(batches);
  p.in_features = in_features;
  p.out_features = out_features;
  p.input_offset = input_offset;
  p.filter_offset = filter_offset;
  p.output_offset = output_offset;
  p.activation_min = activation_min;
  p.activation_max = activation_max;
  p.out = {multiplier, shift};
  ETNS_ASSIGN_OR_RETURN(LinearParams * params, ctx.make_state<LinearParams>());
  *params = p;
  ctx.request_scratch(linear_scratch_bytes(p, kernel_sum != nullptr));
  return Error::Ok;
}

Error linear_run(const RunContext& ctx) {
  linear_s8(ctx.state<LinearParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
            ctx.tensor(kWeights).data_as<const int8_t>(), ctx.data_or_null<const int32_t>(kBias),
            ctx.data_or_null<const int32_t>(kKernelSum), ctx.tensor(kOut).data_as<int8_t>(),
            ctx.scratch.data());
  return Error::Ok;
}

}  // namespace etns::cortex_m
