#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"

#include <cstdint>

#include "kernels/common/checks.h"

namespace etns::etns_ops {
namespace {

using kernels::format_sizes;
using runtime::Error;
using runtime::PrepareContext;
using runtime::RunContext;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kResizeBilinearContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kRows = kContract.arg("rows");
constexpr runtime::Arg kCols = kContract.arg("cols");
constexpr runtime::Arg kOut = kContract.out();

// rows or cols: a constant of `count` triples, two indices in [0, limit) and
// a fraction in the accepted range.
Error check_triples(const PrepareContext& ctx, const Tensor& t, const char* name, int64_t count, int64_t limit,
                    const char* dim) {
  if (static_cast<int64_t>(t.numel) != 3 * count) {
    return ctx.fail(Error::InvalidArgument, "%s has %zu entries, expected %lld (3 * out's %s)", name, t.numel,
                    static_cast<long long>(3 * count), dim);
  }
  if (!t.is_constant) {
    return ctx.fail(Error::NotSupported, "%s is not a constant tensor (its entries are checked once, at load)", name);
  }
  const int32_t* v = static_cast<const int32_t*>(t.data);
  for (int64_t i = 0; i < 3 * count; ++i) {
    if (i % 3 == 2) {
      if (v[i] < kResizeBilinearMinFraction || v[i] > kResizeBilinearMaxFraction) {
        return ctx.fail(Error::InvalidArgument, "%s[%lld] = %d is a fraction outside [%d, %d]", name,
                        static_cast<long long>(i), static_cast<int>(v[i]), static_cast<int>(kResizeBilinearMinFraction),
                        static_cast<int>(kResizeBilinearMaxFraction));
      }
    } else if (v[i] < 0 || v[i] >= limit) {
      return ctx.fail(Error::InvalidArgument, "%s[%lld] = %d is outside self's %s, [0, %lld)", name,
                      static_cast<long long>(i), static_cast<int>(v[i]), dim, static_cast<long long>(limit));
    }
  }
  return Error::Ok;
}

}  // namespace

Error resize_bilinear_prepare(PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const Tensor* rows, ctx.tensor(kRows));
  ETNS_ASSIGN_OR_RETURN(const Tensor* cols, ctx.tensor(kCols));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  // Logical [N, C, H, W] (the contract: 4-D, NHWC in memory).
  if (out->size(0) != self->size(0) || out->size(1) != self->size(1)) {
    return ctx.fail(Error::InvalidArgument, "out %s and self %s differ in batch or channels", format_sizes(*out).text,
                    format_sizes(*self).text);
  }
  if (self->nbytes > static_cast<size_t>(INT32_MAX) || out->nbytes > static_cast<size_t>(INT32_MAX)) {
    return ctx.fail(Error::NotSupported, "self %s or out %s holds more than 2^31 - 1 bytes", format_sizes(*self).text,
                    format_sizes(*out).text);
  }
  ETNS_TRY(check_triples(ctx, *rows, "rows", out->size(2), self->size(2), "height"));
  ETNS_TRY(check_triples(ctx, *cols, "cols", out->size(3), self->size(3), "width"));
  ETNS_ASSIGN_OR_RETURN(ResizeBilinearParams * p, ctx.make_state<ResizeBilinearParams>());
  p->batches = self->size(0);
  p->channels = self->size(1);
  p->in_h = self->size(2);
  p->in_w = self->size(3);
  p->out_h = out->size(2);
  p->out_w = out->size(3);
  return Error::Ok;
}

Error resize_bilinear_run(const RunContext& ctx) {
  resize_bilinear_s8(ctx.state<ResizeBilinearParams>(), ctx.tensor(kRows).data_as<const int32_t>(),
                     ctx.tensor(kCols).data_as<const int32_t>(), ctx.tensor(kSelf).data_as<const int8_t>(),
                     ctx.tensor(kOut).data_as<int8_t>());
  return Error::Ok;
}

void resize_bilinear_s8(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                        int8_t* out) {
  kernels::fastest(kernels::kResizeBilinearVariants)(p, rows, cols, self, out);
}

}  // namespace etns::etns_ops
