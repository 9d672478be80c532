#include "kernels/common/conv_checks.h"

#include "kernels/common/checks.h"
#include "runtime/core/format.h"

namespace etns::kernels {

using runtime::format_text;
using runtime::IntList;

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
