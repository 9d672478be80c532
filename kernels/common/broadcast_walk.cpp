#include "kernels/common/broadcast_walk.h"

#include <utility>

#include "kernels/common/checks.h"

namespace etns::kernels {
namespace {

using runtime::Error;
using runtime::PrepareContext;
using runtime::Result;
using runtime::Tensor;

// Upstream sizes its broadcast result for at most 5 dims (kTensorDimensionLimit
// in cortex_m_ops_common.h) and hands CMSIS-NN the last 4 as (n, h, w, c).
constexpr uint8_t kMaxRank = 5;
constexpr uint8_t kCmsisRank = 4;

// t's size at position k of a right-aligned rank-`rank` view (missing leading dims are 1).
size_t aligned_size(const Tensor& t, uint8_t rank, uint8_t k) {
  const int d = static_cast<int>(k) - (rank - t.rank);
  return d < 0 ? 1 : static_cast<size_t>(t.size(static_cast<size_t>(d)));
}

// The positions (in the right-aligned rank-`rank` view) of t's dims larger or
// smaller than 1, in memory order from outermost. Size-1 dims do not move any
// element, so two tensors of equal aligned sizes store their elements in the
// same order exactly when these lists agree.
struct MemoryOrder {
  uint8_t count = 0;
  uint8_t dims[kMaxRank] = {};

