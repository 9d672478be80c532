#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/cortex_m/transpose/transpose.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// SPACE_TO_DEPTH and DEPTH_TO_SPACE on int8 NHWC (space_to_depth.cc,
// depth_to_space.cc; reference_ops::SpaceToDepth / DepthToSpace): pure data
// movement. A b x b block of pixels becomes one pixel whose depth holds the
// block's pixels row by row, each with all its channels: depth index
// (by * b + bx) * C + c. With N and the block rows' index merged, both are the
// same 4-D transpose of the NHWC bytes, perm {0, 2, 1, 3}:
//   SPACE_TO_DEPTH  [N*H/b, b, W/b, b*C] -> [N*H/b, W/b, b, b*C]
//   DEPTH_TO_SPACE  [N*H, W, b, b*C]     -> [N*H, b, W, b*C]
// so each is aten::view_copy, cortex_m::transpose, aten::view_copy. TFLM
// copies the bytes whatever the quantisation says.
namespace etns::tools::builtins {
namespace {

int32_t checked_product(const OperatorImport& c, int64_t a, int64_t b) {
  const int64_t p = a * b;  // both below 2^31: no overflow in 64 bits
  if (p > std::numeric_limits<int32_t>::max()) {
    c.fail("a dim of " + std::to_string(p) + " elements does not fit int32");
  }
  return static_cast<int32_t>(p);
}

// The checks both share: int8 of rank 4 in and out, a positive block size.
void check_tensors(const OperatorImport& c, int32_t x, int32_t y) {
  for (const int32_t t : {x, y}) {
    if (c.tensor(t).type != tflite::TensorType::Int8) {
      c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) +
             ": int8 is imported (TFLM also takes float32, with input and output of one type)");
    }
  }
  c.expect_rank(x, 4);
  c.expect_rank(y, 4);
  if (c.options().block_size <= 0) {
    c.fail("block_size " + std::to_string(c.options().block_size) + ", TFLM takes a positive one");
  }
}

void expect_output(const OperatorImport& c, int32_t y, const std::vector<int32_t>& expected) {
  if (c.shape(y) != expected) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", TFLM computes " +
           tflite::shape_text(expected));
  }
}

// view x as `blocks`, transpose dims 1 and 2 into `moved`, view that as y.
void swap_middle_dims(OperatorImport& c, int32_t x, int32_t y, const std::vector<int32_t>& blocks) {
  const int32_t gx = c.reshaped(x, blocks, c.name("blocks"));
  const std::vector<int32_t> moved = {blocks[0], blocks[2], blocks[1], blocks[3]};
  const int32_t gt = c.graph().s8(c.name("moved"), moved, contiguous_order(4));
  c.call(cortex_m::kTransposeContract, {{"input", GraphArg::of_tensor(gx)},
                                        {"perm", GraphArg::list(std::vector<int64_t>{0, 2, 1, 3})},
                                        {"out", GraphArg::of_tensor(gt)}});
  c.view(gt, y, Step::Helper);
}

}  // namespace

void import_space_to_depth(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  check_tensors(c, x, y);
  const std::vector<int32_t>& s = c.shape(x);
  const int32_t b = c.options().block_size;
  if (s[1] % b != 0 || s[2] % b != 0) {
    c.fail(c.tensor_label(x) + " has height " + std::to_string(s[1]) + " and width " + std::to_string(s[2]) +
           ": TFLM needs both multiples of block_size " + std::to_string(b));
  }
  const int32_t depth = checked_product(c, s[3], checked_product(c, b, b));
  expect_output(c, y, {s[0], s[1] / b, s[2] / b, depth});
  swap_middle_dims(c, x, y, {checked_product(c, s[0], s[1] / b), b, s[2] / b, checked_product(c, b, s[3])});
}

void import_depth_to_space(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  check_tensors(c, x, y);
  const std::vector<int32_t>& s = c.shape(x);
  const int32_t b = c.options().block_size;
  const int32_t area = checked_product(c, b, b);
  if (s[3] % area != 0) {
    c.fail(c.tensor_label(x) + " has depth " + std::to_string(s[3]) + ": TFLM needs a multiple of block_size^2 " +
           std::to_string(area));
  }
  const int32_t channels = s[3] / area;
  expect_output(c, y, {s[0], checked_product(c, s[1], b), checked_product(c, s[2], b), channels});
  swap_middle_dims(c, x, y, {checked_product(c, s[0], s[1]), s[2], b, checked_product(c, b, channels)});
}

}  // namespace etns::tools::builtins
