#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/cortex_m/pad/pad.h"
#include "kernels/cortex_m/transpose/transpose.h"
#include "kernels/etns_ops/slice_copy/slice_copy.h"
#include "kernels/portable/view_copy/view_copy.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on int8 NHWC, or NHC taken as
// NH1C with a block width of 1 (space_to_batch_nd.cc, batch_to_space_nd.cc;
// reference_ops::SpaceToBatchND / BatchToSpaceND): data movement only. With
// the (padded) input seen as [N, H/bh, bh, W/bw, bw, C], output batch
// (i * bw + j) * N + n holds rows i, columns j of every bh x bw block of
// batch n: the 6-D transpose to [bh, bw, N, H/bh, W/bw, C]. cortex_m::transpose
// stops at rank 4, so it is two 4-D transposes, each moving one block index
// in front, skipped when that block size is 1:
//   [N*H/bh, bh, W/bw, bw*C]   perm {1, 0, 2, 3} -> [bh, N*H/bh, W/bw, bw*C]
//   [bh, N*H/bh*W/bw, bw, C]   perm {0, 2, 1, 3} -> [bh, bw, N*H/bh*W/bw, C]
// BATCH_TO_SPACE_ND runs the same two backwards, then crops with one
// etns_ops::slice_copy. SPACE_TO_BATCH_ND pads first, with cortex_m::pad, in
// the output zero point: TFLite's value (params.output_offset); TFLM never
// sets that field (docs/numerics.md). Both copy the codes whatever the
// quantisation says, as TFLM does.
namespace etns::tools::builtins {
namespace {

int32_t checked_dim(const OperatorImport& c, int64_t v) {
  if (v > std::numeric_limits<int32_t>::max()) {
    c.fail("a dim of " + std::to_string(v) + " elements does not fit int32");
  }
  return static_cast<int32_t>(v);
}

// What both share: int8 of rank 3 or 4 in and out, the block shape a
// constant of one positive int32 per spatial dim. Returns the input's 4-D
// NHWC shape (NHC as NH1C) and the block (bh, bw) (bw 1 for NHC).
struct Geometry {
  std::vector<int32_t> shape;  // the input's, 4-D
  int32_t bh = 1, bw = 1;
  size_t spatial = 2;
};

Geometry check_common(const OperatorImport& c, int32_t x, int32_t y, const char* pads_name) {
  for (const int32_t t : {x, y}) {
    if (c.tensor(t).type != tflite::TensorType::Int8) {
      c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) +
             ": int8 is imported (TFLM also takes float32, with input and output of one type)");
    }
  }
  const size_t rank = c.shape(x).size();
  if (rank != 3 && rank != 4) {
    c.fail(c.tensor_label(x) + " has rank " + std::to_string(rank) + ", TFLM takes 3 (NHC) or 4 (NHWC)");
  }
  c.expect_rank(y, rank);
  Geometry g;
  g.spatial = rank - 2;
  const std::vector<int32_t>& s = c.shape(x);
  g.shape = rank == 4 ? s : std::vector<int32_t>{s[0], s[1], 1, s[2]};
  if (!c.is_constant(c.input(1)) || !c.is_constant(c.input(2))) {
    c.fail("block_shape and " + std::string(pads_name) + " must be constant (etns imports no dynamic shapes)");
  }
  const std::vector<int32_t> block = c.int32_constant(c.input(1), g.spatial);
  for (const int32_t b : block) {
    if (b < 1) c.fail("block_shape " + std::to_string(b) + ", TFLM takes positive ones");
  }
  g.bh = block[0];
  g.bw = g.spatial == 2 ? block[1] : 1;
  return g;
}

void expect_output(const OperatorImport& c, int32_t y, const std::vector<int32_t>& expected4, size_t rank) {
  const std::vector<int32_t> expected =
      rank == 4 ? expected4 : std::vector<int32_t>{expected4[0], expected4[1], expected4[3]};
  if (c.shape(y) != expected) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", TFLM computes " +
           tflite::shape_text(expected));
  }
}

