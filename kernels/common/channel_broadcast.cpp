#include "kernels/common/channel_broadcast.h"

#include "kernels/common/checks.h"

namespace etns::kernels {

using runtime::Error;
using runtime::Result;
using runtime::Tensor;

namespace {

bool is_channel_broadcast(const Tensor& self, const Tensor& other) {
  if (self.rank != 4 || other.rank != 4 || self.size(1) != other.size(1)) return false;
  const size_t channels = static_cast<size_t>(self.size(1));
  return self.numel == channels || other.numel == channels;
}

}  // namespace

Result<ChannelBroadcast> plan_channel_broadcast(const runtime::PrepareContext& ctx,
                                                const Tensor& self, const Tensor& other,
                                                const Tensor& out) {
  ChannelBroadcast plan;
  if (self.same_sizes(other)) {
    // The flat walk pairs elements correctly only in one shared memory order.
    ETNS_TRY(check_same_dim_order(ctx, self, "self", other, "other"));
    ETNS_TRY(check_same_sizes(ctx, out, "out", self, "self"));
    ETNS_TRY(check_same_dim_order(ctx, out, "out", self, "self"));
    return plan;
  }
  if (!is_channel_broadcast(self, other)) {
    return ctx.fail(Error::InvalidArgument,
                    "self %s and other %s differ in shape and are not a channel broadcast "
                    "(both 4-D, same C, one of them C elements)",
                    format_sizes(self).text, format_sizes(other).text);
  }
  plan.a_is_other = self.numel == static_cast<size_t>(self.size(1));
  plan.b_channels = static_cast<size_t>(self.size(1));
  const Tensor& full = plan.a_is_other ? other : self;
  const char* full_name = plan.a_is_other ? "other" : "self";
  ETNS_TRY(check_same_sizes(ctx, out, "out", full, full_name));
  // The per-channel vector repeats per pixel only in NHWC memory.
  if (!is_nhwc_in_memory(full) || !is_nhwc_in_memory(out)) {
    return ctx.fail(Error::NotSupported,
                    "channel broadcast needs %s and out in NHWC memory order (channels_last)",
                    full_name);
  }
  return plan;
}

}  // namespace etns::kernels
