#pragma once

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
Error check_same_sizes(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                       const Tensor& b, const char* b_name);
Error check_same_dim_order(const PrepareContext& ctx, const Tensor& a, const char* a_name,
                           const Tensor& b, const char* b_name);

// Reads an Int argument and checks it lies in [lo, hi].
Result<int32_t> read_int_in_range(const PrepareContext& ctx, size_t index, const char* name,
                                  int64_t lo, int64_t hi);
// An int8 zero point: [-128, 127].
Result<int32_t> read_zero_point(const PrepareContext& ctx, size_t index, const char* name);
// A (multiplier, shift) pair: multiplier in [0, 2^31 - 1], shift in [-31, 30].
Result<Requant> read_requant(const PrepareContext& ctx, size_t multiplier_index,
                             const char* multiplier_name, size_t shift_index,
                             const char* shift_name);

}  // namespace etns::kernels