// A graph tensor of `sizes` holding `from`'s bytes (aten::view_copy).
int32_t view_as(OperatorImport& c, int32_t from, const std::vector<int32_t>& sizes, const std::string& suffix) {
  const int32_t to = c.graph().s8(c.name(suffix), sizes, contiguous_order(4));
  c.call(portable::kViewCopyContract,
         {{"self", GraphArg::of_tensor(from)},
          {"size", GraphArg::list(std::vector<int64_t>(sizes.begin(), sizes.end()))},
          {"out", GraphArg::of_tensor(to)}},
         Step::Helper);
  return to;
}

// cortex_m::transpose of the 4-D graph tensor `from` of `sizes` by `perm`.
int32_t transposed(OperatorImport& c, int32_t from, const std::vector<int32_t>& sizes,
                   const std::vector<int64_t>& perm, const std::string& suffix) {
  std::vector<int32_t> moved(4);
  for (size_t d = 0; d < 4; ++d) moved[d] = sizes[static_cast<size_t>(perm[d])];
  const int32_t to = c.graph().s8(c.name(suffix), moved, contiguous_order(4));
  c.call(cortex_m::kTransposeContract,
         {{"input", GraphArg::of_tensor(from)}, {"perm", GraphArg::list(perm)}, {"out", GraphArg::of_tensor(to)}});
  return to;
}

}  // namespace

void import_space_to_batch_nd(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  const Geometry g = check_common(c, x, y, "paddings");
  const std::vector<int32_t> pads = c.int32_constant(c.input(2), g.spatial * 2);
  for (const int32_t p : pads) {
    if (p < 0) c.fail("paddings " + std::to_string(p) + ", TFLM takes none negative");
  }
  const int32_t top = pads[0], bottom = pads[1];
  const int32_t left = g.spatial == 2 ? pads[2] : 0, right = g.spatial == 2 ? pads[3] : 0;
  const std::vector<int32_t>& s = g.shape;
  const int64_t hp = static_cast<int64_t>(s[1]) + top + bottom, wp = static_cast<int64_t>(s[2]) + left + right;
  if (hp % g.bh != 0 || wp % g.bw != 0) {
    c.fail("padded height " + std::to_string(hp) + " and width " + std::to_string(wp) +
           ": TFLM needs multiples of block_shape " + std::to_string(g.bh) + " and " + std::to_string(g.bw));
  }
  const int32_t ho = checked_dim(c, hp / g.bh), wo = checked_dim(c, wp / g.bw);
  const int32_t n = s[0], ch = s[3];
  const int32_t batch = checked_dim(c, static_cast<int64_t>(n) * g.bh * g.bw);
  expect_output(c, y, {batch, ho, wo, ch}, g.spatial + 2);
  const int32_t out_zero_point = c.int8_grid(y).zero_point;

  int32_t gx = -1;
  const std::vector<int32_t> blocks = {checked_dim(c, static_cast<int64_t>(n) * ho), g.bh, wo,
                                       checked_dim(c, static_cast<int64_t>(g.bw) * ch)};
  if (top == 0 && bottom == 0 && left == 0 && right == 0) {
    gx = c.reshaped(x, blocks, c.name("blocks"));
  } else {
    const int32_t source = c.reshaped(x, s, c.name("nhwc"));
    const int32_t padded = c.graph().s8(c.name("padded"), {n, checked_dim(c, hp), checked_dim(c, wp), ch},
                                        contiguous_order(4));
    c.call(cortex_m::kPadContract,
           {{"input", GraphArg::of_tensor(source)},
            {"pre_pad", GraphArg::list(std::vector<int64_t>{0, top, left, 0})},
            {"post_pad", GraphArg::list(std::vector<int64_t>{0, bottom, right, 0})},
            {"pad_value", GraphArg::integer(out_zero_point)},
            {"out", GraphArg::of_tensor(padded)}});
    gx = view_as(c, padded, blocks, "blocks");
  }
  // [N*Ho, bh, Wo, bw*C] -> [bh, N*Ho, Wo, bw*C]
  if (g.bh > 1) gx = transposed(c, gx, blocks, {1, 0, 2, 3}, "rows_first");
  // [bh, N*Ho*Wo, bw, C] -> [bh, bw, N*Ho*Wo, C]
  if (g.bw > 1) {
    const std::vector<int32_t> split = {g.bh, checked_dim(c, static_cast<int64_t>(n) * ho * wo), g.bw, ch};
    gx = transposed(c, view_as(c, gx, split, "columns"), split, {0, 2, 1, 3}, "columns_first");
  }
  // A 1x1 block without padding moves nothing: the view is the operator.
  const bool moved = g.bh > 1 || g.bw > 1 || top > 0 || bottom > 0 || left > 0 || right > 0;
  c.view(gx, y, moved ? Step::Helper : Step::Main);
}

