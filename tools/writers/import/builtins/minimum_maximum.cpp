#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// MINIMUM and MAXIMUM as cortex_m::minimum and maximum: they compare the int8
// codes as they are (TFLM does not requantise), with numpy broadcasting of
// the stored shapes.
namespace etns::tools::builtins {
namespace {

// Whether cortex_m::minimum/maximum refuse a general broadcast of these
// stored shapes (kernels/common/broadcast_walk.cpp): a rank-5 output with a
// leading dim other than 1, or, in the last 4 dims, an operand whose last two
// are 1 and third-last above 1 against one whose second-last is above 1
// (CMSIS-NN's row-scalar walk skips elements there).
bool broadcast_walk_refused(const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                            const std::vector<int32_t>& out) {
  if (out.size() > 4 && out[0] != 1) return true;
  const auto skips = [](const std::vector<int32_t>& p, const std::vector<int32_t>& q) {
    return aligned_dim(p, 4, 2) == 1 && aligned_dim(p, 4, 3) == 1 && aligned_dim(p, 4, 1) > 1 &&
           aligned_dim(q, 4, 2) > 1;
  };
  return skips(a, b) || skips(b, a);
}

// The broadcast of a and b over fewer dims: dims of size 1 everywhere
// dropped, neighbours that broadcast alike merged (the bytes do not move).
struct Merged {
  std::vector<int32_t> a, b, out;
};
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

void import_min_max(OperatorImport& c, const runtime::OperatorContract& contract) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  c.int8_grid(a);
  c.int8_grid(b);
  c.int8_grid(y);
  const std::vector<int32_t> sizes = broadcast_shape(c, c.shape(a), c.shape(b));
  if (sizes != c.shape(y)) c.fail("output shape is not the inputs' broadcast");
  const auto call = [&](int32_t ga, int32_t gb, int32_t gy) {
    c.call(contract, {{"self", GraphArg::of_tensor(ga)}, {"other", GraphArg::of_tensor(gb)}, {"out", GraphArg::of_tensor(gy)}});
  };
  // Same shapes, or one value against a tensor: a walk in memory order, so
  // any form the full-size operand has.
  const bool a_full = c.shape(a) == c.shape(y), b_full = c.shape(b) == c.shape(y);
  if ((a_full && b_full) || (a_full && numel(c.shape(b)) == 1) || (b_full && numel(c.shape(a)) == 1)) {
    const Form form = c.elementwise_form(a_full ? a : b);
    const int32_t ga = c.use(a, a_full ? form : Form::Stored), gb = c.use(b, b_full ? form : Form::Stored);
    call(ga, gb, c.define(y, form));
    return;
  }
  if (!broadcast_walk_refused(c.shape(a), c.shape(b), sizes)) {
    call(c.use(a, Form::Stored), c.use(b, Form::Stored), c.define(y, Form::Stored));
    return;
  }
  const Merged m = merged_dims(c.shape(a), c.shape(b), sizes);
  if (m.out.size() > 4) c.fail("the broadcast alternates over " + std::to_string(m.out.size()) + " dims (4 are imported)");
  const int32_t gy = c.graph().s8(c.name("merged"), m.out, contiguous_order(m.out.size()));
  call(c.reshaped(a, m.a, c.name("self")), c.reshaped(b, m.b, c.name("other")), gy);
  c.view(gy, y, Step::Helper);
}

}  // namespace

void import_minimum(OperatorImport& c) { import_min_max(c, cortex_m::kMinimumContract); }

void import_maximum(OperatorImport& c) { import_min_max(c, cortex_m::kMaximumContract); }

}  // namespace etns::tools::builtins
