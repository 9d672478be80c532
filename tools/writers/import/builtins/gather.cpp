#include <array>
#include <cstring>

#include "kernels/etns_ops/gather/gather.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// GATHER (gather.cc): params int8 or float32, positions int32 (TFLM's Prepare
// takes no other types), axis negative from the end, batch_dims negative from
// indices' rank. Eval copies, for each batch, outer index and position, the
// inner run at that position of the axis, and fails on a position outside
// the axis. Constant positions are checked here, every one; with constant
// params too the output is folded; otherwise one etns_ops::gather, which
// checks computed positions on every run.
namespace etns::tools::builtins {
namespace {

struct Sizes {
  int64_t batches = 1, outer = 1, axis = 1, coords = 1, inner = 1;
};

std::string text(int64_t v) { return std::to_string(v); }

// Gather.cc's loops on bytes: `element` bytes per value.
std::vector<uint8_t> gathered(const Sizes& s, const std::vector<int32_t>& positions, const std::vector<uint8_t>& params,
                              size_t element) {
  const size_t run = static_cast<size_t>(s.inner) * element;
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(s.batches * s.outer * s.coords) * run);
  for (int64_t b = 0; b < s.batches; ++b) {
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t j = 0; j < s.coords; ++j) {
        const int64_t at = positions[static_cast<size_t>(b * s.coords + j)];
        const size_t from = static_cast<size_t>(((b * s.outer + o) * s.axis + at)) * run;
        out.insert(out.end(), params.begin() + static_cast<std::ptrdiff_t>(from),
                   params.begin() + static_cast<std::ptrdiff_t>(from + run));
      }
    }
  }
  return out;
}

}  // namespace

void import_gather(OperatorImport& c) {
  if (c.op().inputs.size() != 2) c.fail(std::to_string(c.op().inputs.size()) + " inputs, expected 2");
  const int32_t x = c.input(0), idx = c.input(1), y = c.output();
  const tflite::TensorType type = c.tensor(x).type;
  if (c.tensor(idx).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(idx) + " is " + tflite::to_string(c.tensor(idx).type) +
           ": TFLM's GATHER takes int32 positions only");
  }
  if (type != tflite::TensorType::Int8 && type != tflite::TensorType::Float32) {
    c.fail(c.tensor_label(x) + " is " + tflite::to_string(type) + ": TFLM's GATHER takes int8 and float32 params");
  }
  if (c.tensor(y).type != type) c.fail("input and output types differ");
  const std::vector<int32_t>& in = c.shape(x);
  const std::vector<int32_t>& at = c.shape(idx);
  const auto rank = static_cast<int32_t>(in.size());
  const auto index_rank = static_cast<int32_t>(at.size());
  const int32_t axis_option = c.options().axis;
  if (axis_option < -rank || axis_option >= rank) {
    c.fail("axis " + text(axis_option) + " outside [" + text(-rank) + ", " + text(rank) + ")");
  }
  const int32_t axis = axis_option < 0 ? axis_option + rank : axis_option;
  const int32_t batch_option = c.options().batch_dims;
  const int32_t batch_dims = batch_option < 0 ? batch_option + index_rank : batch_option;
  if (batch_dims < 0 || batch_dims > index_rank) {
    c.fail("batch_dims " + text(batch_option) + " outside [" + text(-index_rank) + ", " + text(index_rank) +
           "] (the positions' rank)");
  }
  if (batch_dims >= rank) c.fail("batch_dims " + text(batch_dims) + " is not below the params' rank " + text(rank));
  if (batch_dims > axis) c.fail("batch_dims " + text(batch_dims) + " exceeds axis " + text(axis));
  Sizes s;
  for (int32_t d = 0; d < batch_dims; ++d) {
    if (at[static_cast<size_t>(d)] != in[static_cast<size_t>(d)]) {
      c.fail(c.tensor_label(idx) + " has shape " + tflite::shape_text(at) + ", its batch dim " + text(d) +
             " differs from " + c.tensor_label(x) + "'s " + tflite::shape_text(in));
    }
  }
  std::vector<int32_t> want(in.begin(), in.begin() + axis);
  want.insert(want.end(), at.begin() + batch_dims, at.end());
  want.insert(want.end(), in.begin() + axis + 1, in.end());
  if (c.shape(y) != want) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", expected " +
           tflite::shape_text(want));
  }
  for (int32_t d = 0; d < rank; ++d) {
    const int64_t n = in[static_cast<size_t>(d)];
    if (d < batch_dims) {
      s.batches *= n;
    } else if (d < axis) {
      s.outer *= n;
    } else if (d == axis) {
      s.axis = n;
    } else {
      s.inner *= n;
    }
  }
  for (int32_t d = batch_dims; d < index_rank; ++d) s.coords *= at[static_cast<size_t>(d)];

  if (c.is_constant(idx)) {
    // TFLM checks each position at Invoke; a constant one fails every run.
    const std::vector<int32_t> positions = OperatorImport::int32_values(c.constant(idx, tflite::TensorType::Int32));
    for (size_t k = 0; k < positions.size(); ++k) {
      if (positions[k] < 0 || positions[k] >= s.axis) {
        c.fail(c.tensor_label(idx) + " holds " + text(positions[k]) + " at position " + text(static_cast<int64_t>(k)) +
               ", outside [0, " + text(s.axis) + ") (axis " + text(axis) + " of " + c.tensor_label(x) +
               "): TFLM's GATHER fails Invoke on it");
      }
    }
    if (c.is_constant(x) && !c.is_model_output(y)) {
      c.fold(y, gathered(s, positions, *c.constant_bytes(x), tflite::element_size(type)));
      return;
    }
  }

  // A channels_last activation (a convolution's output) is gathered where it
  // lies when the output keeps rank 4 in the same dim order: TFLite's NHWC
  // axes are then logical [N, C, H, W] axes 0, 2, 3, 1.
  constexpr std::array<int64_t, 4> kLogical = {0, 2, 3, 1};
  const bool in_place = rank == 4 && index_rank - batch_dims == 1 && batch_dims <= 1 &&
                        c.elementwise_form(x) == Form::ChannelsLast &&
                        OperatorImport::same_bytes_in_both_forms(in) ==
                            OperatorImport::same_bytes_in_both_forms(c.shape(y));
  const Form form = in_place ? Form::ChannelsLast : Form::Stored;
  const int32_t gx = c.use(x, form);
  const int32_t gi = c.use(idx, Form::Stored);
  const int32_t gy = c.define(y, form);
  c.call(etns_ops::kGatherContract, {{"self", GraphArg::of_tensor(gx)},
                                     {"indices", GraphArg::of_tensor(gi)},
                                     {"axis", GraphArg::integer(in_place ? kLogical[static_cast<size_t>(axis)] : axis)},
                                     {"batch_dims", GraphArg::integer(batch_dims)},
                                     {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
