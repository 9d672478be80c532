#include "kernels/etns_ops/lstm/lstm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kLstmContract, &lstm_prepare, &lstm_run);

constexpr runtime::Arg kInput = kLstmContract.arg("input");
constexpr runtime::Arg kInputBias = kLstmContract.arg("input_bias");
constexpr runtime::Arg kOutputState = kLstmContract.arg("output_state");
constexpr runtime::Arg kCellState = kLstmContract.arg("cell_state");
constexpr runtime::Arg kOut = kLstmContract.out();

// ---- The int16 activations, worked by hand from TFLM's formulas ----

// Logistic on int16: x * 3, table index |x*3| >> 9, 9 fractional bits.
TEST(LstmActivations, SigmoidAtHandWorkedPoints) {
  EXPECT_EQ(lstm_sigmoid_s16(0), 16384);  // (32768 << 9 + 512) >> 10: one half in Q0.15
  // x = 512: index 3 exactly, table 34813: (34813 * 512 + 512) >> 10 = 17407.
  EXPECT_EQ(lstm_sigmoid_s16(512), 17407);
  // x = -512: (2^25 - 34813 * 512 + 511) >> 10 = 15361 (not 32768 - 17407: the
  // two branches round differently).
  EXPECT_EQ(lstm_sigmoid_s16(-512), 15361);
  // The ends: |x * 3| < 255 << 9, so the table is read, never the saturation.
  EXPECT_GT(lstm_sigmoid_s16(32767), 32700);
  EXPECT_LT(lstm_sigmoid_s16(-32768), 70);
}

// Tanh on int16: |x * m| >> 8 indexes the table, 8 fractional bits.
TEST(LstmActivations, TanhAtHandWorkedPoints) {
  EXPECT_EQ(lstm_tanh_s16(0, 3, 0), 0);  // (32768 << 8) - 2^23 + 128, >> 8
  // x = 256, m = 3: index 3 exactly: (34813 << 8) - 2^23 + 128 = 523648, >> 8 = 2045.
  EXPECT_EQ(lstm_tanh_s16(256, 3, 0), 2045);
  // x = -256: -(34813 << 8) + 2^23 + 127 = -523393, arithmetic >> 8 = -2045.
  EXPECT_EQ(lstm_tanh_s16(-256, 3, 0), -2045);
  // m = 6 (a cell state of scale 2^-11) saturates: |32767 * 6| >> 8 >= 255.
  EXPECT_EQ(lstm_tanh_s16(32767, 6, 0), 32767);
  EXPECT_EQ(lstm_tanh_s16(-32768, 6, 0), -32767);
  // m = 3, shift 3 (scale 2^-15): (x * 3 + 4) >> 3 first; 2048 -> 768 -> index 3.
  EXPECT_EQ(lstm_tanh_s16(2048, 3, 3), 2045);
}

TEST(LstmActivations, CellTanhParametersFollowTheCellScale) {
  int32_t m = 0, s = 0;
  ASSERT_TRUE(lstm_cell_tanh_params(-12, &m, &s));
  EXPECT_EQ(m, 3);
  EXPECT_EQ(s, 0);
  ASSERT_TRUE(lstm_cell_tanh_params(-11, &m, &s));
  EXPECT_EQ(m, 6);
  EXPECT_EQ(s, 0);
  ASSERT_TRUE(lstm_cell_tanh_params(-15, &m, &s));  // left shift -3: multiplier 3, right shift 3
  EXPECT_EQ(m, 3);
  EXPECT_EQ(s, 3);
  ASSERT_TRUE(lstm_cell_tanh_params(0, &m, &s));
  EXPECT_EQ(m, 3 << 12);
  EXPECT_EQ(s, 0);
  EXPECT_FALSE(lstm_cell_tanh_params(1, &m, &s));
  EXPECT_FALSE(lstm_cell_tanh_params(-31, &m, &s));
}

// ---- The operator through prepare and run ----

