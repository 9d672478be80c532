#include "kernels/cortex_m_ns/sub/sub.h"

#include <cstring>

#include "kernels/common/binary_args.h"
#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::cortex_m_ns {
namespace {

using kernels::check_same_sizes;
using kernels::format_sizes;
using kernels::read_int_in_range;
using runtime::Error;
using runtime::Tensor;

// The arguments quantized_sub shares with quantized_add.
constexpr kernels::RequantizedBinaryArgIds kArgs =
    kernels::requantized_binary_arg_ids(kSubContract);
constexpr runtime::Arg kSelf = kArgs.common.self;
constexpr runtime::Arg kOther = kArgs.common.other;
constexpr runtime::Arg kOut = kArgs.common.out;

// The kernel's blocks of C bytes are pixels only if C is the innermost dim in
// memory once size-1 dims are skipped (channels_last, or H = W = 1), or if
// C = 1 and the other operand is a scalar.
bool channels_innermost(const Tensor& t) {
  if (t.size(1) == 1) return true;
  for (int i = t.rank - 1; i >= 0; --i) {
    const uint8_t d = t.dim_order[i];
    if (d == 1) return true;
    if (t.size(d) != 1) return false;
  }
  return false;
}

// A channel broadcast runs the kernel on chunks of whole pixels against the
// small operand repeated in scratch: one call per pixel (16 channels: 16
// elements) spent most of its instructions on the call's set-up.
constexpr size_t kBroadcastChunkBytes = 512;
size_t broadcast_chunk(size_t channels) {
  if (channels == 0) return 0;
  return channels * (channels < kBroadcastChunkBytes ? kBroadcastChunkBytes / channels : 1);
}

// Fills the walk for self and other of different shapes: the channel
// broadcast of operators.md §3.3 (both 4-D, same C, one of them C elements).
Error prepare_broadcast(const runtime::PrepareContext& ctx, const Tensor& self, const Tensor& other,
                        const Tensor& out, SubState& state) {
  const bool candidates = self.rank == 4 && other.rank == 4 && self.size(1) == other.size(1);
  const size_t channels = candidates ? static_cast<size_t>(self.size(1)) : 0;
  const bool self_small = candidates && self.numel == channels;
  const bool other_small = candidates && other.numel == channels;
  if (!self_small && !other_small) {
    return ctx.fail(Error::InvalidArgument,
                    "self %s and other %s differ in shape, expected equal shapes or a channel "
                    "broadcast (both 4-D, same C, one with C elements)",
                    format_sizes(self).text, format_sizes(other).text);
  }
  const Tensor& big = self_small ? other : self;
  const char* big_name = self_small ? "other" : "self";
  ETNS_TRY(check_same_sizes(ctx, big, big_name, out, "out"));
  ETNS_TRY(kernels::check_same_memory_order(ctx, big, big_name, out, "out"));
  if (!channels_innermost(big)) {
    return ctx.fail(Error::InvalidArgument,
                    "channel broadcast needs %s in channels_last order (dim_order 0,2,3,1)",
                    big_name);
  }
  state.block = channels;
  state.self_step = self_small ? 0 : channels;
  state.other_step = self_small ? channels : 0;
  return Error::Ok;
}

}  // namespace

Error sub_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * other, ctx.tensor(kOther));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));

  ETNS_ASSIGN_OR_RETURN(const kernels::BinaryQuantization q,
                        kernels::read_binary_quantization(ctx, kArgs));
  SubParams p;
  p.self_zero_point = q.self_zero_point;
  p.self = q.self;
  p.other_zero_point = q.other_zero_point;
  p.other = q.other;
  p.out_zero_point = q.out_zero_point;
  p.out = q.out;
  ETNS_ASSIGN_OR_RETURN(p.act_min, read_int_in_range(ctx, kArgs.activation_min, -128, 127));
  ETNS_ASSIGN_OR_RETURN(p.act_max, read_int_in_range(ctx, kArgs.activation_max, -128, 127));
  // Upstream's C and MVE clamps disagree for an empty range; no exporter emits one.
  if (p.act_min > p.act_max) {
    return ctx.fail(Error::InvalidArgument,
                    "activation_min = %d > activation_max = %d, expected min <= max",
                    static_cast<int>(p.act_min), static_cast<int>(p.act_max));
  }

  SubState state;
  state.params = p;
  if (self->same_sizes(*other)) {
    // The kernel walks flat buffers, so all three must share one memory order.
    ETNS_TRY(check_same_sizes(ctx, *self, "self", *out, "out"));
    ETNS_TRY(kernels::check_same_memory_order(ctx, *self, "self", *other, "other"));
    ETNS_TRY(kernels::check_same_memory_order(ctx, *self, "self", *out, "out"));
    state.block = out->numel;
    state.self_step = out->numel;
    state.other_step = out->numel;
  } else {
    ETNS_TRY(prepare_broadcast(ctx, *self, *other, *out, state));
    ctx.request_scratch(broadcast_chunk(state.block));
  }

  ETNS_ASSIGN_OR_RETURN(SubState * stored, ctx.make_state<SubState>());
  *stored = state;
  return Error::Ok;
}

Error sub_run(const runtime::RunContext& ctx) {
  const SubState& state = ctx.state<SubState>();
  const int8_t* self = ctx.tensor(kSelf).data_as<const int8_t>();
  const int8_t* other = ctx.tensor(kOther).data_as<const int8_t>();
  const runtime::Tensor& out_tensor = ctx.tensor(kOut);
  int8_t* out = out_tensor.data_as<int8_t>();
  const size_t numel = out_tensor.numel;
  if (numel == 0) return Error::Ok;
  if (state.self_step != 0 && state.other_step != 0) {
    sub_s8(state.params, self, other, out, numel);
    return Error::Ok;
  }
  // Channel broadcast: the small operand repeated over a chunk of pixels.
  const size_t chunk = broadcast_chunk(state.block);
  int8_t* repeated = reinterpret_cast<int8_t*>(ctx.scratch.data());
  const int8_t* small = state.self_step == 0 ? self : other;
  for (size_t at = 0; at < chunk; at += state.block) std::memcpy(repeated + at, small, state.block);
  for (size_t done = 0; done < numel; done += chunk) {
    const size_t n = numel - done < chunk ? numel - done : chunk;
    if (state.self_step == 0) {
      sub_s8(state.params, repeated, other + done, out + done, n);
    } else {
      sub_s8(state.params, self + done, repeated, out + done, n);
    }
  }
  return Error::Ok;
}

void sub_s8(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n) {
  kernels::fastest(kernels::kSubVariants)(p, self, other, out, n);
}

}  // namespace etns::cortex_m_ns
