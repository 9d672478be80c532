#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"

// Argument validation shared by the kernels' prepare functions. Each check logs
// one line, "c0i5 <op>: self_shift = 40, expected [-31, 31]", and returns
// InvalidArgument when the value is outside what the kernel accepts.
namespace etns::kernels {

using runtime::Error;
using runtime::PrepareContext;
using runtime::Result;
using runtime::ScalarType;
using runtime::Tensor;

Error check_dtype(const PrepareContext& ctx, const Tensor& tensor, const char* name,
                  ScalarType expected);
Error check_range(const PrepareContext& ctx, const char* name, int64_t value, int64_t lo,
                  int64_t hi);
Error check_rank(const PrepareContext& ctx, const Tensor& tensor, const char* name,
                 uint8_t expected);
// Logs both shapes: "self [1, 16, 32, 32] and out [1, 16, 32, 16] differ in shape".
Error check_same_sizes(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                       const Tensor& b, const char* b_name);
Error check_same_dim_order(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                           const Tensor& b, const char* b_name);
// Row-major in memory: the dim order is 0, 1, ... once size-1 dims (which take
// no room) are skipped. Otherwise logs "<name> must be contiguous (row-major
// in memory)".
inline bool is_row_major_in_memory(const Tensor& tensor) { return tensor.is_row_major_in_memory(); }
Error check_row_major(const PrepareContext& ctx, const Tensor& tensor, const char* name);

// True when memory holds a 4-D tensor in N, H, W, C order: channels_last, or
// contiguous where C or H * W is 1 (upstream accepts any dim order there).
inline bool is_nhwc_in_memory(const Tensor& t) { return t.is_nhwc_in_memory(); }
// A [h, w] argument (kernel_size, stride, padding, dilation) with both values
// in [lo, hi]: "stride has 3 values, expected 2 ([h, w])", "stride[1] = 0, ...".
Error read_pair(const PrepareContext& ctx, const runtime::IntList& list, const char* name,
                int64_t lo, int64_t hi, int32_t* h, int32_t* w);

// A shape as message text, "[1, 16, 32, 32]" ("[]" for rank 0). A shape too
// long for the buffer is cut short and loses its closing bracket.
struct SizesText {
  char text[72];
};
SizesText format_sizes(const Tensor& tensor);
SizesText format_sizes(const int32_t* sizes, size_t rank);

using runtime::Arg;

// Reads an Int argument and checks it lies in [lo, hi].
Result<int32_t> read_int_in_range(const PrepareContext& ctx, Arg arg, int64_t lo, int64_t hi);
// An int8 zero point: [-128, 127].
Result<int32_t> read_zero_point(const PrepareContext& ctx, Arg arg);
// A (multiplier, shift) pair: multiplier in [0, 2^31 - 1] (0 is what TFLite
// writes for an effective scale below 2^-32), shift in [-31, 30].
Result<Requant> read_requant(const PrepareContext& ctx, Arg multiplier, Arg shift);
// The first item of a per-tensor int[] argument, in [lo, hi] (upstream reads
// only that one); an empty list is refused.
Result<int32_t> read_first_item(const PrepareContext& ctx, Arg list, int64_t lo, int64_t hi);
// A quantization scale, read as double and used as float32: finite and > 0
// with a finite float32 inverse (stricter than upstream, which leaves it
// unchecked). Quantize and dequantize share it, so both refuse the same scales.
Result<float> read_scale(const PrepareContext& ctx, Arg arg);
// A quantize or dequantize dtype argument, a ScalarType code: upstream takes
// int8 (1) and int16 (2) only.
Result<ScalarType> read_quantized_dtype(const PrepareContext& ctx, Arg arg);

// quantize's and dequantize's arguments, resolved once per operator at
// compile time (`constexpr QuantizeArgIds kArgs = quantize_arg_ids(kContract);`)
// and read by read_quantize_args.
struct QuantizeArgIds {
  Arg input, scale, zero_point, quant_min, quant_max, dtype, out;
};
constexpr QuantizeArgIds quantize_arg_ids(const runtime::OperatorContract& c) {
  return QuantizeArgIds{c.arg("input"),     c.arg("scale"),     c.arg("zero_point"),
                        c.arg("quant_min"), c.arg("quant_max"), c.arg("dtype"),
                        c.out()};
}
struct QuantizeArgs {
  const Tensor* input = nullptr;
  const Tensor* out = nullptr;
  float scale = 1.0f;  // read_scale's
  int32_t zero_point = 0, quant_min = 0, quant_max = 0;
  ScalarType dtype = ScalarType::Char;  // int8 or int16
};
// Which of input and out holds the integers: out for quantize, input for
// dequantize.
enum class IntegerTensor : uint8_t { Input, Out };
// Reads them and checks what the contract cannot: the integer tensor has `dtype`;
// quant_min lies in dtype's range, quant_max in [quant_min, dtype's max] and
// zero_point in [quant_min, quant_max] (stricter than upstream, which leaves
// the zero point unchecked: quantize maps NaN to it, dequantize should read it
// on the grid); input and out have the same sizes and dim order (the kernels
// walk memory order, which is only the same element order then).
Error read_quantize_args(const PrepareContext& ctx, const QuantizeArgIds& ids,
                         IntegerTensor integer, QuantizeArgs* args);

// A per-channel or per-feature vector (bias, kernel_sum, requantisation
// tables): `count` values in any shape ([C], [1, C], [C, 1, 1, 1]); the
// contract's Shape::Vector has already checked it is row-major. `what` names
// the count in the message: "bias has 8 values, expected 16 (one per output
// channel)".
Error check_vector(const PrepareContext& ctx, const Tensor& t, const char* name, int64_t count,
                   const char* what);

}  // namespace etns::kernels
