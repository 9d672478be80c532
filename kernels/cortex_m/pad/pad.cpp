#include "kernels/cortex_m/pad/pad.h"

#include <cstring>

#include "kernels/common/checks.h"

namespace etns::cortex_m {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kPadContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kPrePad = kContract.arg("pre_pad");
constexpr runtime::Arg kPostPad = kContract.arg("post_pad");
constexpr runtime::Arg kPadValue = kContract.arg("pad_value");
constexpr runtime::Arg kOut = kContract.out();

// arm_pad_s8 works on 4 dims; upstream takes ranks 1 to 4 and pads of length 4.
constexpr uint8_t kRank = 4;
// Physical position k (n, h, w, c) of a channels_last tensor holds logical dim kNhwc[k].
constexpr uint8_t kNhwc[kRank] = {0, 2, 3, 1};

bool is_contiguous(const Tensor& t) {
  for (uint8_t i = 0; i < t.rank; ++i) {
    if (t.dim_order[i] != i) return false;
  }
  return true;
}

bool is_channels_last(const Tensor& t) {
  if (t.rank != kRank) return false;
  for (uint8_t i = 0; i < kRank; ++i) {
    if (t.dim_order[i] != kNhwc[i]) return false;
  }
  return true;
}

// Reads pre_pad or post_pad: 4 entries, each in [0, 2^31 - 1].
Error read_pads(const PrepareContext& ctx, runtime::Arg arg, int32_t pads[kRank]) {
  const char* name = arg.name();
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList list, ctx.int_list(arg));
  if (list.size != kRank) {
    return ctx.fail(Error::InvalidArgument,
                    "%s has %u entries, expected 4 (physical n, h, w, c)", name,
                    static_cast<unsigned>(list.size));
  }
  for (size_t k = 0; k < kRank; ++k) {
    const int64_t pad = list.at(k);
    if (pad < 0 || pad > INT32_MAX) {
      return ctx.fail(Error::InvalidArgument, "%s[%zu] = %lld, expected [0, %ld]", name, k,
                      static_cast<long long>(pad), static_cast<long>(INT32_MAX));
    }
    pads[k] = static_cast<int32_t>(pad);
  }
  return Error::Ok;
}

}  // namespace

void pad_s8(const PadParams& p, const int8_t* input, int8_t* out) {
  kernels::fastest(kernels::kPadVariants)(p, input, out);
}

Error pad_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  PadParams p;
  ETNS_TRY(read_pads(ctx, kPrePad, p.pre));
  ETNS_TRY(read_pads(ctx, kPostPad, p.post));
  ETNS_ASSIGN_OR_RETURN(p.pad_value, kernels::read_int_in_range(ctx, kPadValue, -128, 127));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  const uint8_t rank = input->rank;
  if (rank < 1 || rank > kRank) {
    return ctx.fail(Error::InvalidArgument, "input %s has rank %u, expected 1 to 4",
                    format_sizes(*input).text, static_cast<unsigned>(rank));
  }

  // Physical position k holds logical dim `logical[k]`; -1 for the leading
  // positions a rank < 4 tensor lacks.
  int logical[kRank] = {-1, -1, -1, -1};
  if (is_channels_last(*input)) {
    for (uint8_t k = 0; k < kRank; ++k) logical[k] = kNhwc[k];
  } else if (is_contiguous(*input)) {
    for (uint8_t i = 0; i < rank; ++i) logical[kRank - rank + i] = i;
  } else {
    return ctx.fail(Error::NotSupported,
                    "input %s is neither contiguous nor 4-D channels_last; upstream's pads "
                    "are in one of those physical orders",
                    format_sizes(*input).text);
  }
  int32_t expected[kRank] = {};
  for (uint8_t k = 0; k < kRank; ++k) {
    if (logical[k] < 0) {
      if (p.pre[k] != 0 || p.post[k] != 0) {
        return ctx.fail(Error::InvalidArgument,
                        "pre_pad[%u] = %d and post_pad[%u] = %d pad a dim a rank-%u input "
                        "does not have; expected 0",
                        static_cast<unsigned>(k), static_cast<int>(p.pre[k]),
                        static_cast<unsigned>(k), static_cast<int>(p.post[k]),
                        static_cast<unsigned>(rank));
      }
      continue;
    }
    const int32_t size = input->size(static_cast<size_t>(logical[k]));
    p.input_dims[k] = size;
    const int64_t padded = int64_t{size} + p.pre[k] + p.post[k];
    expected[logical[k]] = padded > INT32_MAX ? -1 : static_cast<int32_t>(padded);
  }
  bool out_matches = out->rank == rank;
  for (uint8_t i = 0; out_matches && i < rank; ++i) {
    out_matches = expected[i] >= 0 && out->size(i) == expected[i];
  }
  if (!out_matches) {
    return ctx.fail(Error::InvalidArgument,
                    "out %s differs from %s, input %s padded by pre_pad and post_pad",
                    format_sizes(*out).text, format_sizes(expected, rank).text,
                    format_sizes(*input).text);
  }
  ETNS_TRY(kernels::check_same_dim_order(ctx, *input, "input", *out, "out"));

  ETNS_ASSIGN_OR_RETURN(PadParams * params, ctx.make_state<PadParams>());
  *params = p;
  return Error::Ok;
}

Error pad_run(const RunContext& ctx) {
  pad_s8(ctx.state<PadParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
         ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

}  // namespace etns::cortex_m
