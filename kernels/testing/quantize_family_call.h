#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
#include "tests/support/kernel_call.h"
#include "tests/support/shared_data.h"

// What the front-door tests of quantize and dequantize share (host,
// GoogleTest): one call's arguments (the two contracts take the same ones in
// the same order) and the upstream-golden check.
namespace etns::kernels::testing {

// One call's arguments; each test derives its own defaults (its constructor
// sets the dtypes, scale and zero point).
struct QuantizeCallArgs {
  runtime::ScalarType input_dtype = runtime::ScalarType::Float;
  std::vector<int32_t> input_sizes = {1, 4, 2, 2};
  double scale = 1.0;
  int64_t zero_point = 0;
  int64_t quant_min = -128;
  int64_t quant_max = 127;
  int64_t dtype = 1;
  runtime::ScalarType out_dtype = runtime::ScalarType::Char;
  std::vector<int32_t> out_sizes = {1, 4, 2, 2};
  std::vector<uint8_t> out_dim_order = {};
};

// Prepares a call of `a` and returns the error; the log is left in `log`.
inline runtime::Error prepare_quantize_call(const runtime::KernelEntry& entry,
                                            const QuantizeCallArgs& a, std::string* log) {
  etns::testing::KernelCall call;
  call.tensor(a.input_dtype, a.input_sizes)
      .double_value(a.scale)
      .int_value(a.zero_point)
      .int_value(a.quant_min)
      .int_value(a.quant_max)
      .int_value(a.dtype)
      .tensor(a.out_dtype, a.out_sizes, a.out_dim_order);
  const runtime::Error error = call.prepare(entry);
  *log = call.log();
  return error;
}

// The upstream goldens: one program instruction's input stage through the
// operator, compared byte for byte with its output stage, for each of the
// goldens' A, B and C inputs.

struct QuantizeGoldenCase {
  const char* pte;
  const char* input;   // stage holding the operator's input
  const char* output;  // stage holding its golden output
  double scale;
  int64_t zero_point;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
};

// Runs each case with quant range [-128, 127] and dtype int8 (1): input of
// `input_dtype`, out of `out_dtype` (int8 and float32, one way or the other).
inline void expect_quantize_goldens(const runtime::KernelEntry& entry,
                                    const runtime::OperatorContract& contract,
                                    const std::string& shared,
                                    const std::vector<QuantizeGoldenCase>& cases,
                                    runtime::ScalarType input_dtype,
                                    runtime::ScalarType out_dtype) {
  const runtime::Arg input_arg = contract.arg("input");
  const runtime::Arg out_arg = contract.out();
  for (const QuantizeGoldenCase& c : cases) {
    for (const char* id : {"A", "B", "C"}) {
      const std::string prefix = shared + "/golden/" + c.pte + "." + id + ".";
      const std::vector<uint8_t> input = etns::testing::read_file(prefix + c.input + ".bin");
      const std::vector<uint8_t> want = etns::testing::read_file(prefix + c.output + ".bin");
      etns::testing::KernelCall call;
      call.tensor(input_dtype, c.sizes, c.dim_order)
          .double_value(c.scale)
          .int_value(c.zero_point)
          .int_value(-128)
          .int_value(127)
          .int_value(1)
          .tensor(out_dtype, c.sizes, c.dim_order);
      ASSERT_EQ(call.prepare(entry), runtime::Error::Ok) << call.log();
      ASSERT_EQ(input.size(), call.tensor_at(input_arg).nbytes);
      ASSERT_EQ(want.size(), call.tensor_at(out_arg).nbytes);
      std::memcpy(call.tensor_at(input_arg).data, input.data(), input.size());
      ASSERT_EQ(call.run(), runtime::Error::Ok);
      EXPECT_EQ(std::memcmp(call.tensor_at(out_arg).data, want.data(), want.size()), 0)
          << c.pte << "." << id << "." << c.output;
    }
  }
}

}  // namespace etns::kernels::testing
