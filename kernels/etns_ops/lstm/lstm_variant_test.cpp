// Every compiled variant of etns_ops::lstm_s8 against the reference, and the
// reference on a hand-worked step, on the host and on the Cortex-M55
// (kernels/testing/kernel_test.h).
#include <cstring>

#include "kernels/etns_ops/lstm/lstm.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

namespace etns::etns_ops {
namespace {

using kernels::kLstmVariants;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x6c73746d;  // "lstm"

struct Shape {
  int32_t batches, steps, input_size, state_size;
  bool time_major;
};

// Factors a trained model has: input products near 2^-6, cell ones near
// TFLM's Q0.15 x Q0.15 -> 2^-11.
LstmParams random_params(Rng& rng, const Shape& s) {
  LstmParams p;
  p.batches = s.batches;
  p.steps = s.steps;
  p.input_size = s.input_size;
  p.state_size = s.state_size;
  p.time_major = s.time_major ? 1 : 0;
  p.hidden_zero_point = rng.uniform32(-20, 20);
  p.cell_clip = rng.uniform32(0, 1) == 0 ? 0 : rng.uniform32(500, 20000);
  lstm_cell_tanh_params(rng.uniform32(-15, -9), &p.cell_tanh_multiplier, &p.cell_tanh_shift);
  for (int g = 0; g < kLstmGates; ++g) {
    p.input_rq[g] = {rng.uniform32(1 << 30, INT32_MAX), rng.uniform32(-8, 2)};
    p.recurrent_rq[g] = {rng.uniform32(1 << 30, INT32_MAX), rng.uniform32(-8, 2)};
  }
  p.forget_cell_rq = {1 << 30, -14};
  p.input_cell_rq = {rng.uniform32(1 << 30, INT32_MAX), -15};
  p.hidden_rq = {rng.uniform32(1 << 30, INT32_MAX), -16};
  return p;
}

void check_shape(const Shape& s, Rng& rng) {
  kernels::testing::TestMemoryScope scope;
  const size_t rows = static_cast<size_t>(s.batches) * static_cast<size_t>(s.steps);
  const size_t n_state = static_cast<size_t>(s.state_size), n_in = static_cast<size_t>(s.input_size);
  const size_t states = static_cast<size_t>(s.batches) * n_state;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, rows * n_in);
  int8_t* w = ETNS_TEST_ARRAY(int8_t, 4 * n_state * n_in);
  int8_t* u = ETNS_TEST_ARRAY(int8_t, 4 * n_state * n_state);
  int32_t* bias_w = ETNS_TEST_ARRAY(int32_t, 4 * n_state);
  int32_t* bias_u = ETNS_TEST_ARRAY(int32_t, 4 * n_state);
  int8_t* h0 = ETNS_TEST_ARRAY(int8_t, states);
  int16_t* c0 = ETNS_TEST_ARRAY(int16_t, states);
  int8_t* h = ETNS_TEST_ARRAY(int8_t, states);
  int16_t* c = ETNS_TEST_ARRAY(int16_t, states);
  int16_t* scratch = ETNS_TEST_ARRAY(int16_t, lstm_scratch_bytes(s.state_size) / 2);
  rng.fill_s8(input, rows * n_in);
  rng.fill_s8(w, 4 * n_state * n_in);
  rng.fill_s8(u, 4 * n_state * n_state);
  rng.fill_s8(h0, states);
  for (size_t i = 0; i < 4 * n_state; ++i) {
    bias_w[i] = rng.uniform32(-40000, 40000);
    bias_u[i] = rng.uniform32(-40000, 40000);
  }
  for (size_t i = 0; i < states; ++i) c0[i] = static_cast<int16_t>(rng.uniform32(-32768, 32767));
  const LstmParams p = random_params(rng, s);
  // The output holds the sequence, then the final hidden and cell state.
  const size_t out_bytes = rows * n_state + states + 2 * states;
  const auto run = [&](LstmFn fn, void* out) {
    auto* bytes = static_cast<uint8_t*>(out);
    std::memcpy(h, h0, states);
    std::memcpy(c, c0, 2 * states);
    LstmData d;
    d.input = input;
    d.input_weights = w;
    d.input_bias = bias_w;
    d.recurrent_weights = u;
    d.recurrent_bias = bias_u;
    d.output_state = h;
    d.cell_state = c;
    d.out = reinterpret_cast<int8_t*>(bytes);
    fn(p, d, scratch);
    std::memcpy(bytes + rows * n_state, h, states);
    std::memcpy(bytes + rows * n_state + states, c, 2 * states);
  };
  ETNS_CHECK_VARIANTS(kLstmVariants, out_bytes, run, "batches %d, steps %d, input %d, state %d, %s",
                      static_cast<int>(s.batches), static_cast<int>(s.steps), static_cast<int>(s.input_size),
                      static_cast<int>(s.state_size), s.time_major ? "time major" : "batch major");
}

ETNS_KERNEL_TEST(LstmVariants, RandomShapesAndStates) {
  Rng rng(kSeed);
  const Shape shapes[] = {{1, 1, 1, 1, false}, {1, 3, 7, 5, false},  {2, 4, 16, 8, true},
                          {3, 2, 17, 9, false}, {1, 2, 40, 33, true}, {2, 3, 257, 80, false}};
  for (const Shape& s : shapes) {
    check_shape(s, rng);
    ETNS_RETURN_IF_FAILED();
  }
}

// The step of lstm_test.cpp's OneStepWorkedByHand, here so the device's
// arithmetic (shifts of negative values, unsigned interpolation) is checked
// on the M55 too: zero weights, identity gate factors, biases 512, -512,
// 256, 0 give c = 1086 and h = 30.
ETNS_KERNEL_TEST(LstmVariants, HandWorkedStep) {
  LstmParams p;
  p.batches = p.steps = p.input_size = p.state_size = 1;
  p.hidden_zero_point = -1;
  lstm_cell_tanh_params(-11, &p.cell_tanh_multiplier, &p.cell_tanh_shift);
  for (int g = 0; g < kLstmGates; ++g) p.input_rq[g] = p.recurrent_rq[g] = {1 << 30, 1};
  p.forget_cell_rq = {1 << 30, 1};
  p.input_cell_rq = {1 << 30, -14};
  p.hidden_rq = {1 << 30, -22};
  int8_t* zeros = ETNS_TEST_ARRAY(int8_t, 4);
  int32_t* bias = ETNS_TEST_ARRAY(int32_t, 4);
  int32_t* no_bias = ETNS_TEST_ARRAY(int32_t, 4);
  bias[0] = 512;
  bias[1] = -512;
  bias[2] = 256;
  int8_t* h = ETNS_TEST_ARRAY(int8_t, 1);
  int16_t* c = ETNS_TEST_ARRAY(int16_t, 1);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, 1);
  int16_t* scratch = ETNS_TEST_ARRAY(int16_t, 5);
  h[0] = -1;
  for (const auto& v : kLstmVariants) {
    h[0] = -1;
    c[0] = 0;
    v.fn(p, LstmData{zeros, zeros, bias, zeros, no_bias, h, c, out}, scratch);
    ETNS_CHECK(c[0] == 1086 && h[0] == 30 && out[0] == 30, "%s: c %d h %d out %d, want 1086 30 30", v.isa,
               c[0], h[0], out[0]);
  }
}

}  // namespace
}  // namespace etns::etns_ops
