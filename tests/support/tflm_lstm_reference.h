#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "tests/support/tflm_reference.h"

// TensorFlow Lite Micro's integer UNIDIRECTIONAL_SEQUENCE_LSTM (int8
// activations and weights, int16 cell state, int32 biases), written for the
// tests from tflite-micro's public sources in tflm_reference.h's style:
// unidirectional_sequence_lstm.cc (Prepare), lstm_eval_common.cc
// (PrepareGateParametersInteger, CreateGateParams, CreateInterGateMulParams,
// CreateLstmCellStateInfo), lstm_eval.h / lstm_eval.cc (EvalLstm, LstmStep,
// CalculateLstmGate, UpdateLstmCell, UpdateLstmHidden and their
// FullyConnected, Mul, AddElementWise, Sigmoid, Tanh, Clipping) and
// reference/integer_ops/{fully_connected,mul,logistic,tanh}.h. It keeps TFLM's
// tensors apart (eight weights, four biases, the zero points applied in the
// product loops) and works on whole steps as TFLM does; it shares no code with
// kernels/etns_ops/lstm or tools/writers/import.
namespace etns::testing::tflm {

// sigmoid_table_uint16 (kernels/internal/common.h).
inline constexpr uint16_t kLstmSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

// reference_integer_ops::Logistic on int16.
inline int16_t logistic_s16(int32_t input_multiplier, int32_t input_left_shift, int16_t value) {
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  const int32_t round = input_left_shift > 0 ? 1 << (input_left_shift - 1) : 0;
  const int32_t x = (value * input_multiplier + round) >> input_left_shift;
  const uint32_t ax = static_cast<uint32_t>(std::abs(x));
  const uint32_t uh = ax >> 9;
  uint32_t result;
  if (uh >= 255) {
    result = 0x7FFF << 10;
  } else {
    const uint32_t ua = kLstmSigmoidTable[uh], ub = kLstmSigmoidTable[uh + 1];
    result = (ua << 9) + (ax & 0x1FF) * (ub - ua);
  }
  result = x >= 0 ? result + (1 << 9) : (1 << (16 + 9)) - result + (1 << 9) - 1;
  return static_cast<int16_t>(result >> 10);
}

// reference_integer_ops::Tanh on int16.
inline int16_t tanh_s16(int32_t input_multiplier, int32_t input_left_shift, int16_t value) {
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  const int32_t round = input_left_shift > 0 ? 1 << (input_left_shift - 1) : 0;
  const int32_t x = (value * input_multiplier + round) >> input_left_shift;
  const uint32_t ax = static_cast<uint32_t>(std::abs(x));
  const uint32_t uh = ax >> 8;
  int32_t result;
  if (uh >= 255) {
    result = 0xFFFF << 8;
  } else {
    const uint32_t ua = kLstmSigmoidTable[uh], ub = kLstmSigmoidTable[uh + 1];
    const uint8_t ut = static_cast<uint8_t>(ax & 0xFF);
    result = static_cast<int32_t>((ua << 8) + ut * (ub - ua));
  }
  result = x >= 0 ? result - (1 << (14 + 9)) + (1 << (9 - 2)) : -result + (1 << (14 + 9)) + (1 << (9 - 2)) - 1;
  return static_cast<int16_t>(result >> (9 - 1));
}

// lstm_eval.cc's Tanh(cell_state_scale_power, ...).
inline int16_t lstm_tanh(int32_t cell_state_scale_power, int16_t value) {
  int32_t left_shift = (15 + cell_state_scale_power) - 3;
  int32_t multiplier = 0;
  if (left_shift < 0) {
    left_shift = -left_shift;
    multiplier = 3;
  }
  return tanh_s16(multiplier, left_shift, value);
}

inline int16_t sat16(int32_t v) { return static_cast<int16_t>(std::min(std::max(v, -32768), 32767)); }

// The model's LSTM as TFLM's Prepare sees it. Gates: input, forget, cell, output.
struct Lstm {
  int32_t batches = 1, steps = 1, n_input = 1, n_state = 1;
  bool time_major = false;
  float s_in = 1.0F;
  int32_t zp_in = 0;
  float s_hidden = 1.0F;
  int32_t zp_hidden = 0;
  float s_cell = 1.0F;
  float cell_clip = 0.0F;
  float s_w[4] = {1, 1, 1, 1};     // input_to_<gate>_weights
  float s_r[4] = {1, 1, 1, 1};     // recurrent_to_<gate>_weights
  std::vector<int8_t> w[4];        // [n_state, n_input]
  std::vector<int8_t> r[4];        // [n_state, n_state]
  std::vector<int32_t> bias[4];    // [n_state]
};

// TFLM's state (its variable tensors) between Invoke calls: reset to the
// hidden zero point and 0 (MicroGraph::ResetVariableTensors).
struct LstmState {
  std::vector<int8_t> hidden;
  std::vector<int16_t> cell;
};
inline LstmState lstm_reset(const Lstm& m) {
  const size_t n = static_cast<size_t>(m.batches) * static_cast<size_t>(m.n_state);
  return {std::vector<int8_t>(n, static_cast<int8_t>(m.zp_hidden)), std::vector<int16_t>(n, 0)};
}

// One Invoke: the output sequence; the state carries over to the next.
inline std::vector<int8_t> lstm(const Lstm& m, const std::vector<int8_t>& input, LstmState& state) {
  // Prepare.
  const float nonlinear_input_scale = 0.00024414062F;
  const float nonlinear_output_scale = 0.00003051757F;
  Multiplier in_m[4], rec_m[4];
  for (int g = 0; g < 4; ++g) {
    in_m[g] = product_multiplier(m.s_in, m.s_w[g], nonlinear_input_scale);
    rec_m[g] = product_multiplier(m.s_hidden, m.s_r[g], nonlinear_input_scale);
  }
  const Multiplier forget_mul = mul_multiplier(nonlinear_output_scale, m.s_cell, m.s_cell);
  const Multiplier input_mul = mul_multiplier(nonlinear_output_scale, nonlinear_output_scale, m.s_cell);
  const Multiplier output_mul = mul_multiplier(nonlinear_output_scale, nonlinear_output_scale, m.s_hidden);
  const float log2 = std::log(m.s_cell) * (1.0F / std::log(2.0F));
  const int32_t power = static_cast<int32_t>(std::round(log2));
  const int16_t clip = static_cast<int16_t>(
      std::min(std::max(static_cast<double>(m.cell_clip) / static_cast<double>(m.s_cell), -32768.0), 32767.0));

  // EvalLstm: time major runs all batches per step; batch major one batch at a time.
  const int32_t rows_per_step = m.time_major ? m.batches : 1;
  const int32_t outer = m.time_major ? 1 : m.batches;
  const size_t ns = static_cast<size_t>(m.n_state);
  std::vector<int8_t> out(static_cast<size_t>(m.batches) * static_cast<size_t>(m.steps) * ns);
  size_t input_offset = 0, output_offset = 0;
  for (int32_t o = 0; o < outer; ++o) {
    const size_t state_offset = static_cast<size_t>(o) * ns;  // batch major: this batch's state row
    for (int32_t t = 0; t < m.steps; ++t) {
      const size_t n = static_cast<size_t>(rows_per_step) * ns;
      std::vector<int16_t> gate[4];
      for (int g = 0; g < 4; ++g) {
        // CalculateLstmGate: FullyConnected(input) + FullyConnected(hidden), then the activation.
        std::vector<int16_t> a(n), b(n);
        for (int32_t row = 0; row < rows_per_step; ++row) {
          for (int32_t s = 0; s < m.n_state; ++s) {
            int32_t acc = 0;
            for (int32_t k = 0; k < m.n_input; ++k) {
              const int32_t xv = input[input_offset + static_cast<size_t>(row * m.n_input + k)];
              acc += m.w[g][static_cast<size_t>(s * m.n_input + k)] * (xv - m.zp_in);
            }
            acc += m.bias[g][static_cast<size_t>(s)];
            a[static_cast<size_t>(row) * ns + static_cast<size_t>(s)] = sat16(multiply(acc, in_m[g]));
            int32_t racc = 0;
            for (int32_t k = 0; k < m.n_state; ++k) {
              const int32_t hv = state.hidden[state_offset + static_cast<size_t>(row * m.n_state + k)];
              racc += m.r[g][static_cast<size_t>(s * m.n_state + k)] * (hv - m.zp_hidden);
            }
            b[static_cast<size_t>(row) * ns + static_cast<size_t>(s)] = sat16(multiply(racc, rec_m[g]));
          }
        }
        gate[g].resize(n);
        for (size_t i = 0; i < n; ++i) {
          const int16_t sum = sat16(a[i] + b[i]);
          gate[g][i] = g == 2 ? lstm_tanh(-12, sum) : logistic_s16(0, 0, sum);
        }
      }
      // UpdateLstmCell.
      for (size_t i = 0; i < n; ++i) {
        int16_t& c = state.cell[state_offset + i];
        const int16_t kept = sat16(multiply(gate[1][i] * c, forget_mul));
        const int16_t added = sat16(multiply(gate[0][i] * gate[2][i], input_mul));
        c = sat16(kept + added);
        if (m.cell_clip > 0.0F) c = std::max<int16_t>(std::min<int16_t>(clip, c), static_cast<int16_t>(-clip));
      }
      // UpdateLstmHidden, then the copy to the output.
      for (size_t i = 0; i < n; ++i) {
        const int16_t squashed = lstm_tanh(power, state.cell[state_offset + i]);
        const int32_t h = multiply(squashed * gate[3][i], output_mul) + m.zp_hidden;
        state.hidden[state_offset + i] = static_cast<int8_t>(std::min(std::max(h, -128), 127));
        out[output_offset + i] = state.hidden[state_offset + i];
      }
      input_offset += static_cast<size_t>(rows_per_step * m.n_input);
      output_offset += n;
    }
  }
  return out;
}

}  // namespace etns::testing::tflm