void import_batch_to_space_nd(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  const Geometry g = check_common(c, x, y, "crops");
  const std::vector<int32_t> crops = c.int32_constant(c.input(2), g.spatial * 2);
  for (const int32_t p : crops) {
    if (p < 0) c.fail("crops " + std::to_string(p) + ", TFLM takes none negative");
  }
  const int32_t top = crops[0], bottom = crops[1];
  const int32_t left = g.spatial == 2 ? crops[2] : 0, right = g.spatial == 2 ? crops[3] : 0;
  const std::vector<int32_t>& s = g.shape;
  const int64_t area = static_cast<int64_t>(g.bh) * g.bw;
  if (s[0] % area != 0) {
    c.fail(c.tensor_label(x) + " has batch " + std::to_string(s[0]) + ": TFLM needs a multiple of the block's " +
           std::to_string(area) + " elements");
  }
  const int32_t n = static_cast<int32_t>(s[0] / area), h = s[1], w = s[2], ch = s[3];
  const int32_t hf = checked_dim(c, static_cast<int64_t>(h) * g.bh), wf = checked_dim(c, static_cast<int64_t>(w) * g.bw);
  if (static_cast<int64_t>(top) + bottom > hf || static_cast<int64_t>(left) + right > wf) {
    c.fail("crops " + std::to_string(top) + "+" + std::to_string(bottom) + " and " + std::to_string(left) + "+" +
           std::to_string(right) + " exceed the " + std::to_string(hf) + "x" + std::to_string(wf) + " result");
  }
  const int32_t ho = hf - top - bottom, wo = wf - left - right;
  expect_output(c, y, {n, ho, wo, ch}, g.spatial + 2);

  const int32_t hw = checked_dim(c, static_cast<int64_t>(n) * h * w);
  const std::vector<int32_t> split = {g.bh, g.bw, hw, ch};
  int32_t gx = c.reshaped(x, split, c.name("blocks"));
  // [bh, bw, N*H*W, C] -> [bh, N*H*W, bw, C]
  if (g.bw > 1) gx = transposed(c, gx, split, {0, 2, 1, 3}, "columns_last");
  // [bh, N*H, W, bw*C] -> [N*H, bh, W, bw*C]
  if (g.bh > 1) {
    const std::vector<int32_t> rows = {g.bh, checked_dim(c, static_cast<int64_t>(n) * h), w,
                                       checked_dim(c, static_cast<int64_t>(g.bw) * ch)};
    gx = transposed(c, view_as(c, gx, rows, "rows"), rows, {1, 0, 2, 3}, "rows_last");
  }
  if (top == 0 && bottom == 0 && left == 0 && right == 0) {
    c.view(gx, y, g.bh > 1 || g.bw > 1 ? Step::Helper : Step::Main);
    return;
  }
  const int32_t full = view_as(c, gx, {n, hf, wf, ch}, "uncropped");
  const bool nhwc = g.spatial == 2;
  const int32_t gy = nhwc ? c.define(y, Form::Stored) : c.graph().s8(c.name("cropped"), {n, ho, wo, ch}, contiguous_order(4));
  c.call(etns_ops::kSliceCopyContract,
         {{"self", GraphArg::of_tensor(full)},
          {"start", GraphArg::list(std::vector<int64_t>{0, top, left, 0})},
          {"step", GraphArg::list(std::vector<int64_t>{1, 1, 1, 1})},
          {"out", GraphArg::of_tensor(gy)}});
  if (!nhwc) c.view(gy, y, Step::Helper);
}

}  // namespace etns::tools::builtins
