#include <cstdint>
#include <cstdlib>

#include "kernels/common/requantize.h"
#include "kernels/etns_ops/lstm/lstm.h"

// lstm_s8's numerics (docs/numerics.md#lstm_s8): TFLite Micro's EvalLstm for
// int8 activations, int8 weights, int16 cell state and int32 biases
// (tensorflow/lite/micro/kernels/lstm_eval.h and lstm_eval.cc), one sequence
// element at a time. The int16 activations are reference_integer_ops'
// Logistic and Tanh on int16 (kernels/internal/reference/integer_ops/
// logistic.h, tanh.h); the products are reference_integer_ops'
// FullyConnected (int16 out) and MulElementwise; requantisation is
// MultiplyByQuantizedMultiplier (kernels::requantize).
namespace etns::etns_ops {
namespace {

using kernels::clamp_s32;
using kernels::requantize;

// sigmoid(i / 24) in unsigned Q0.16, i = 0..255, the table TFLite's int16
// sigmoid and tanh interpolate (sigmoid_table_uint16, kernels/internal/
// common.h; the same numbers as CMSIS-NN's arm_nntables.c).
constexpr uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535,
};

int16_t sat16(int32_t v) { return static_cast<int16_t>(clamp_s32(v, INT16_MIN, INT16_MAX)); }

}  // namespace

// reference_integer_ops::FullyConnected with an int16 output, zero output
// offset and the full int16 range: each row of weights against one vector.
// The bias already holds the input offset's share (bias + offset * rowsum).
void lstm_gate_product_ref(const int8_t* vector, const int8_t* weights, const int32_t* bias, kernels::Requant rq,
                           int32_t depth, int32_t rows, int16_t* out) {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* row = weights + static_cast<size_t>(r) * static_cast<size_t>(depth);
    int32_t acc = bias[r];
    for (int32_t k = 0; k < depth; ++k) acc += static_cast<int32_t>(row[k]) * static_cast<int32_t>(vector[k]);
    out[r] = sat16(requantize(acc, rq));
  }
}

// Logistic on int16 with input_multiplier 0 and left shift 0 (lstm_eval.cc's
// Sigmoid): the power-of-two case makes the multiplier 3 and the shift 0.
int16_t lstm_sigmoid_s16(int16_t x) {
  const int32_t input = static_cast<int32_t>(x) * 3;
  const uint32_t magnitude = static_cast<uint32_t>(input < 0 ? -input : input);
  const uint32_t index = magnitude >> 9;
  uint32_t result;
  if (index >= 255) {
    result = 0x7FFFu << 10;
  } else {
    const uint32_t below = kSigmoidTable[index];
    const uint32_t above = kSigmoidTable[index + 1];
    result = (below << 9) + (magnitude & 0x1FFu) * (above - below);
  }
  result = input >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1u;
  return static_cast<int16_t>(result >> 10);
}