// One call's arguments; the defaults: batches 1, steps 1, input 1, state 1,
// every factor the identity (2^30, shift 1) but the cell products.
struct Args {
  std::vector<int32_t> input_sizes{1, 1, 1};
  int32_t state = 1;
  std::vector<int32_t> input_weight_sizes;      // empty: [4, state, input]
  std::vector<int32_t> recurrent_weight_sizes;  // empty: [4, state, state]
  std::vector<int32_t> state_sizes;             // empty: [batches, state]
  std::vector<int64_t> input_multipliers{1 << 30, 1 << 30, 1 << 30, 1 << 30};
  std::vector<int64_t> input_shifts{1, 1, 1, 1};
  int64_t forget_cell_shift = 1;
  int64_t input_cell_shift = -14;  // i * g / 2^15
  int64_t hidden_shift = -22;      // tanh(c) * o / 2^23
  int64_t hidden_zero_point = -1;
  int64_t cell_clip = 0;
  int64_t cell_state_scale_power = -11;
  bool time_major = false;
};

void build(KernelCall& call, const Args& a) {
  const auto dim = [&](size_t d) { return d < a.input_sizes.size() ? a.input_sizes[d] : 1; };
  const int32_t batches = a.time_major ? dim(1) : dim(0);
  const int32_t n_in = dim(2);
  const std::vector<int32_t> states = a.state_sizes.empty() ? std::vector<int32_t>{batches, a.state} : a.state_sizes;
  call.tensor(ScalarType::Char, a.input_sizes);
  call.tensor(ScalarType::Char, a.input_weight_sizes.empty() ? std::vector<int32_t>{4, a.state, n_in}
                                                            : a.input_weight_sizes);
  call.tensor(ScalarType::Int, {4, a.state});
  call.tensor(ScalarType::Char, a.recurrent_weight_sizes.empty() ? std::vector<int32_t>{4, a.state, a.state}
                                                                : a.recurrent_weight_sizes);
  call.tensor(ScalarType::Int, {4, a.state});
  call.int_list(a.input_multipliers).int_list(a.input_shifts);
  call.int_list({1 << 30, 1 << 30, 1 << 30, 1 << 30}).int_list({1, 1, 1, 1});
  call.int_value(1 << 30).int_value(a.forget_cell_shift);
  call.int_value(1 << 30).int_value(a.input_cell_shift);
  call.int_value(1 << 30).int_value(a.hidden_shift);
  call.int_value(a.hidden_zero_point).int_value(a.cell_clip).int_value(a.cell_state_scale_power);
  call.bool_value(a.time_major);
  call.tensor(ScalarType::Char, states);
  call.tensor(ScalarType::Short, states);
  call.tensor(ScalarType::Char, {dim(0), dim(1), a.state});
}

// Zero weights: each gate's pre-activation is its bias exactly (identity
// factors), so every step is worked by hand:
//   i = sigmoid(512) = 17407, f = sigmoid(-512) = 15361,
//   g = tanh(256) = 2045, o = sigmoid(0) = 16384;
//   c = 0 * f + RQ(17407 * 2045 = 35597315, 2^-15) = 1086;
//   tanh(c) with multiplier 6: 6516 -> index 25, fraction 116:
//     48443 * 256 + 116 * 521 - 2^23 + 128 = 4073364, >> 8 = 15911;
//   h = RQ(15911 * 16384, 2^-23) - 1 = 31 - 1 = 30.
TEST(Lstm, OneStepWorkedByHand) {
  Args a;
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int32_t>(kInputBias, {512, -512, 256, 0});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int16_t>(kCellState), std::vector<int16_t>{1086});
  EXPECT_EQ(call.read<int8_t>(kOutputState), std::vector<int8_t>{30});
  EXPECT_EQ(call.read<int8_t>(kOut), std::vector<int8_t>{30});

  // A second run starts from that state: f * c = 15361 * 1086 = 16682046,
  // RQ by 2^-15... the forget factor here is the identity, so the product
  // saturates int16 (32767) and the sum with 1086 saturates too.
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int16_t>(kCellState), std::vector<int16_t>{32767});
}

// A cell clip bounds the new cell state: 1086 clipped to 1000.
TEST(Lstm, CellClipBoundsTheCellState) {
  Args a;
  a.cell_clip = 1000;
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int32_t>(kInputBias, {512, -512, 256, 0});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int16_t>(kCellState), std::vector<int16_t>{1000});
}

