#include <cstring>

#include "kernels/common/checks.h"
#include "kernels/portable/view_copy/view_copy.h"

namespace etns::portable {

using runtime::Error;
using runtime::Tensor;

namespace {

constexpr const runtime::OperatorContract& kContract = kViewCopyContract;
constexpr runtime::Arg kSelf = kContract.arg("self");
constexpr runtime::Arg kSize = kContract.arg("size");
constexpr runtime::Arg kOut = kContract.out();

}  // namespace

// self and out in the default dim order (upstream's checks), so out's bytes
// are self's.
Error view_copy_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(kSelf));
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList size, ctx.int_list(kSize));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(kOut));
  ETNS_TRY(check_default_dim_order(ctx, *self, "self"));
  ETNS_TRY(check_default_dim_order(ctx, *out, "out"));
  ETNS_TRY(kernels::check_dtype(ctx, *out, "out", self->dtype));
  if (size.size != out->rank) {
    return ctx.fail(Error::InvalidArgument, "size has %u entries, out has rank %u", static_cast<unsigned>(size.size),
                    static_cast<unsigned>(out->rank));
  }
  // The known sizes' product (in 64 bits: the same verdict on the 32-bit
  // target; each is one of out's sizes, which the loader bounds), and where
  // the one -1 is.
  size_t inferred = size.size;
  uint64_t known = 1;
  for (size_t d = 0; d < size.size; ++d) {
    const int64_t s = size.at(d);
    if (s == -1 && inferred == size.size) {
      inferred = d;
      continue;
    }
    if (s < 0) return ctx.fail(Error::InvalidArgument, "size[%zu] = %lld, expected >= 0 (or one -1)", d, static_cast<long long>(s));
    if (s != out->sizes[d]) {
      return ctx.fail(Error::InvalidArgument, "size[%zu] = %lld, but out %s", d, static_cast<long long>(s),
                      kernels::format_sizes(*out).text);
    }
    known *= static_cast<uint64_t>(s);
  }
  if (inferred != size.size) {
    const uint64_t numel = self->numel;
    if (known == 0 || numel % known != 0 || numel / known != static_cast<uint64_t>(out->sizes[inferred])) {
      return ctx.fail(Error::InvalidArgument, "size[%zu] = -1 cannot make %zu elements into out %s", inferred,
                      self->numel, kernels::format_sizes(*out).text);
    }
  } else if (known != self->numel) {
    return ctx.fail(Error::InvalidArgument, "self %s has %zu elements, size asks for %llu",
                    kernels::format_sizes(*self).text, self->numel, static_cast<unsigned long long>(known));
  }
  return Error::Ok;
}

Error view_copy_run(const runtime::RunContext& ctx) {
  const Tensor& self = ctx.tensor(kSelf);
  const Tensor& out = ctx.tensor(kOut);
  // memmove: a hostile program may plan self and out overlapping.
  if (self.nbytes > 0 && self.data != out.data) std::memmove(out.data, self.data, self.nbytes);
  return Error::Ok;
}

}  // namespace etns::portable