// Tanh on int16 (reference_integer_ops::Tanh) after its power-of-two case.
int16_t lstm_tanh_s16(int16_t x, int32_t multiplier, int32_t shift) {
  const int32_t round = shift > 0 ? int32_t{1} << (shift - 1) : 0;
  // An arithmetic shift, as TFLM's ">>" on int32 on every target it runs on.
  const int32_t product = static_cast<int32_t>(x) * multiplier + round;
  const int32_t input = product >= 0 ? product >> shift : -((-product - 1) >> shift) - 1;
  const uint32_t magnitude = static_cast<uint32_t>(input < 0 ? -input : input);
  const uint32_t index = magnitude >> 8;
  int32_t result;
  if (index >= 255) {
    result = static_cast<int32_t>(0xFFFFu << 8);
  } else {
    const uint32_t below = kSigmoidTable[index];
    const uint32_t above = kSigmoidTable[index + 1];
    result = static_cast<int32_t>((below << 8) + (magnitude & 0xFFu) * (above - below));
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  // Arithmetic shift right by 8 of a value that may be negative.
  const int32_t shifted = result >= 0 ? result >> 8 : -((-result - 1) >> 8) - 1;
  return static_cast<int16_t>(shifted);
}

bool lstm_cell_tanh_params(int32_t cell_state_scale_power, int32_t* multiplier, int32_t* shift) {
  if (cell_state_scale_power < -30 || cell_state_scale_power > 0) return false;
  const int32_t left = 15 + cell_state_scale_power - 3;
  if (left < 0) {
    *multiplier = 3;
    *shift = -left;
  } else {
    *multiplier = 3 << left;
    *shift = 0;
  }
  return true;
}

void lstm_s8_ref(const LstmParams& p, const LstmData& d, int16_t* scratch) {
  lstm_s8_steps(p, d, scratch, &lstm_gate_product_ref);
}

// EvalLstm: batch major walks each batch row through every step; time major
// walks the steps with all rows. Rows never mix, so both are one row update
// per (batch, step), and the order of rows within a step does not matter.
void lstm_s8_steps(const LstmParams& p, const LstmData& d, int16_t* scratch, LstmGateProductFn gate_product) {
  const int32_t n_in = p.input_size, n_state = p.state_size;
  const size_t in_stride = static_cast<size_t>(n_in), state_stride = static_cast<size_t>(n_state);
  int16_t* gate[kLstmGates];
  for (int g = 0; g < kLstmGates; ++g) gate[g] = scratch + static_cast<size_t>(g) * state_stride;
  int16_t* product = scratch + kLstmGates * state_stride;

  for (int32_t t = 0; t < p.steps; ++t) {
    for (int32_t b = 0; b < p.batches; ++b) {
      const size_t row = p.time_major != 0 ? static_cast<size_t>(t) * static_cast<size_t>(p.batches) + static_cast<size_t>(b)
                                           : static_cast<size_t>(b) * static_cast<size_t>(p.steps) + static_cast<size_t>(t);
      const int8_t* x = d.input + row * in_stride;
      int8_t* h = d.output_state + static_cast<size_t>(b) * state_stride;
      int16_t* c = d.cell_state + static_cast<size_t>(b) * state_stride;

      // CalculateLstmGate for each gate: the input and recurrent products,
      // their saturating sum, the activation.
      for (int g = 0; g < kLstmGates; ++g) {
        const size_t offset = static_cast<size_t>(g) * state_stride;
        gate_product(x, d.input_weights + offset * in_stride, d.input_bias + offset, p.input_rq[g], n_in, n_state,
                     gate[g]);
        gate_product(h, d.recurrent_weights + offset * state_stride, d.recurrent_bias + offset,
                     p.recurrent_rq[g], n_state, n_state, product);
        for (int32_t s = 0; s < n_state; ++s) {
          const int16_t sum = sat16(static_cast<int32_t>(gate[g][s]) + product[s]);
          // The cell gate: Tanh with cell_state_scale_power -12 (multiplier 3, no shift).
          gate[g][s] = g == kCellGate ? lstm_tanh_s16(sum, 3, 0) : lstm_sigmoid_s16(sum);
        }
      }

      // UpdateLstmCell: forget * cell, input * cell gate, their sum, the clip.
      for (int32_t s = 0; s < n_state; ++s) {
        const int16_t kept = sat16(requantize(static_cast<int32_t>(gate[kForgetGate][s]) * c[s], p.forget_cell_rq));
        const int16_t added = sat16(
            requantize(static_cast<int32_t>(gate[kInputGate][s]) * gate[kCellGate][s], p.input_cell_rq));
        int16_t updated = sat16(static_cast<int32_t>(kept) + added);
        if (p.cell_clip > 0) {
          updated = static_cast<int16_t>(clamp_s32(updated, -p.cell_clip, p.cell_clip));
        }
        c[s] = updated;
      }

      // UpdateLstmHidden: tanh(cell) * output gate on the hidden grid; the
      // output row is a copy of the new hidden state.
      int8_t* y = d.out + row * state_stride;
      for (int32_t s = 0; s < n_state; ++s) {
        const int16_t squashed = lstm_tanh_s16(c[s], p.cell_tanh_multiplier, p.cell_tanh_shift);
        const int32_t value = requantize(static_cast<int32_t>(squashed) * gate[kOutputGate][s], p.hidden_rq) +
                              p.hidden_zero_point;
        h[s] = static_cast<int8_t>(clamp_s32(value, INT8_MIN, INT8_MAX));
        y[s] = h[s];
      }
    }
  }
}

}  // namespace etns::etns_ops
