#include "kernels/cortex_m/transpose/transpose.h"

#include "kernels/common/checks.h"

namespace etns::cortex_m {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

// arm_transpose_s8 takes at most 4 dims (upstream's kMaxSupportedDims).
constexpr uint8_t kMaxRank = 4;

constexpr const runtime::OperatorContract& kContract = kTransposeContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kPerm = kContract.arg("perm");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

void transpose_s8(const TransposeParams& p, const int8_t* input, int8_t* out) {
  kernels::fastest(kernels::kTransposeVariants)(p, input, out);
}

Error transpose_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList perm, ctx.int_list(kPerm));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  const int64_t rank = input->rank;
  if (rank < 1 || rank > kMaxRank) {
    return ctx.fail(Error::InvalidArgument, "input %s has rank %u, expected 1 to 4",
                    format_sizes(*input).text, static_cast<unsigned>(input->rank));
  }
  if (perm.size != rank) {
    return ctx.fail(Error::InvalidArgument, "perm has %u entries, expected %u (input's rank)",
                    static_cast<unsigned>(perm.size), static_cast<unsigned>(rank));
  }
  uint8_t source[kMaxRank] = {};
  bool seen[kMaxRank] = {};
  for (size_t d = 0; d < perm.size; ++d) {
    const int64_t entry = perm.at(d);
    if (entry < -rank || entry >= rank) {
      return ctx.fail(Error::InvalidArgument, "perm[%zu] = %lld, expected [%lld, %lld]", d,
                      static_cast<long long>(entry), static_cast<long long>(-rank),
                      static_cast<long long>(rank - 1));
    }
    const int64_t dim = entry < 0 ? entry + rank : entry;
    if (seen[dim]) {
      return ctx.fail(Error::InvalidArgument,
                      "perm[%zu] = %lld names dim %lld a second time; perm is not a permutation",
                      d, static_cast<long long>(entry), static_cast<long long>(dim));
    }
    seen[dim] = true;
    source[d] = static_cast<uint8_t>(dim);
  }
  bool out_matches = out->rank == rank;
  int32_t expected[kMaxRank] = {};
  for (int64_t d = 0; d < rank; ++d) {
    expected[d] = input->size(source[d]);
    out_matches = out_matches && out->size(static_cast<size_t>(d)) == expected[d];
  }
  if (!out_matches) {
    return ctx.fail(Error::InvalidArgument, "out %s differs from %s, input %s permuted by perm",
                    format_sizes(*out).text, format_sizes(expected, static_cast<size_t>(rank)).text,
                    format_sizes(*input).text);
  }
  ETNS_ASSIGN_OR_RETURN(TransposeParams * params, ctx.make_state<TransposeParams>());
  kernels::plan_strided_copy(*input, *out, source, params->plan);
  return Error::Ok;
}

Error transpose_run(const RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  if (out.numel > 0) {
    transpose_s8(ctx.state<TransposeParams>(), ctx.tensor(kInput).data_as<const int8_t>(),
                 out.data_as<int8_t>());
  }
  return Error::Ok;
}

}  // namespace etns::cortex_m
