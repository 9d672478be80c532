#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/requantize.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::lstm_s8.out (docs/numerics.md#lstm_s8): TFLite Micro's integer
// UNIDIRECTIONAL_SEQUENCE_LSTM (int8 activations and weights, int16 cell
// state, int32 biases; no CIFG, peephole, projection or layer norm), step for
// step as TFLM's EvalLstm / LstmStep (lstm_eval.h) compute it. Per sequence
// element, for each gate g of (input, forget, cell, output):
//   a = sat16(RQ(x . W_g + input_bias_g, input_rq_g))     (FullyConnected, int16 out)
//   b = sat16(RQ(h . U_g + recurrent_bias_g, recurrent_rq_g))
//   gate_g = act(sat16(a + b))    sigmoid (int16 LUT, Q3.12 in, Q0.15 out); tanh for the cell gate
// then c = sat16(RQ(f * c, forget_cell_rq)) and c = sat16(c + sat16(RQ(i * g,
// input_cell_rq))), clipped to +-cell_clip when cell_clip > 0; h = sat8(RQ(
// tanh(c) * o, hidden_rq) + hidden_zero_point), and out's row is h. The
// biases arrive with the zero points folded in (bias - zp * row sums), so the
// products use the raw codes. h and c live in the state tensors between
// executions: the runtime sets them at load as TFLM resets its variable
// tensors (h to hidden_zero_point, c to 0), and only this instruction writes
// them.
namespace etns::etns_ops {

// The gates in the order the packed tensors hold them.
inline constexpr int kLstmGates = 4;
enum LstmGate : int { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };

struct LstmParams {
  int32_t batches = 0;
  int32_t steps = 0;
  int32_t input_size = 0;
  int32_t state_size = 0;
  int32_t time_major = 0;  // 1: input [steps, batches, input_size]; 0: [batches, steps, input_size]
  int32_t hidden_zero_point = 0;
  int32_t cell_clip = 0;   // 0: none
  // TFLM's Tanh on the cell state (lstm_eval.cc, Tanh): the int16 LUT's input
  // multiplier and right shift, from cell_state_scale_power at prepare.
  int32_t cell_tanh_multiplier = 0;
  int32_t cell_tanh_shift = 0;
  kernels::Requant input_rq[kLstmGates];
  kernels::Requant recurrent_rq[kLstmGates];
  kernels::Requant forget_cell_rq;
  kernels::Requant input_cell_rq;
  kernels::Requant hidden_rq;
};
ETNS_TARGET_LAYOUT(LstmParams, runtime::StructLayout()
                                   .member(runtime::fixed<int32_t>(), 9)
                                   .member(runtime::layout_of<kernels::Requant>(abi), 2 * kLstmGates + 3)
                                   .done());

// The tensors of one call, as run reads them.
struct LstmData {
  const int8_t* input;              // [batches, steps, input_size] or time major
  const int8_t* input_weights;      // [4, state_size, input_size]
  const int32_t* input_bias;        // [4, state_size]
  const int8_t* recurrent_weights;  // [4, state_size, state_size]
  const int32_t* recurrent_bias;    // [4, state_size]
  int8_t* output_state;             // [batches, state_size], read and written
  int16_t* cell_state;              // [batches, state_size], read and written
  int8_t* out;                      // like input with state_size last
};

// Scratch: five int16 rows of state_size (four gates and one product).
inline size_t lstm_scratch_bytes(int32_t state_size) {
  return 5 * static_cast<size_t>(state_size) * sizeof(int16_t);
}

using LstmFn = void (*)(const LstmParams& p, const LstmData& d, int16_t* scratch);

// The definition (lstm_ref.cpp).
void lstm_s8_ref(const LstmParams& p, const LstmData& d, int16_t* scratch);
#if ETNS_HAVE_MVE
// Helium: the gate products (4 x state x (input + state) MACs per step, all
// but a little of the work) as 16-lane dot products, four rows per pass; the
// rest is the reference's (lstm_s8_steps).
void lstm_s8_mve(const LstmParams& p, const LstmData& d, int16_t* scratch);
#endif

// One gate's products, out[r] = sat16(RQ(bias[r] + sum_k vector[k] *
// weights[r][k], rq)) for r < rows: TFLM's FullyConnected with an int16
// output. The reference's loop, and the step walk every variant shares, which
// takes the product as its one tuned part.
using LstmGateProductFn = void (*)(const int8_t* vector, const int8_t* weights, const int32_t* bias,
                                   kernels::Requant rq, int32_t depth, int32_t rows, int16_t* out);
void lstm_gate_product_ref(const int8_t* vector, const int8_t* weights, const int32_t* bias, kernels::Requant rq,
                           int32_t depth, int32_t rows, int16_t* out);
void lstm_s8_steps(const LstmParams& p, const LstmData& d, int16_t* scratch, LstmGateProductFn gate_product);
// The build's choice, the last of kLstmVariants (below).
void lstm_s8(const LstmParams& p, const LstmData& d, int16_t* scratch);

// TFLM's int16 activations (reference_integer_ops::Logistic and Tanh on
// int16, lstm_eval.cc's Sigmoid and Tanh wrappers), exposed for the tests.
// `multiplier` and `shift` are the wrappers' after their power-of-two case
// (multiplier 3 << left shift, shift 0), so shift is a right shift >= 0.
int16_t lstm_sigmoid_s16(int16_t x);
int16_t lstm_tanh_s16(int16_t x, int32_t multiplier, int32_t shift);
// TFLM's Tanh(cell_state_scale_power, ...) parameters: tanh_input_left_shift =
// 15 + power - 3; a negative one becomes a right shift with multiplier 3,
// otherwise the multiplier is 3 << shift and the shift 0. Returns false for a
// power outside [-30, 0] (shift amounts no int32 product may take).
bool lstm_cell_tanh_params(int32_t cell_state_scale_power, int32_t* multiplier, int32_t* shift);

// The contract. Gates are packed in the order input, forget, cell, output;
// every per-gate list holds 4 items in that order. The biases hold TFLM's
// bias with the zero points folded in: input_bias = bias - input_zp * rowsum(W),
// recurrent_bias = -hidden_zero_point * rowsum(U) (TFLM's recurrent product
// has no bias). output_state and cell_state are the operator's state
// (runtime::state_tensor_arg): planned tensors only this instruction names,
// set at load (output_state to hidden_zero_point, cell_state to 0) and kept
// between executions.
inline constexpr runtime::ArgSpec kLstmArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::tensor_arg("input_weights", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::tensor_arg("input_bias", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::tensor_arg("recurrent_weights", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::tensor_arg("recurrent_bias", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::int_list_arg("input_multipliers"),
    runtime::int_list_arg("input_shifts"),
    runtime::int_list_arg("recurrent_multipliers"),
    runtime::int_list_arg("recurrent_shifts"),
    runtime::int_arg("forget_cell_multiplier"),
    runtime::int_arg("forget_cell_shift"),
    runtime::int_arg("input_cell_multiplier"),
    runtime::int_arg("input_cell_shift"),
    runtime::int_arg("hidden_multiplier"),
    runtime::int_arg("hidden_shift"),
    runtime::int_arg("hidden_zero_point"),
    runtime::int_arg("cell_clip"),
    runtime::int_arg("cell_state_scale_power"),
    runtime::bool_arg("time_major"),
    runtime::state_tensor_arg("output_state", runtime::kInt8, runtime::Shape::RowMajor, "hidden_zero_point"),
    runtime::state_tensor_arg("cell_state", runtime::kInt16, runtime::Shape::RowMajor),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kLstmContract =
    runtime::make_contract("etns_ops::lstm_s8.out", kLstmArgs, "hidden_zero_point");

// prepare returns InvalidArgument for: input not rank 3; weights, biases,
// states or out whose sizes do not follow from input's and state_size
// (input_weights [4, S, I], recurrent_weights [4, S, S], biases [4, S],
// states of B * S elements, out [.., .., S] with input's first two dims);
// lists not of 4 items; a multiplier outside [0, 2^31 - 1] or a shift outside
// [-31, 30]; hidden_zero_point outside int8; cell_clip outside [0, 32767];
// cell_state_scale_power outside [-30, 0]. It requests lstm_scratch_bytes.
runtime::Error lstm_prepare(runtime::PrepareContext& ctx);
runtime::Error lstm_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest).
namespace etns::kernels {

inline constexpr Variant<etns_ops::LstmFn> kLstmVariants[] = {
    {"ref", &etns_ops::lstm_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::lstm_s8_mve)
};

}  // namespace etns::kernels
