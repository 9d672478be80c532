#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/tflm/reduce_params.h"
#include "tools/writers/program/ns_mean_proof.h"

// MEAN, SUM and REDUCE_MAX on int8 as etns_ops::quantized_reduce: no
// cortex_m:: operator computes TFLM's branches (an integer mean divided
// toward zero, a float32 rescale of the exact sum, a maximum), so the importer
// picks the branch TFLM's Eval takes (tflm/reduce_params.h) and the kernel
// runs that arithmetic.
namespace etns::tools::builtins {
namespace {

enum class Kind { Mean, Sum, Max };

// TFLM's MEAN and SUM index with int temp_index[5] and resolve into int
// resolved_axis[2] on the stack (reduce_common.cc, kMaxNumberOfAxis and
// kMaxNumberOfReducedAxis): larger inputs or more distinct axes overrun them.
constexpr size_t kMaxMeanRank = 5;
constexpr size_t kMaxMeanAxes = 2;
// The kernel's exact int32 sum (quantized_reduce.h).
constexpr uint64_t kMaxCount = uint64_t{1} << 24;

// An NHWC dim's position in the logical [N, C, H, W] of the channels_last form.
constexpr int64_t kNhwcToNchw[4] = {0, 2, 3, 1};

void import_reduction(OperatorImport& c, Kind kind) {
  const int32_t x = c.input(0), axis = c.input(1), y = c.output();
  const Grid in = c.int8_grid(x), out = c.int8_grid(y);
  const std::vector<int32_t>& in_shape = c.shape(x);
  const size_t rank = in_shape.size();
  if (kind != Kind::Max && rank > kMaxMeanRank) {
    c.fail(c.tensor_label(x) + " has rank " + std::to_string(rank) +
           ", expected at most 5 (TFLM's MEAN and SUM index 5 dims)");
  }
  if (c.elements(x) == 0) c.fail(c.tensor_label(x) + " has no elements");
  const std::vector<int32_t> axes = c.int32_constant(axis, static_cast<size_t>(c.elements(axis)));
  const std::vector<int32_t> resolved = tflm::resolve_axes(axes, rank, c.where() + ": " + c.tensor_label(axis));
  if (kind != Kind::Max && resolved.size() > kMaxMeanAxes) {
    c.fail(c.tensor_label(axis) + " names " + std::to_string(resolved.size()) +
           " distinct axes, expected at most 2 (TFLM's MEAN and SUM resolve into 2 slots)");
  }
  const bool keep_dims = c.options().keep_dims;
  // TFLM's special case for int8: keep_dims over the raw axes {1, 2} (or
  // {2, 1}) of a 4-D input. Some TFLM versions compute it with
  // reference_integer_ops::Mean (an integer requantisation), others with the
  // generic branches below; the two differ in the last bit, so it is refused
  // rather than guessed.
  if (kind == Kind::Mean && keep_dims && rank == 4 && axes.size() == 2 &&
      ((axes[0] == 1 && axes[1] == 2) || (axes[0] == 2 && axes[1] == 1))) {
    c.fail("keep_dims over axes {1, 2} of a 4-D input: TFLM versions compute this case two ways (an integer "
           "Mean4D or the generic mean), so etns does not import it");
  }
  const std::vector<int32_t> want = tflm::reduced_shape(in_shape, resolved, keep_dims);
  if (c.shape(y) != want) {
    c.fail(c.tensor_label(y) + " is " + tflite::shape_text(c.shape(y)) + ", expected " + tflite::shape_text(want) +
           " (" + c.tensor_label(x) + " " + tflite::shape_text(in_shape) + " reduced with keep_dims " +
           (keep_dims ? "true" : "false") + ")");
  }
  uint64_t count = 1;
  for (const int32_t a : resolved) count *= static_cast<uint64_t>(in_shape[static_cast<size_t>(a)]);
  if (count > kMaxCount) {
    c.fail("reduces " + std::to_string(count) + " elements per output, expected at most 2^24");
  }

  tflm::ReduceParams p;
  if (kind == Kind::Mean) {
    p = tflm::mean_params(in.scale, in.zero_point, out.scale, out.zero_point);
  } else if (kind == Kind::Sum) {
    p = tflm::sum_params(in.scale, out.scale);
    // quantized_reduce converts the rounded float sum to int32.
    if (!(256.0 * static_cast<double>(p.scale) * static_cast<double>(count) < 1073741824.0)) {
      c.fail("scale ratio " + std::to_string(p.scale) + " over " + std::to_string(count) +
             " elements: the rescaled sum could leave int32");
    }
  } else {
    if (!same_grid(in, out)) {
      c.fail(c.tensor_label(x) + " and " + c.tensor_label(y) +
             " differ in quantisation (TFLM's int8 REDUCE_MAX needs one grid)");
    }
    p.reduction = etns_ops::Reduction::Max;
  }

  // A channels_last input is read as it is: the kernel walks its NHWC bytes,
  // with the axes named in the logical [N, C, H, W].
  const Form form = c.elementwise_form(x);
  std::string ns_why;
  if (kind == Kind::Mean && c.provider() == protocol::Provider::Ns) {
    const std::optional<kernels::Requant> factor =
        rank > 4 ? std::nullopt : ns_mean_factor(p.reduction, p.scale, in.zero_point, out.zero_point, count, ns_why);
    if (rank > 4) {
      ns_why = "cortex_m_ns::quantized_mean takes at most 4 dims";
    } else if (factor && form != Form::Stored) {
      ns_why = "cortex_m_ns::quantized_mean gives TFLM's bytes on every reachable sum but reads row-major, and the "
               "input exists channels_last only (a copy would be added)";
    } else if (factor) {
      std::vector<int64_t> mask(4, 0);
      for (const int32_t a : resolved) mask[4 - rank + static_cast<size_t>(a)] = 1;
      const int32_t gx = c.use(x, Form::Stored);
      const int32_t gy = c.define(y, Form::Stored);
      c.call(cortex_m_ns::kMeanContract, {{"self", GraphArg::of_tensor(gx)},
                                          {"input_zero_point", GraphArg::integer(in.zero_point)},
                                          {"axis_mask", GraphArg::list(mask)},
                                          {"keepdim", GraphArg::boolean(keep_dims)},
                                          {"output_zero_point", GraphArg::integer(out.zero_point)},
                                          {"output_multiplier", GraphArg::integer(factor->multiplier)},
                                          {"output_shift", GraphArg::integer(factor->shift)},
                                          {"out", GraphArg::of_tensor(gy)}});
      c.note_provider(protocol::Provider::Ns, "");
      return;
    }
  }
  std::vector<int64_t> dims;
  for (const int32_t a : resolved) dims.push_back(form == Form::ChannelsLast ? kNhwcToNchw[a] : a);
  const int32_t gx = c.use(x, form);
  const int32_t gy = c.define(y, Form::Stored);
  c.call(etns_ops::kQuantizedReduceContract,
         {{"self", GraphArg::of_tensor(gx)},
          {"dims", GraphArg::list(dims)},
          {"keepdim", GraphArg::boolean(keep_dims)},
          {"reduction", GraphArg::integer(static_cast<int64_t>(p.reduction))},
          {"input_zero_point", GraphArg::integer(in.zero_point)},
          {"output_zero_point", GraphArg::integer(out.zero_point)},
          {"scale", GraphArg::real(static_cast<double>(p.scale))},
          {"out", GraphArg::of_tensor(gy)}});
  if (!ns_why.empty()) c.note_provider(protocol::Provider::Arm, ns_why);
}

}  // namespace

void import_mean(OperatorImport& c) { import_reduction(c, Kind::Mean); }
void import_sum(OperatorImport& c) { import_reduction(c, Kind::Sum); }
void import_reduce_max(OperatorImport& c) { import_reduction(c, Kind::Max); }

}  // namespace etns::tools::builtins
