#include "tools/writers/import/builtins/broadcast.h"

#include <string>

#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/portable/view_copy/view_copy.h"
#include "tools/writers/import/builtins/common.h"

namespace etns::tools::builtins {

bool broadcast_walk_refused(const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                            const std::vector<int32_t>& out) {
  if (out.size() > 4 && out[0] != 1) return true;
  const auto skips = [](const std::vector<int32_t>& p, const std::vector<int32_t>& q) {
    return aligned_dim(p, 4, 2) == 1 && aligned_dim(p, 4, 3) == 1 && aligned_dim(p, 4, 1) > 1 &&
           aligned_dim(q, 4, 2) > 1;
  };
  return skips(a, b) || skips(b, a);
}

Merged merged_dims(const std::vector<int32_t>& sa, const std::vector<int32_t>& sb, const std::vector<int32_t>& sizes) {
  Merged m;
  int previous = -1;
  for (size_t k = 0; k < sizes.size(); ++k) {
    const int32_t da = aligned_dim(sa, sizes.size(), k), db = aligned_dim(sb, sizes.size(), k);
    if (sizes[k] == 1) continue;
    const int kind = da == 1 ? 1 : (db == 1 ? 2 : 0);
    if (kind == previous) {
      m.a.back() *= da;
      m.b.back() *= db;
      m.out.back() *= sizes[k];
    } else {
      m.a.push_back(da);
      m.b.push_back(db);
      m.out.push_back(sizes[k]);
    }
    previous = kind;
  }
  return m;
}

namespace {

// TFLite tensor x as a contiguous graph tensor of `sizes` (its broadcast):
// max(x, -128) with the constant spanning exactly the dims x repeats over.
int32_t expanded(OperatorImport& c, int32_t x, const std::vector<int32_t>& sizes, const std::string& role) {
  const size_t rank = sizes.size();
  std::vector<int32_t> sx(rank), floor(rank);
  for (size_t k = 0; k < rank; ++k) {
    sx[k] = aligned_dim(c.shape(x), rank, k);
    floor[k] = sx[k] == 1 ? sizes[k] : 1;
  }
  const int32_t gy = c.graph().s8(c.name(role), sizes, contiguous_order(rank));
  const auto maximum = [&](const std::vector<int32_t>& self, const std::vector<int32_t>& other, int32_t g_out) {
    const int32_t g_self = c.reshaped(x, self, c.name(role + "_in"));
    const int32_t g_floor = c.graph().tensor(c.name(role + "_floor"), runtime::ScalarType::Char, other,
                                             contiguous_order(other.size()), GraphTensor::Role::Constant,
                                             std::vector<uint8_t>(numel(other), 0x80));
    c.call(cortex_m::kMaximumContract, {{"self", GraphArg::of_tensor(g_self)},
                                        {"other", GraphArg::of_tensor(g_floor)},
                                        {"out", GraphArg::of_tensor(g_out)}},
           Step::Helper);
  };
  if (rank <= 4 && !broadcast_walk_refused(sx, floor, sizes)) {
    maximum(sx, floor, gy);
    return gy;
  }
  // Merged, x's dims and the repeated ones alternate, and cortex_m::maximum
  // walks any such pair; the result is then copied into the output's sizes.
  const Merged m = merged_dims(sx, floor, sizes);
  if (m.out.size() > 4) {
    c.fail("the broadcast of " + c.tensor_label(x) + " alternates over " + std::to_string(m.out.size()) +
           " dims (4 are imported)");
  }
  const int32_t merged = c.graph().s8(c.name(role + "_merged"), m.out, contiguous_order(m.out.size()));
  maximum(m.a, m.b, merged);
  c.call(portable::kViewCopyContract,
         {{"self", GraphArg::of_tensor(merged)},
          {"size", GraphArg::list(std::vector<int64_t>(sizes.begin(), sizes.end()))},
          {"out", GraphArg::of_tensor(gy)}},
         Step::Helper);
  return gy;
}

}  // namespace

PairedOperands paired_operands(OperatorImport& c, int32_t a, int32_t b, int32_t y) {
  PairedOperands r;
  if (c.shape(a) == c.shape(b) && c.shape(a) == c.shape(y)) {
    // Elementwise in memory order: every operand in one form, the one its
    // first input already has.
    r.form = c.elementwise_form(a);
    r.a = c.use(a, r.form);
    r.b = c.use(b, r.form);
    const bool channels_last = r.form == Form::ChannelsLast;
    r.b_sizes = channels_last ? OperatorImport::nchw(c.shape(b)) : c.shape(b);
    r.b_order = channels_last ? kChannelsLastOrder : contiguous_order(r.b_sizes.size());
    return r;
  }
  const std::vector<int32_t> sizes = broadcast_shape(c, c.shape(a), c.shape(b));
  if (sizes != c.shape(y)) c.fail("output shape is not the inputs' broadcast");
  // One NHWC tensor and C values (C > 1) repeated for every pixel: the
  // kernels' own channel broadcast, the small input as [1, C, 1, 1].
  const auto per_channel = [&](int32_t x) {
    return sizes.size() == 4 && sizes[3] > 1 && numel(c.shape(x)) == static_cast<uint64_t>(sizes[3]) &&
           c.shape(x).back() == sizes[3];
  };
  const bool a_channels = per_channel(a) && c.shape(b) == sizes, b_channels = per_channel(b) && c.shape(a) == sizes;
  if (a_channels || b_channels) {
    r.form = Form::ChannelsLast;
    const std::vector<int32_t> vector{1, sizes[3], 1, 1};
    r.a = a_channels ? c.reshaped(a, vector, c.name("self")) : c.use(a, Form::ChannelsLast);
    r.b = b_channels ? c.reshaped(b, vector, c.name("other")) : c.use(b, Form::ChannelsLast);
    r.b_sizes = b_channels ? vector : OperatorImport::nchw(sizes);
    r.b_order = b_channels ? contiguous_order(4) : kChannelsLastOrder;
    return r;
  }
  const auto operand = [&](int32_t x, const std::string& role) {
    if (numel(c.shape(x)) == numel(sizes)) return c.reshaped(x, sizes, c.name(role));
    return expanded(c, x, sizes, role);
  };
  r.a = operand(a, "self");
  r.b = operand(b, "other");
  r.b_sizes = sizes;
  r.b_order = contiguous_order(sizes.size());
  return r;
}

}  // namespace etns::tools::builtins
