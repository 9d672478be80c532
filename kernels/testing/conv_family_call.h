#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"
#include "tests/support/kernel_call.h"

// The front-door tests of the convolution family (quantized_conv2d,
// quantized_depthwise_conv2d, quantized_transpose_conv2d; host, GoogleTest):
// one call's arguments, added in the operator's contract order by name, and
// the checks of prepare's refusals every member makes with the same message.
namespace etns::kernels::testing {

inline const std::vector<uint8_t> kConvNhwc = {0, 2, 3, 1};

// One call's arguments; sizes are PyTorch's ([N, C, H, W]; weight as the
// operator lays it out). Each test derives its own defaults (its
// constructor sets the sizes and per-channel values); an argument the
// operator's contract does not name is not added.
struct ConvCallArgs {
  std::vector<int32_t> input_sizes;
  std::vector<uint8_t> input_dim_order = kConvNhwc;
  runtime::ScalarType input_dtype = runtime::ScalarType::Char;
  std::vector<int32_t> weight_sizes;
  std::vector<uint8_t> weight_dim_order = {};
  runtime::ScalarType weight_dtype = runtime::ScalarType::Char;
  size_t bias_dim = 0;  // the weight dim whose size is Cout: bias_sizes' default
  bool has_bias = true;
  std::vector<int32_t> bias_sizes = {};  // empty: [Cout]
  runtime::ScalarType bias_dtype = runtime::ScalarType::Int;
  std::vector<int64_t> stride = {1, 1};
  std::vector<int64_t> padding = {1, 1};
  std::vector<int64_t> output_padding = {0, 0};  // transpose_conv2d only
  std::vector<int64_t> dilation = {1, 1};
  int64_t depth_multiplier = 1;  // depthwise_conv2d only
  int64_t input_offset = -1;
  int64_t output_offset = -39;
  std::vector<int32_t> multipliers;
  std::vector<int32_t> shifts;
  std::vector<int32_t> requant_sizes = {};  // empty: [number of values], for both
  std::vector<uint8_t> requant_dim_order = {};
  runtime::ScalarType multipliers_dtype = runtime::ScalarType::Int;
  bool constant_requant = true;
  bool constant_shifts = true;
  int64_t activation_min = -128;
  int64_t activation_max = 127;
  std::vector<int32_t> out_sizes;
  std::vector<uint8_t> out_dim_order = kConvNhwc;
  runtime::ScalarType out_dtype = runtime::ScalarType::Char;
};

// Adds a's values to `call` in `contract`'s argument order, by name; the
// multipliers and shifts are filled and marked constant as programs store them.
inline void add_conv_arguments(etns::testing::KernelCall& call,
                               const runtime::OperatorContract& contract, const ConvCallArgs& a) {
  const auto requant_sizes = [&](size_t count) {
    return a.requant_sizes.empty() ? std::vector<int32_t>{static_cast<int32_t>(count)}
                                   : a.requant_sizes;
  };
  const auto is = [](const char* name, const char* expected) {
    return std::strcmp(name, expected) == 0;
  };
  for (uint8_t i = 0; i < contract.count; ++i) {
    const char* name = contract.args[i].name;
    if (is(name, "input")) {
      call.tensor(a.input_dtype, a.input_sizes, a.input_dim_order);
    } else if (is(name, "weight")) {
      call.tensor(a.weight_dtype, a.weight_sizes, a.weight_dim_order);
    } else if (is(name, "bias") && a.has_bias) {
      call.tensor(a.bias_dtype, a.bias_sizes.empty()
                                    ? std::vector<int32_t>{a.weight_sizes[a.bias_dim]}
                                    : a.bias_sizes);
    } else if (is(name, "bias")) {
      call.null();
    } else if (is(name, "stride")) {
      call.int_list(a.stride);
    } else if (is(name, "padding")) {
      call.int_list(a.padding);
    } else if (is(name, "output_padding")) {
      call.int_list(a.output_padding);
    } else if (is(name, "dilation")) {
      call.int_list(a.dilation);
    } else if (is(name, "depth_multiplier")) {
      call.int_value(a.depth_multiplier);
    } else if (is(name, "input_offset")) {
      call.int_value(a.input_offset);
    } else if (is(name, "output_offset")) {
      call.int_value(a.output_offset);
    } else if (is(name, "requantize_multipliers")) {
      call.tensor(a.multipliers_dtype, requant_sizes(a.multipliers.size()), a.requant_dim_order);
    } else if (is(name, "requantize_shifts")) {
      call.tensor(runtime::ScalarType::Int, requant_sizes(a.shifts.size()), a.requant_dim_order);
    } else if (is(name, "activation_min")) {
      call.int_value(a.activation_min);
    } else if (is(name, "activation_max")) {
      call.int_value(a.activation_max);
    } else if (is(name, "out")) {
      call.tensor(a.out_dtype, a.out_sizes, a.out_dim_order);
    } else {
      ADD_FAILURE() << contract.name << " has an argument the conv family's tests lack: " << name;
    }
  }
  // Programs store these as constants; prepare validates their values.
  const runtime::Arg multipliers = contract.arg("requantize_multipliers");
  const runtime::Arg shifts = contract.arg("requantize_shifts");
  if (a.multipliers_dtype == runtime::ScalarType::Int) call.fill<int32_t>(multipliers, a.multipliers);
  call.fill<int32_t>(shifts, a.shifts);
  call.tensor_at(multipliers).is_constant = a.constant_requant;
  call.tensor_at(shifts).is_constant = a.constant_requant && a.constant_shifts;
}

// prepare returns `code` and logs "c0i0 <operator>: <message>".
inline void expect_conv_rejected(const runtime::KernelEntry& entry,
                                 const runtime::OperatorContract& contract, const ConvCallArgs& a,
                                 runtime::Error code, const std::string& message) {
  etns::testing::KernelCall call;
  add_conv_arguments(call, contract, a);
  EXPECT_EQ(call.prepare(entry), code);
  EXPECT_NE(call.log().find("c0i0 " + std::string(contract.name) + ": " + message),
            std::string::npos)
      << "log: " << call.log();
}

// The refusals every member words alike, each from `defaults` with one
// argument changed: dtypes of input, weight, bias, multipliers and out, and
// the offsets and an inverted activation range.
template <typename Args>
void expect_conv_rejects_wrong_dtypes(const runtime::KernelEntry& entry,
                                      const runtime::OperatorContract& contract) {
  using runtime::Error;
  using runtime::ScalarType;
  Args a;
  a.input_dtype = ScalarType::Short;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "input dtype int16, expected int8");
  a = Args{};
  a.weight_dtype = ScalarType::Byte;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "weight dtype uint8, expected int8");
  a = Args{};
  a.bias_dtype = ScalarType::Float;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "bias dtype float32, expected int32");
  a = Args{};
  a.multipliers_dtype = ScalarType::Long;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "requantize_multipliers dtype int64, expected int32");
  a = Args{};
  a.out_dtype = ScalarType::Float;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "out dtype float32, expected int8");
}

