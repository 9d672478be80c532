#include "kernels/etns_ops/channel_lookup/channel_lookup.h"

#include <cstdint>

#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::etns_ops {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kChannelLookupContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kTables = kContract.arg("tables");
constexpr runtime::Arg kDim = kContract.arg("dim");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error channel_lookup_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* tables, ctx.tensor(kTables));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_unary_layout(ctx, *self, *out));
  ETNS_ASSIGN_OR_RETURN(const int64_t dim_arg, ctx.int_value(kDim));
  const int64_t rank = self->rank;
  if (dim_arg < -rank || dim_arg >= rank || rank == 0) {
    return ctx.fail(Error::InvalidArgument, "dim %lld is outside self %s's dims", static_cast<long long>(dim_arg),
                    format_sizes(*self).text);
  }
  const uint8_t dim = static_cast<uint8_t>(dim_arg < 0 ? dim_arg + rank : dim_arg);
  // Every dim after `dim` in memory has size 1: each pixel's channels are
  // consecutive bytes.
  bool after = false;
  for (uint8_t k = 0; k < self->rank; ++k) {
    const uint8_t d = self->dim_order[k];
    if (after && self->size(d) != 1) {
      return ctx.fail(Error::InvalidArgument, "self %s has dim %u of size %d after channel dim %u in memory",
                      format_sizes(*self).text, unsigned{d}, static_cast<int>(self->size(d)), unsigned{dim});
    }
    if (d == dim) after = true;
  }
  const size_t channels = static_cast<size_t>(self->size(dim));
  if (tables->numel != channels * kChannelLookupEntries) {
    return ctx.fail(Error::InvalidArgument, "tables has %zu elements, expected %zu (256 per channel of dim %u)",
                    tables->numel, channels * kChannelLookupEntries, unsigned{dim});
  }
  if (!tables->is_constant) {
    return ctx.fail(Error::NotSupported, "tables is not a constant tensor (read in place, checked once at load)");
  }
  if (self->numel > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "self %s holds more than 2^31 - 1 elements", format_sizes(*self).text);
  }
  ETNS_ASSIGN_OR_RETURN(ChannelLookupParams * p, ctx.make_state<ChannelLookupParams>());
  p->channels = static_cast<int32_t>(channels);
  p->pixels = channels == 0 ? 0 : static_cast<int32_t>(self->numel / channels);
  return Error::Ok;
}

Error channel_lookup_run(const runtime::RunContext& ctx) {
  channel_lookup_s8(ctx.state<ChannelLookupParams>(), ctx.tensor(kTables).data_as<const int8_t>(),
                    ctx.tensor(kSelf).data_as<const int8_t>(), ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

void channel_lookup_s8(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out) {
  kernels::fastest(kernels::kChannelLookupVariants)(p, tables, in, out);
}

}  // namespace etns::etns_ops