  bool operator==(const MemoryOrder& o) const {
    if (count != o.count) return false;
    for (uint8_t i = 0; i < count; ++i) {
      if (dims[i] != o.dims[i]) return false;
    }
    return true;
  }
  // Memory order is the logical (row-major) order.
  bool is_logical() const {
    for (uint8_t i = 1; i < count; ++i) {
      if (dims[i] <= dims[i - 1]) return false;
    }
    return true;
  }
};

MemoryOrder memory_order(const Tensor& t, uint8_t rank) {
  MemoryOrder m;
  for (uint8_t i = 0; i < t.rank; ++i) {
    const uint8_t d = t.dim_order[i];
    if (t.size(d) != 1) m.dims[m.count++] = static_cast<uint8_t>(d + (rank - t.rank));
  }
  return m;
}

Error check_same_order(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                       const Tensor& b, const char* b_name, uint8_t rank) {
  if (memory_order(a, rank) == memory_order(b, rank)) return Error::Ok;
  return ctx.fail(Error::InvalidArgument, "%s and %s have different dim orders", a_name, b_name);
}

// Upstream's walk (arm_minimum_s8 and arm_maximum_s8, general broadcast) steps an operand whose
// W and C are 1 by one element per row and then by C more when the other
// operand's W is larger: with H > 1 it reads every second element and past its
// end. Returns true for those shapes (of a non-empty out).
bool upstream_skips_rows(const size_t a[4], const size_t b[4]) {
  return a[2] == 1 && a[3] == 1 && a[1] > 1 && b[2] > 1;
}

// A row-major [dims] block per operand strides, with size-1 dims dropped and
// neighbours that both operands walk contiguously merged, right-aligned into p.
void collapse(const size_t out_dims[4], const size_t self_dims[4], const size_t other_dims[4],
              BroadcastWalk& p) {
  size_t self_strides[4];
  size_t other_strides[4];
  size_t self_step = 1;
  size_t other_step = 1;
  for (int k = kCmsisRank - 1; k >= 0; --k) {
    self_strides[k] = self_dims[k] == 1 ? 0 : self_step;
    other_strides[k] = other_dims[k] == 1 ? 0 : other_step;
    self_step *= self_dims[k];
    other_step *= other_dims[k];
  }
  size_t dims[4];
  size_t ss[4];
  size_t os[4];
  int used = 0;
  for (int k = 0; k < kCmsisRank; ++k) {
    if (out_dims[k] == 1) continue;
    if (used > 0 && ss[used - 1] == self_strides[k] * out_dims[k] &&
        os[used - 1] == other_strides[k] * out_dims[k]) {
      dims[used - 1] *= out_dims[k];
      ss[used - 1] = self_strides[k];
      os[used - 1] = other_strides[k];
      continue;
    }
    dims[used] = out_dims[k];
    ss[used] = self_strides[k];
    os[used] = other_strides[k];
    ++used;
  }
  p = BroadcastWalk{};
  for (int i = 0; i < used; ++i) {
    const int k = kCmsisRank - used + i;
    p.dims[k] = dims[i];
    p.self_strides[k] = ss[i];
    p.other_strides[k] = os[i];
  }
}

}  // namespace

Result<BroadcastWalk> plan_broadcast_walk(PrepareContext& ctx, const BroadcastArgs& args,
                                          const char* cmsis_name) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* self, ctx.tensor(args.self));
  ETNS_ASSIGN_OR_RETURN(const Tensor* other, ctx.tensor(args.other));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(args.out));
  const char* self_name = args.self.name();
  const char* other_name = args.other.name();
  const char* out_name = args.out.name();
  for (const auto& [t, name] : {std::pair{self, self_name}, std::pair{other, other_name}}) {
    if (t->rank > kMaxRank) {
      return ctx.fail(Error::InvalidArgument, "%s has rank %u, expected at most 5", name,
                      static_cast<unsigned>(t->rank));
    }
  }

  // The broadcast shape, which out must have.
  const uint8_t rank = self->rank > other->rank ? self->rank : other->rank;
  int32_t shape[kMaxRank];
  bool same_sizes = true;
  for (uint8_t k = 0; k < rank; ++k) {
    const size_t a = aligned_size(*self, rank, k);
    const size_t b = aligned_size(*other, rank, k);
    if (a != b && a != 1 && b != 1) {
      return ctx.fail(Error::InvalidArgument, "%s %s and %s %s do not broadcast", self_name,
                      format_sizes(*self).text, other_name, format_sizes(*other).text);
    }
    same_sizes = same_sizes && a == b;
    shape[k] = static_cast<int32_t>(a == 1 ? b : a);
  }
  bool out_matches = out->rank == rank;
  for (uint8_t k = 0; out_matches && k < rank; ++k) out_matches = out->size(k) == shape[k];
  if (!out_matches) {
    return ctx.fail(Error::InvalidArgument,
                    "%s %s differs from %s, the broadcast shape of %s %s and %s %s", out_name,
                    format_sizes(*out).text, format_sizes(shape, rank).text, self_name,
                    format_sizes(*self).text, other_name, format_sizes(*other).text);
  }
  if (rank > kCmsisRank && shape[0] != 1) {
    return ctx.fail(Error::NotSupported,
                    "%s %s: upstream's %s walks only the last 4 dims and would "
                    "leave %s partly unwritten; a rank-5 %s needs a leading 1",
                    out_name, format_sizes(*out).text, cmsis_name, out_name, out_name);
  }

  BroadcastWalk p;
  if (same_sizes || self->numel == 1 || other->numel == 1) {
    // One flat walk in memory order (CMSIS-NN's no-broadcast and scalar paths):
    // the full-size tensors must store their elements in one order.
    const bool self_full = same_sizes || other->numel == 1;
    const bool other_full = same_sizes || !self_full;
    if (self_full && other_full) {
      ETNS_TRY(check_same_order(ctx, *self, self_name, *other, other_name, rank));
    }
    ETNS_TRY(self_full ? check_same_order(ctx, *out, out_name, *self, self_name, rank)
                       : check_same_order(ctx, *out, out_name, *other, other_name, rank));
    p.dims[3] = out->numel;
    p.self_strides[3] = self_full ? 1 : 0;
    p.other_strides[3] = other_full ? 1 : 0;
  } else {
    // Upstream walks the logical sizes over the physical buffers, which is the
    // broadcast only for tensors stored in logical order.
    for (const auto& [t, name] :
         {std::pair{self, self_name}, std::pair{other, other_name}, std::pair{out, out_name}}) {
      if (!memory_order(*t, rank).is_logical()) {
        return ctx.fail(Error::NotSupported,
                        "%s %s is not stored in logical order; upstream broadcasts the "
                        "logical sizes over its buffer and pairs other elements",
                        name, format_sizes(*t).text);
      }
    }
    size_t self_dims[kCmsisRank];
    size_t other_dims[kCmsisRank];
    size_t out_dims[kCmsisRank];
    for (uint8_t k = 0; k < kCmsisRank; ++k) {
      self_dims[k] = aligned_size(*self, kCmsisRank, k);
      other_dims[k] = aligned_size(*other, kCmsisRank, k);
      out_dims[k] = self_dims[k] == 1 ? other_dims[k] : self_dims[k];
    }
    if (out->numel != 0 && (upstream_skips_rows(self_dims, other_dims) ||
                            upstream_skips_rows(other_dims, self_dims))) {
      return ctx.fail(Error::NotSupported,
                      "%s %s and %s %s: upstream's %s reads every second "
                      "element (and past the end) of the operand whose last two dims are 1 "
                      "here, so its result is not the broadcast",
                      self_name, format_sizes(*self).text, other_name, format_sizes(*other).text,
                      cmsis_name);
    }
    collapse(out_dims, self_dims, other_dims, p);
  }

  return p;
}

Error prepare_broadcast_walk(PrepareContext& ctx, const BroadcastArgs& args,
                             const char* cmsis_name) {
  ETNS_ASSIGN_OR_RETURN(const BroadcastWalk p, plan_broadcast_walk(ctx, args, cmsis_name));
  ETNS_ASSIGN_OR_RETURN(BroadcastWalk * state, ctx.make_state<BroadcastWalk>());
  *state = p;
  return Error::Ok;
}

}  // namespace etns::kernels
