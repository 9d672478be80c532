#include "kernels/common/pool2d.h"

#include "kernels/common/checks.h"

namespace etns::kernels {

using runtime::Error;
using runtime::IntList;
using runtime::Result;
using runtime::Tensor;

namespace {

// Along one spatial dim: the first window must reach past the near edge and
// the last must start before the far one (windows in between then hold taps
// too), and the last window's far end must stay within int32.
Error check_windows(const runtime::PrepareContext& ctx, const char* dim, int64_t input,
                    int64_t output, int64_t kernel, int64_t stride, int64_t pad) {
  const int64_t last_start = (output - 1) * stride - pad;
  if (kernel - pad <= 0 || last_start >= input) {
    return ctx.fail(Error::InvalidArgument,
                    "%s: a window holds no input tap (input %lld, out %lld, kernel %lld, "
                    "stride %lld, padding %lld)",
                    dim, static_cast<long long>(input), static_cast<long long>(output),
                    static_cast<long long>(kernel), static_cast<long long>(stride),
                    static_cast<long long>(pad));
  }
  if ((output - 1) * stride + kernel > INT32_MAX) {
    return ctx.fail(Error::InvalidArgument, "%s: out %lld with stride %lld leaves int32", dim,
                    static_cast<long long>(output), static_cast<long long>(stride));
  }
  return Error::Ok;
}

}  // namespace

Result<Pool2dShape> read_pool2d_shape(const runtime::PrepareContext& ctx, const Pool2dArgs& args) {
  ETNS_ASSIGN_OR_RETURN(const Tensor* input, ctx.tensor(args.input));
  ETNS_ASSIGN_OR_RETURN(const IntList kernel_size, ctx.int_list(args.kernel_size));
  ETNS_ASSIGN_OR_RETURN(const IntList stride, ctx.int_list(args.stride));
  ETNS_ASSIGN_OR_RETURN(const IntList padding, ctx.int_list(args.padding));
  ETNS_ASSIGN_OR_RETURN(const Tensor* out, ctx.tensor(args.out));
  if (out->size(0) != input->size(0) || out->size(1) != input->size(1)) {
    return ctx.fail(Error::InvalidArgument, "out %s, expected the batch and channels of input %s",
                    format_sizes(*out).text, format_sizes(*input).text);
  }
  Pool2dShape s;
  s.batches = input->size(0);
  s.channels = input->size(1);
  s.input_h = input->size(2);
  s.input_w = input->size(3);
  s.output_h = out->size(2);
  s.output_w = out->size(3);
  ETNS_TRY(read_pair(ctx, kernel_size, args.kernel_size.name(), 1, INT32_MAX, &s.kernel_h,
                     &s.kernel_w));
  ETNS_TRY(read_pair(ctx, stride, args.stride.name(), 1, INT32_MAX, &s.stride_h, &s.stride_w));
  ETNS_TRY(read_pair(ctx, padding, args.padding.name(), 0, INT32_MAX, &s.pad_h, &s.pad_w));
  // An empty out has no windows: nothing to compute. Otherwise batch and
  // channels are not 0, so an empty input has no rows or columns and every
  // window would be empty.
  if (out->numel == 0) return s;
  if (input->numel == 0) {
    return ctx.fail(Error::InvalidArgument,
                    "input %s is empty but out %s is not (its windows would hold no input tap)",
                    format_sizes(*input).text, format_sizes(*out).text);
  }
  ETNS_TRY(check_windows(ctx, "height", s.input_h, s.output_h, s.kernel_h, s.stride_h, s.pad_h));
  ETNS_TRY(check_windows(ctx, "width", s.input_w, s.output_w, s.kernel_w, s.stride_w, s.pad_w));
  return s;
}

}  // namespace etns::kernels
