#include "kernels/cortex_m/linear/linear.h"

#include "kernels/common/checks.h"
#include "kernels/variants.h"
#include "runtime/core/format.h"

namespace etns::cortex_m {

using kernels::check_dtype;
using kernels::check_range;
using kernels::check_rank;
using kernels::check_row_major;
using kernels::format_sizes;
using kernels::read_int_in_range;
using runtime::Error;
using runtime::IntList;
using runtime::PrepareContext;
using runtime::Result;
using runtime::RunContext;
using runtime::ScalarType;
using runtime::Tensor;
using runtime::ValueKind;

namespace {

// Argument positions.
constexpr size_t kInput = 0, kWeights = 1, kBias = 2, kKernelSum = 3, kOut = 11;

// bias or kernel_sum: one int32 per output feature.
Error check_per_feature(const PrepareContext& ctx, const Tensor& t, const char* name,
                        int32_t features) {
  ETNS_TRY(check_dtype(ctx, t, name, ScalarType::Int));
  ETNS_TRY(check_rank(ctx, t, name, 1));
  if (t.numel == static_cast<size_t>(features)) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s has %zu values, expected %d (one per output feature)",
                  name, t.numel, static_cast<int>(features));
}

// The first item of a per-tensor int[] argument, in [lo, hi]: upstream reads
// only that one.
Result<int32_t> read_first_item(const PrepareContext& ctx, size_t index, const char* name,
                                int64_t lo, int64_t hi) {
  ETNS_ASSIGN_OR_RETURN(const IntList list, ctx.int_list(index, name));
  if (list.size == 0) {
    return ctx.fail(Error::InvalidArgument, "%s is empty, expected at least one value", name);
  }
  char item_name[48];
  runtime::format_text(item_name, sizeof(item_name), "%s[0]", name);
  ETNS_TRY(check_range(ctx, item_name, list.at(0), lo, hi));
  return static_cast<int32_t>(list.at(0));
}

}  // namespace

void linear_s8(const LinearParams& p, const int8_t* input, const int8_t* weight,
               const int32_t* bias, const int32_t* kernel_sum, int8_t* out, uint8_t* scratch) {
  kernels::fastest(kernels::kLinearVariants)(p, input, weight, bias, kernel_sum, out, scratch);
}

size_t linear_scratch_bytes(const LinearParams& p, bool has_kernel_sum) {
#if ETNS_HAVE_MVE
  if (!has_kernel_sum) return static_cast<size_t>(p.out_features) * sizeof(int32_t) + 15;
#else
  static_cast<void>(p);
  static_cast<void>(has_kernel_sum);
#endif
  return 0;
}

Error linear_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput, "input"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* weights, ctx.tensor(kWeights, "weights"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* bias, ctx.optional_tensor(kBias, "bias"));
  ETNS_ASSIGN_OR_RETURN(const Tensor* kernel_sum, ctx.optional_tensor(kKernelSum, "kernel_sum"));
  // input_offset and filter_offset are minus int8 zero points, output_offset one.
  ETNS_ASSIGN_OR_RETURN(const int32_t input_offset,
                        read_int_in_range(ctx, 4, "input_offset", -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(const int32_t filter_offset,
                        read_int_in_range(ctx, 5, "filter_offset", -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(const int32_t output_offset,
                        read_int_in_range(ctx, 6, "output_offset", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t multiplier,
                        read_first_item(ctx, 7, "requantize_multipliers", 0, INT32_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t shift, read_first_item(ctx, 8, "requantize_shifts", -31, 30));
  // Upstream's order: activation_max before activation_min.
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_max,
                        read_int_in_range(ctx, 9, "activation_max", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t activation_min,
                        read_int_in_range(ctx, 10, "activation_min", INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut, "out"));
  if (activation_min > activation_max) {
    return ctx.fail(Error::InvalidArgument, "activation_min = %d is above activation_max = %d",
                    static_cast<int>(activation_min), static_cast<int>(activation_max));
  }

  ETNS_TRY(check_dtype(ctx, *input, "input", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *weights, "weights", ScalarType::Char));
  ETNS_TRY(check_dtype(ctx, *out, "out", ScalarType::Char));
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
  ETNS_TRY(check_row_major(ctx, *input, "input"));
  ETNS_TRY(check_row_major(ctx, *weights, "weights"));
  ETNS_TRY(check_row_major(ctx, *out, "out"));
  if (bias != nullptr) ETNS_TRY(check_per_feature(ctx, *bias, "bias", out_features));
  if (kernel_sum != nullptr) {
    ETNS_TRY(check_per_feature(ctx, *kernel_sum, "kernel_sum", out_features));
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
  const bool has_bias = ctx.args[kBias]->is(ValueKind::Tensor);
  const bool has_kernel_sum = ctx.args[kKernelSum]->is(ValueKind::Tensor);
  linear_s8(ctx.state<LinearParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
            ctx.tensor(kWeights).data_as<const int8_t>(),
            has_bias ? ctx.tensor(kBias).data_as<const int32_t>() : nullptr,
            has_kernel_sum ? ctx.tensor(kKernelSum).data_as<const int32_t>() : nullptr,
            ctx.tensor(kOut).data_as<int8_t>(), ctx.scratch.data());
  return Error::Ok;
}

}  // namespace etns::cortex_m
