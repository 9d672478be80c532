// etns_ops::lstm_s8 on micro_speech_lstm's shape (TFLM's LSTM keyword
// spotter: 49 steps of 257 inputs, 80 state units, one batch), every variant
// (kernels/testing/kernel_bench.h: counted on the M55 by `etns bench`, timed
// on the host).
#include "kernels/etns_ops/lstm/lstm.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(lstm, micro_speech_49x257x80) {
  constexpr int32_t kSteps = 49, kInput = 257, kState = 80;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, kSteps * kInput);
  int8_t* w = ETNS_TEST_ARRAY(int8_t, 4 * kState * kInput);
  int8_t* u = ETNS_TEST_ARRAY(int8_t, 4 * kState * kState);
  int32_t* bias_w = ETNS_TEST_ARRAY(int32_t, 4 * kState);
  int32_t* bias_u = ETNS_TEST_ARRAY(int32_t, 4 * kState);
  int8_t* h = ETNS_TEST_ARRAY(int8_t, kState);
  int16_t* c = ETNS_TEST_ARRAY(int16_t, kState);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kSteps * kState);
  int16_t* scratch = ETNS_TEST_ARRAY(int16_t, lstm_scratch_bytes(kState) / 2);
  kernels::testing::Rng rng(kSteps * kInput);
  rng.fill_s8(input, kSteps * kInput);
  rng.fill_s8(w, 4 * kState * kInput);
  rng.fill_s8(u, 4 * kState * kState);
  LstmParams p;
  p.batches = 1;
  p.steps = kSteps;
  p.input_size = kInput;
  p.state_size = kState;
  p.hidden_zero_point = -1;
  lstm_cell_tanh_params(-11, &p.cell_tanh_multiplier, &p.cell_tanh_shift);
  for (int g = 0; g < kLstmGates; ++g) p.input_rq[g] = p.recurrent_rq[g] = {1 << 30, -4};
  p.forget_cell_rq = {1 << 30, -14};
  p.input_cell_rq = {1 << 30, -18};
  p.hidden_rq = {1 << 30, -22};
  const LstmData d{input, w, bias_w, u, bias_u, h, c, out};
  // Each step, each gate: the input and the recurrent matrix-vector products.
  bench.macs(kernels::testing::work_of(p.steps, p.batches, kLstmGates, p.state_size, p.input_size + p.state_size));
  for (const auto& v : kernels::kLstmVariants) {
    bench.measure(v.isa, [&] { v.fn(p, d, scratch); });
  }
}

}  // namespace
}  // namespace etns::etns_ops