// Rows never mix: with two batches and two steps, batch major and time major
// give the same rows in their own layouts, and each batch's state is its own.
TEST(Lstm, BatchAndTimeMajorAgree) {
  const std::vector<int8_t> weights = {3, -7, 11, 2, -5, 9, -1, 4, 6, -8, 12, -3, 7, 1, -9, 5};
  std::vector<int8_t> outs[2];
  for (int layout = 0; layout < 2; ++layout) {
    Args a;
    a.time_major = layout == 1;
    a.input_sizes = {2, 2, 2};
    a.state = 2;
    a.input_shifts = {-4, -4, -4, -4};
    KernelCall call;
    build(call, a);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(kLstmContract.arg("input_weights"), weights);
    call.fill<int8_t>(kLstmContract.arg("recurrent_weights"), weights);
    // batch b, step t holds 40 * (b + 1) - 70 * t and its negation; time major
    // stores [t][b], batch major [b][t].
    std::vector<int8_t> in(8);
    for (int b = 0; b < 2; ++b) {
      for (int t = 0; t < 2; ++t) {
        const size_t row = a.time_major ? static_cast<size_t>(t * 2 + b) : static_cast<size_t>(b * 2 + t);
        in[row * 2] = static_cast<int8_t>(40 * (b + 1) - 70 * t);
        in[row * 2 + 1] = static_cast<int8_t>(-(40 * (b + 1) - 70 * t));
      }
    }
    call.fill<int8_t>(kInput, in);
    ASSERT_EQ(call.run(), Error::Ok);
    const std::vector<int8_t> out = call.read<int8_t>(kOut);
    for (int b = 0; b < 2; ++b) {
      for (int t = 0; t < 2; ++t) {
        const size_t row = a.time_major ? static_cast<size_t>(t * 2 + b) : static_cast<size_t>(b * 2 + t);
        outs[layout].push_back(out[row * 2]);
        outs[layout].push_back(out[row * 2 + 1]);
      }
    }
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_NE(outs[0][0], outs[0][4]) << "the batches should differ";
}

struct Rejection {
  const char* what;
  std::function<void(Args&)> edit;
  Error code;
  const char* message;
};

TEST(LstmPrepare, RejectsBadArguments) {
  const Rejection rejections[] = {
      {"rank 2 input", [](Args& a) { a.input_sizes = {1, 1}; }, Error::InvalidArgument,
       "input has rank 2, expected 3"},
      {"input weights for another input size", [](Args& a) { a.input_weight_sizes = {4, 1, 2}; },
       Error::InvalidArgument, "input_weights has shape [4, 1, 2], expected [4, 1, 1]"},
      {"recurrent weights not square", [](Args& a) { a.recurrent_weight_sizes = {4, 1, 2}; },
       Error::InvalidArgument, "recurrent_weights has shape [4, 1, 2], expected [4, 1, 1]"},
      {"state of another size", [](Args& a) { a.state_sizes = {1, 2}; }, Error::InvalidArgument,
       "output_state and cell_state have 2 and 2 elements, expected 1 (batches x state size)"},
      {"three multipliers", [](Args& a) { a.input_multipliers.pop_back(); }, Error::InvalidArgument,
       "input_multipliers and input_shifts have 3 and 4 items, expected 4 each (one per gate)"},
      {"negative multiplier", [](Args& a) { a.input_multipliers[2] = -1; }, Error::InvalidArgument,
       "input_multipliers"},
      {"shift 31", [](Args& a) { a.input_shifts[0] = 31; }, Error::InvalidArgument, "input_shifts"},
      {"hidden zero point 200", [](Args& a) { a.hidden_zero_point = 200; }, Error::InvalidArgument,
       "hidden_zero_point"},
      {"negative clip", [](Args& a) { a.cell_clip = -1; }, Error::InvalidArgument, "cell_clip"},
      {"cell power 1", [](Args& a) { a.cell_state_scale_power = 1; }, Error::InvalidArgument,
       "cell_state_scale_power"},
      {"hidden shift -32", [](Args& a) { a.hidden_shift = -32; }, Error::InvalidArgument, "hidden_shift"},
  };
  for (const Rejection& r : rejections) {
    SCOPED_TRACE(r.what);
    Args a;
    r.edit(a);
    KernelCall call;
    build(call, a);
    EXPECT_EQ(call.prepare(kEntry), r.code) << call.log();
    EXPECT_TRUE(testing::logged(call, r.message));
  }
}

}  // namespace
}  // namespace etns::etns_ops
