#include <cstring>

#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/slice_window.h"
#include "tools/writers/tflite/tflite_reader.h"

// SLICE (slice.cc): begin and size, constant int32 or int64 of one type with
// one value per input axis; a size of -1 takes the rest of the axis.
// reference_ops::Slice copies the window in order. On a value known at import
// it is folded; on an int8 activation it is one etns_ops::slice_copy.
namespace etns::tools::builtins {
namespace {

// TFLM's kMaxDim in slice.cc.
constexpr size_t kTflmMaxSliceDims = 5;

std::vector<int64_t> index_values(const OperatorImport& c, int32_t t, tflite::TensorType type, size_t rank) {
  const tflite::Tensor& v = c.constant(t, type);
  const size_t width = type == tflite::TensorType::Int64 ? 8 : 4;
  if (c.shape(t).size() != 1 || v.data.size() != rank * width) {
    c.fail(c.tensor_label(t) + " has shape " + tflite::shape_text(c.shape(t)) + ", expected [" + std::to_string(rank) +
           "] (one value per input axis)");
  }
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (width == 8) {
      std::memcpy(&out[i], v.data.data() + i * 8, 8);
    } else {
      int32_t x = 0;
      std::memcpy(&x, v.data.data() + i * 4, 4);
      out[i] = x;
    }
  }
  return out;
}

}  // namespace

void import_slice(OperatorImport& c) {
  const int32_t x = c.input(0), begin_t = c.input(1), size_t_ = c.input(2), y = c.output();
  if (c.tensor(x).type != c.tensor(y).type) c.fail("input and output types differ");
  const tflite::TensorType index_type = c.tensor(begin_t).type;
  if (index_type != c.tensor(size_t_).type ||
      (index_type != tflite::TensorType::Int32 && index_type != tflite::TensorType::Int64)) {
    c.fail("begin is " + tflite::to_string(index_type) + " and size " + tflite::to_string(c.tensor(size_t_).type) +
           ": TFLM takes both int32 or both int64");
  }
  const std::vector<int32_t>& in = c.shape(x);
  const size_t rank = in.size();
  if (rank > kTflmMaxSliceDims) {
    c.fail(c.tensor_label(x) + " has rank " + std::to_string(rank) + ", TFLM's SLICE takes at most 5");
  }
  const std::vector<int64_t> begin = index_values(c, begin_t, index_type, rank);
  const std::vector<int64_t> size = index_values(c, size_t_, index_type, rank);
  Window w;
  for (size_t a = 0; a < rank; ++a) {
    const int64_t dim = in[a];
    if (begin[a] < 0 || begin[a] > dim) {
      c.fail("begin " + std::to_string(begin[a]) + " on axis " + std::to_string(a) + " is outside [0, " +
             std::to_string(dim) + "]");
    }
    const int64_t rest = dim - begin[a];
    const int64_t n = size[a] == -1 ? rest : size[a];
    if (n < 0 || n > rest) {
      c.fail("size " + std::to_string(size[a]) + " on axis " + std::to_string(a) + " from begin " +
             std::to_string(begin[a]) + ": expected -1 or [0, " + std::to_string(rest) + "] (the axis has " +
             std::to_string(dim) + ")");
    }
    w.start.push_back(static_cast<int32_t>(begin[a]));
    w.step.push_back(1);
    w.count.push_back(static_cast<int32_t>(n));
  }
  if (c.shape(y) != w.count) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", the slice is " +
           tflite::shape_text(w.count));
  }
  if (c.is_constant(x)) {
    tflm::StridedSlicePlan plan;
    for (size_t a = 0; a < rank; ++a) plan.axes.push_back({w.start[a], w.start[a] + w.count[a], 1});
    plan.output_shape = w.count;
    c.fold(y, tflm::strided_slice_bytes(plan, in, *c.constant_bytes(x), tflite::element_size(c.tensor(x).type)));
    return;
  }
  expect_int8_window_tensors(c, x, y, "SLICE of an activation");
  copy_window(c, x, y, w);
}

}  // namespace etns::tools::builtins
