#include "tools/writers/import/tflm/strided_slice.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tools/common/failure.h"

namespace etns::tools::tflm {
namespace {

constexpr size_t kMaxDims = 4;  // strided_slice_common.cc's kMaxDim

bool has_bit(int32_t mask, size_t axis) { return (static_cast<uint32_t>(mask) >> axis & 1U) != 0; }

int32_t clamp(int64_t v, int32_t lo, int32_t hi) {
  return static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(v, lo), hi));
}

// strided_slice_logic.h's StartForAxis (Prepare): the mask replaces the
// index by the lowest or highest int before the negative wrap and the clamp.
int32_t prepare_start(const StridedSliceParams& p, int32_t size, size_t axis) {
  const int32_t stride = p.strides[axis];
  int64_t start = p.begin[axis];
  if (has_bit(p.begin_mask, axis)) {
    start = stride > 0 ? std::numeric_limits<int32_t>::lowest() : std::numeric_limits<int32_t>::max();
  }
  if (start < 0) start += size;
  return stride > 0 ? clamp(start, 0, size) : clamp(start, -1, size - 1);
}

// StopForAxis (Prepare): a shrunk axis ends one past its start.
int32_t prepare_stop(const StridedSliceParams& p, int32_t size, size_t axis, int32_t start) {
  if (has_bit(p.shrink_axis_mask, axis)) return start + 1;
  const int32_t stride = p.strides[axis];
  int64_t stop = p.end[axis];
  if (has_bit(p.end_mask, axis)) {
    stop = stride > 0 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int32_t>::lowest();
  }
  if (stop < 0) stop += size;
  return stride > 0 ? clamp(stop, 0, size) : clamp(stop, -1, size - 1);
}

// StridedSliceStartForAxis (Eval): wrap, clamp, then the mask.
int32_t eval_start(const StridedSliceParams& p, int32_t size, size_t axis) {
  const int32_t stride = p.strides[axis];
  int64_t start = p.begin[axis];
  if (start < 0) start += size;
  int32_t clamped = stride > 0 ? clamp(start, 0, size) : clamp(start, -1, size - 1);
  if (has_bit(p.begin_mask, axis)) clamped = stride > 0 ? 0 : size - 1;
  return clamped;
}

// StridedSliceEndForAxis (Eval), `offset` false as TFLM leaves it.
int32_t eval_stop(const StridedSliceParams& p, int32_t size, size_t axis, int32_t start) {
  if (has_bit(p.shrink_axis_mask, axis)) return start >= size ? start : start + 1;
  const int32_t stride = p.strides[axis];
  int64_t stop = p.end[axis];
  if (stop < 0) stop += size;
  int32_t clamped = stride > 0 ? clamp(stop, 0, size) : clamp(stop, -1, size - 1);
  if (has_bit(p.end_mask, axis)) clamped = stride > 0 ? size : -1;
  return clamped;
}

}  // namespace

int32_t SliceAxis::count() const {
  int32_t n = 0;
  for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride) ++n;
  return n;
}

StridedSlicePlan strided_slice_plan(const std::vector<int32_t>& input_shape, const StridedSliceParams& p,
                                    const std::string& what) {
  const size_t dims = input_shape.size();
  if (dims > kMaxDims) {
    throw Failure(what + ": input rank " + std::to_string(dims) + ", TFLM's STRIDED_SLICE takes at most 4");
  }
  if (p.begin.size() != dims || p.end.size() != dims || p.strides.size() != dims) {
    throw Failure(what + ": begin, end and strides hold " + std::to_string(p.begin.size()) + ", " +
                  std::to_string(p.end.size()) + " and " + std::to_string(p.strides.size()) +
                  " values, expected one per input axis (" + std::to_string(dims) + ")");
  }
  StridedSlicePlan plan;
  uint64_t shaped = 1, walked = 1;
  for (size_t axis = 0; axis < dims; ++axis) {
    const int32_t size = input_shape[axis];
    const int32_t stride = p.strides[axis];
    if (stride == 0) throw Failure(what + ": stride 0 on axis " + std::to_string(axis) + " (TFLM refuses it)");
    const int32_t begin = prepare_start(p, size, axis);
    const int32_t end = prepare_stop(p, size, axis, begin);
    if (!has_bit(p.shrink_axis_mask, axis)) {
      // Prepare divides in float, as TFLM does.
      const auto dim = static_cast<int32_t>(std::ceil(static_cast<float>(end - begin) / static_cast<float>(stride)));
      plan.output_shape.push_back(std::max(dim, 0));
      shaped *= static_cast<uint64_t>(plan.output_shape.back());
    }
    SliceAxis a;
    a.stride = stride;
    a.start = eval_start(p, size, axis);
    a.stop = eval_stop(p, size, axis, a.start);
    walked *= static_cast<uint64_t>(a.count());
    plan.axes.push_back(a);
  }
  if (walked != shaped) {
    throw Failure(what + ": TFLM's walk visits " + std::to_string(walked) + " elements for an output of " +
                  std::to_string(shaped) + " (a shrunk axis with a negative stride or past its end): TFLM leaves "
                  "output bytes unwritten");
  }
  return plan;
}

std::vector<uint8_t> strided_slice_bytes(const StridedSlicePlan& plan, const std::vector<int32_t>& input_shape,
                                         const std::vector<uint8_t>& input, size_t element_bytes) {
  const size_t dims = input_shape.size();
  std::vector<uint64_t> pitch(dims, 1);  // elements between neighbours on each axis
  for (size_t axis = dims; axis-- > 1;) pitch[axis - 1] = pitch[axis] * static_cast<uint64_t>(input_shape[axis]);
  std::vector<uint8_t> out;
  uint64_t total = 1;
  for (const SliceAxis& a : plan.axes) total *= static_cast<uint64_t>(a.count());
  if (total == 0) return out;
  out.reserve(total * element_bytes);
  // An odometer over the axes, the last fastest, as Eval's nested loops.
  std::vector<int32_t> at(dims);
  for (size_t axis = 0; axis < dims; ++axis) at[axis] = plan.axes[axis].start;
  for (uint64_t n = 0; n < total; ++n) {
    uint64_t index = 0;
    for (size_t axis = 0; axis < dims; ++axis) index += static_cast<uint64_t>(at[axis]) * pitch[axis];
    const uint8_t* from = input.data() + index * element_bytes;
    out.insert(out.end(), from, from + element_bytes);
    for (size_t axis = dims; axis-- > 0;) {
      const SliceAxis& a = plan.axes[axis];
      at[axis] += a.stride;
      if (a.stride > 0 ? at[axis] < a.stop : at[axis] > a.stop) break;
      at[axis] = a.start;
    }
  }
  return out;
}

}  // namespace etns::tools::tflm
