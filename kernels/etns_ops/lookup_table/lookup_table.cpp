#include "kernels/etns_ops/lookup_table/lookup_table.h"

#include <cstring>

#include "kernels/common/checks.h"
#include "kernels/common/memory_order.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kLookupTableContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kTable = kContract.arg("table");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error lookup_table_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(Tensor * table, ctx.tensor(kTable));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));
  ETNS_TRY(kernels::check_unary_layout(ctx, *self, *out));
  if (table->numel != kLookupTableEntries) {
    return ctx.fail(Error::InvalidArgument, "table has %zu elements, expected %zu (one per int8 code)",
                    table->numel, kLookupTableEntries);
  }
  if (!table->is_constant) {
    return ctx.fail(Error::NotSupported, "table is not a constant tensor (it is copied once, at load)");
  }

  ETNS_ASSIGN_OR_RETURN(LookupTableParams * stored, ctx.make_state<LookupTableParams>());
  std::memcpy(stored->table.values, table->data, kLookupTableEntries);
  return Error::Ok;
}

Error lookup_table_run(const runtime::RunContext& ctx) {
  const Tensor& out = ctx.tensor(kOut);
  lookup_table_s8(ctx.state<LookupTableParams>(), ctx.tensor(kSelf).data_as<const int8_t>(),
                  out.data_as<int8_t>(), out.numel);
  return Error::Ok;
}

void lookup_table_s8(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::fastest(kernels::kLookupTableVariants)(p, in, out, n);
}

#if ETNS_HAVE_MVE
void lookup_table_s8_mve(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8_mve(p.table, in, out, n);
}
#endif

#if ETNS_HAVE_HWY
void lookup_table_s8_hwy(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n) {
  kernels::lookup_s8_hwy(p.table, in, out, n);
}
#endif

}  // namespace etns::etns_ops
