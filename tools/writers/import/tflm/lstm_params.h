#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/program/quantized_graph.h"

// TFLM's integer UNIDIRECTIONAL_SEQUENCE_LSTM parameters (tflm_numerics.h):
// what UnidirectionalSequenceLstmPrepare derives for int8 activations and
// weights with an int16 cell state (lstm_eval_common.cc:
// PrepareGateParametersInteger, CreateGateParams, CreateInterGateMulParams,
// CreateLstmCellStateInfo), for etns_ops::lstm_s8.
namespace etns::tools::tflm {

// The scales Prepare reads. Gates in the order input, forget, cell, output.
struct LstmScales {
  float input = 1.0F;                         // the input tensor
  std::array<float, 4> input_weights{};       // input_to_<gate>_weights
  std::array<float, 4> recurrent_weights{};   // recurrent_to_<gate>_weights
  float hidden = 1.0F;                        // the output state (hidden) tensor
  int32_t hidden_zero_point = 0;
  float cell = 1.0F;                          // the cell state tensor
  float cell_clip = 0.0F;                     // the options' cell_clip (<= 0: none)
};

struct LstmParams {
  std::array<Requant, 4> input_rq{};      // each gate's input FullyConnected
  std::array<Requant, 4> recurrent_rq{};  // each gate's recurrent FullyConnected
  Requant forget_cell_rq;                 // forget gate x cell state -> cell state
  Requant input_cell_rq;                  // input gate x cell gate -> cell state
  Requant hidden_rq;                      // tanh(cell) x output gate -> hidden state
  int32_t hidden_zero_point = 0;
  int32_t cell_clip = 0;                  // quantized; 0: no clipping
  int32_t cell_state_scale_power = 0;     // cell scale = 2^power
};

// The gate products write Q3.12 (TFLM's nonlinear_input_scale, 0.00024414062F,
// exactly 2^-12 as a float): each multiplier is FullyConnected's, the float
// product of the operand and weight scales over 2^-12. The gates' outputs are
// Q0.15 as TFLM writes it, 0.00003051757F (a float just below 2^-15), and the
// three element-wise products take Mul's double factor of it. The cell state's
// power is CheckedLog2 of its scale (float log, rounded; TFLM does not check
// the result is exact, and neither does this), refused outside [-30, 0]; the
// clip is cell_clip / cell scale in double, clamped to int16 and truncated,
// used only when cell_clip > 0 and refused when it truncates to 0 (TFLM would
// clip the cell state to 0). Failures name `what`.
LstmParams lstm_params(const LstmScales& s, const std::string& what);

// One gate's bias with the operand's zero point folded in, as TFLM's
// FullyConnected adds it per row: bias[r] - zero_point * sum_k weights[r][k]
// (`bias` empty: none). The sum wraps to int32 as TFLM's int32 accumulator does.
std::vector<int32_t> lstm_folded_bias(const std::vector<int32_t>& bias, const int8_t* weights, int32_t rows,
                                      int32_t depth, int32_t zero_point);

}  // namespace etns::tools::tflm
