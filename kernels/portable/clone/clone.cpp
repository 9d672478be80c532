#include <cstring>

#include "kernels/common/checks.h"
#include "kernels/portable/clone/clone.h"

namespace etns::portable {

using runtime::Error;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kCloneContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kMemoryFormat = kContract.arg("memory_format");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

Error clone_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  if (!ctx.is_null(kMemoryFormat)) {
    // ExecuTorch's MemoryFormat: 0 contiguous, 1 preserve; upstream's clone
    // takes only contiguous (the layout is the one the program gave out).
    ETNS_ASSIGN_OR_RETURN(const int64_t memory_format, ctx.int_value(kMemoryFormat));
    if (memory_format != 0) {
      return ctx.fail(Error::InvalidArgument, "memory_format = %lld, expected None or 0 (contiguous)",
                      static_cast<long long>(memory_format));
    }
  }
  ETNS_TRY(kernels::check_dtype(ctx, *out, "out", self->dtype));
  ETNS_TRY(kernels::check_same_sizes(ctx, *self, "self", *out, "out"));
  return check_stock_same_dim_order(ctx, *self, "self", *out, "out");
}

Error clone_run(const runtime::RunContext& ctx) {
  const Tensor& self = ctx.tensor(kSelf);
  const Tensor& out = ctx.tensor(kOut);
  // memmove: a hostile program may plan self and out overlapping.
  if (self.nbytes > 0 && self.data != out.data) std::memmove(out.data, self.data, self.nbytes);
  return Error::Ok;
}

}  // namespace etns::portable
