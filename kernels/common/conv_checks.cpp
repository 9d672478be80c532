#include "kernels/common/conv_checks.h"

#include "kernels/common/checks.h"
#include "runtime/core/format.h"

namespace etns::kernels {

using runtime::format_text;
using runtime::IntList;

Error read_conv_args(const PrepareContext& ctx, const ConvArgIds& ids, ConvArgs* args) {
  ConvArgs a;
  ETNS_ASSIGN_OR_RETURN(a.input, ctx.tensor(ids.input));
  ETNS_ASSIGN_OR_RETURN(a.weight, ctx.tensor(ids.weight));
  ETNS_ASSIGN_OR_RETURN(a.bias, ctx.optional_tensor(ids.bias));
  ETNS_ASSIGN_OR_RETURN(a.stride, ctx.int_list(ids.stride));
  ETNS_ASSIGN_OR_RETURN(a.padding, ctx.int_list(ids.padding));
  ETNS_ASSIGN_OR_RETURN(a.dilation, ctx.int_list(ids.dilation));
  ETNS_ASSIGN_OR_RETURN(a.input_offset,
                        read_int_in_range(ctx, ids.input_offset, -INT8_MAX, -INT8_MIN));
  ETNS_ASSIGN_OR_RETURN(a.output_offset,
                        read_int_in_range(ctx, ids.output_offset, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(a.multipliers, ctx.tensor(ids.multipliers));
  ETNS_ASSIGN_OR_RETURN(a.shifts, ctx.tensor(ids.shifts));
  ETNS_ASSIGN_OR_RETURN(a.activation_min,
                        read_int_in_range(ctx, ids.activation_min, INT8_MIN, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(a.activation_max,
                        read_int_in_range(ctx, ids.activation_max, a.activation_min, INT8_MAX));
  ETNS_ASSIGN_OR_RETURN(a.out, ctx.tensor(ids.out));
  ETNS_TRY(check_rank(ctx, *a.weight, ids.weight.name(), 4));
  *args = a;
  return Error::Ok;
}

Error check_conv_out_and_requantization(const PrepareContext& ctx, const ConvArgIds& ids,
                                        const ConvArgs& args, int32_t batches,
                                        int32_t output_c) {
  const Tensor& out = *args.out;
  if (out.size(0) != batches || out.size(1) != output_c) {
    return ctx.fail(Error::InvalidArgument,
                    "out has batch %d and %d channels, expected batch %d and %d channels",
                    static_cast<int>(out.size(0)), static_cast<int>(out.size(1)),
                    static_cast<int>(batches), static_cast<int>(output_c));
  }
  if (args.bias != nullptr) {
    ETNS_TRY(check_per_channel(ctx, *args.bias, ids.bias.name(), output_c, false));
  }
  ETNS_TRY(check_per_channel(ctx, *args.multipliers, ids.multipliers.name(), output_c, true));
  ETNS_TRY(check_per_channel(ctx, *args.shifts, ids.shifts.name(), output_c, true));
  // Multiplier 0 (TFLite's flush of a tiny effective scale) and shift -31 are
  // legal; shift 31 would shift left by 31 before the multiply.
  ETNS_TRY(check_per_channel_values(ctx, *args.multipliers, ids.multipliers.name(), 0, INT32_MAX));
  ETNS_TRY(check_per_channel_values(ctx, *args.shifts, ids.shifts.name(), -31, 30));
  return Error::Ok;
}

Error check_out_extent(const PrepareContext& ctx, const char* dim, int64_t kernel,
                       int64_t stride, int64_t dilation, int64_t out) {
  if (out < 1) {
    return ctx.fail(Error::InvalidArgument, "out %s = %lld, expected >= 1", dim,
                    static_cast<long long>(out));
  }
  const int64_t reach = (out + 2) * stride + (kernel - 1) * dilation;
  if (reach > INT32_MAX) {
    return ctx.fail(Error::InvalidArgument,
                    "out %s %lld with kernel %lld, stride %lld and dilation %lld reaches input "
                    "index %lld, beyond int32",
                    dim, static_cast<long long>(out), static_cast<long long>(kernel),
                    static_cast<long long>(stride), static_cast<long long>(dilation),
                    static_cast<long long>(reach));
  }
  return Error::Ok;
}

Error check_per_channel(const PrepareContext& ctx, const Tensor& t, const char* name,
                        int32_t channels, bool must_be_constant) {
  ETNS_TRY(check_vector(ctx, t, name, channels, "output channel"));
  if (must_be_constant && !t.is_constant) {
    return ctx.fail(Error::NotSupported,
                    "%s is not a constant tensor (its values are checked at load)", name);
  }
  return Error::Ok;
}

Error check_per_channel_values(const PrepareContext& ctx, const Tensor& t, const char* name,
                               int64_t lo, int64_t hi) {
  const int32_t* values = t.data_as<const int32_t>();
  for (size_t oc = 0; oc < t.numel; ++oc) {
    if (values[oc] >= lo && values[oc] <= hi) continue;
    char item_name[48];
    format_text(item_name, sizeof(item_name), "%s[%zu]", name, oc);
    return check_range(ctx, item_name, values[oc], lo, hi);
  }
  return Error::Ok;
}

}  // namespace etns::kernels