template <typename Args>
void expect_conv_rejects_bad_offsets(const runtime::KernelEntry& entry,
                                     const runtime::OperatorContract& contract) {
  using runtime::Error;
  Args a;
  a.input_offset = -128;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "input_offset = -128, expected [-127, 128]");
  a = Args{};
  a.output_offset = 128;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "output_offset = 128, expected [-128, 127]");
  a = Args{};
  a.activation_min = 10;
  a.activation_max = 5;
  expect_conv_rejected(entry, contract, a, Error::InvalidArgument,
                       "activation_max = 5, expected [10, 127]");
}

// One output channel per (multiplier, shift, bias) row: input 0 with
// input_offset 0 leaves acc = bias, so out = RQ(bias, M, S) + 3. Multiplier 0
// is what TFLite writes for an effective scale below 2^-32, and real models
// hold shifts down to -31; RQ at shift -31 is +-1 only from |DHM| >= 2^30,
// ties away from zero.
struct ConvExtremeChannel {
  int32_t multiplier, shift, bias;
  int8_t want;
};
inline constexpr ConvExtremeChannel kConvExtremeChannels[] = {
    {0, 0, INT32_MAX, 3},              // multiplier 0: RQ = 0
    {0, -31, INT32_MIN, 3},            // multiplier 0 at the lowest shift
    {0, 30, 12345, 3},                 // multiplier 0 after a left shift that wraps
    {1 << 30, -31, INT32_MAX, 4},      // DHM = 2^30, the tie, rounds away to 1
    {1 << 30, -31, INT32_MAX - 2, 3},  // DHM = 2^30 - 1: 0
    {1 << 30, -31, INT32_MIN, 2},      // DHM = -2^30, the tie, rounds away to -1
    {INT32_MAX, -31, -(1 << 30), 3},   // DHM = -2^30 + 1: 0
    {INT32_MAX, -31, INT32_MIN, 2},    // DHM = -2^31 + 1: -1
};
inline constexpr int32_t kConvExtremeCount = 8;

// Runs the extreme channels through one output pixel: `a` holds the
// operator's input and weight shapes for 8 output channels; bias, the
// multipliers and shifts (in `sizes`, empty for [8]), the offsets and out
// [1, 8, 1, 1] are set here. Returns out's bytes.
inline std::vector<int8_t> run_conv_extremes(const runtime::KernelEntry& entry,
                                             const runtime::OperatorContract& contract,
                                             ConvCallArgs a, const std::vector<int32_t>& sizes) {
  a.has_bias = true;
  a.input_offset = 0;
  a.output_offset = 3;
  a.bias_sizes = sizes;
  a.requant_sizes = sizes;
  a.multipliers.clear();
  a.shifts.clear();
  std::vector<int32_t> bias;
  for (const ConvExtremeChannel& c : kConvExtremeChannels) {
    a.multipliers.push_back(c.multiplier);
    a.shifts.push_back(c.shift);
    bias.push_back(c.bias);
  }
  a.out_sizes = {1, kConvExtremeCount, 1, 1};
  a.out_dim_order = kConvNhwc;
  etns::testing::KernelCall call;
  add_conv_arguments(call, contract, a);
  EXPECT_EQ(call.prepare(entry), runtime::Error::Ok) << call.log();
  // The input is 0 (a new call's tensors are zeroed), every weight 5.
  call.fill<int8_t>(contract.arg("weight"), std::vector<int8_t>(kConvExtremeCount, 5));
  call.fill<int32_t>(contract.arg("bias"), bias);
  EXPECT_EQ(call.run(), runtime::Error::Ok);
  return call.read<int8_t>(contract.out());
}

// What the extreme channels give, each checked against the reference's RQ.
inline std::vector<int8_t> conv_extremes_wanted() {
  std::vector<int8_t> want;
  for (const ConvExtremeChannel& c : kConvExtremeChannels) {
    EXPECT_EQ(kernels::requantize(c.bias, {c.multiplier, c.shift}) + 3, c.want) << c.bias;
    want.push_back(c.want);
  }
  return want;
}

}  // namespace etns::kernels::testing
