#include "tools/writers/import/builtins/slice_window.h"

#include "kernels/etns_ops/slice_copy/slice_copy.h"
#include "tools/writers/tflite/tflite_reader.h"

namespace etns::tools::builtins {

void expect_int8_window_tensors(const OperatorImport& c, int32_t x, int32_t y, const std::string& what) {
  for (const int32_t t : {x, y}) {
    if (c.tensor(t).type != tflite::TensorType::Int8) {
      c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) + ": " + what +
             " is imported on int8 tensors (etns_ops::slice_copy)");
    }
  }
  const size_t rank = c.shape(x).size();
  if (rank < 1 || rank > etns_ops::kSliceCopyMaxRank) {
    c.fail(c.tensor_label(x) + " has rank " + std::to_string(rank) + ", expected 1 to " +
           std::to_string(etns_ops::kSliceCopyMaxRank) + " (etns_ops::slice_copy's)");
  }
}

void copy_window(OperatorImport& c, int32_t x, int32_t y, const Window& w) {
  const size_t rank = c.shape(x).size();
  const bool same_shape = c.shape(y) == w.count;
  std::vector<int64_t> start(w.start.begin(), w.start.end()), step(w.step.begin(), w.step.end());
  int32_t gx = -1, gy = -1;
  if (rank == 4 && same_shape && c.elementwise_form(x) == Form::ChannelsLast) {
    // Logical [N, C, H, W] holds TFLite's axes 0, 3, 1, 2.
    constexpr size_t kFrom[4] = {0, 3, 1, 2};
    for (size_t d = 0; d < 4; ++d) {
      start[d] = w.start[kFrom[d]];
      step[d] = w.step[kFrom[d]];
    }
    gx = c.use(x, Form::ChannelsLast);
    gy = c.define(y, Form::ChannelsLast);
  } else {
    gx = c.use(x, Form::Stored);
    gy = same_shape ? c.define(y, Form::Stored)
                    : c.graph().tensor(c.name("window_t" + std::to_string(y)), runtime::ScalarType::Char, w.count,
                                       contiguous_order(rank));
  }
  c.call(etns_ops::kSliceCopyContract, {{"self", GraphArg::of_tensor(gx)},
                                        {"start", GraphArg::list(start)},
                                        {"step", GraphArg::list(step)},
                                        {"out", GraphArg::of_tensor(gy)}});
  if (!same_shape) c.view(gy, y, Step::Helper);
}

}  // namespace etns::tools::builtins
