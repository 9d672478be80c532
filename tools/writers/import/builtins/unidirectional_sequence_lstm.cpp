#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/etns_ops/lstm/lstm.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/tflm/lstm_params.h"

// UNIDIRECTIONAL_SEQUENCE_LSTM on int8 as etns_ops::lstm_s8: TFLite Micro's
// integer LSTM (int8 input, weights and hidden state, int16 cell state,
// int32 biases), which no cortex_m:: operator computes. The four gates'
// weights and biases are packed in the order input, forget, cell, output,
// the biases with the zero points folded in; the hidden and cell state are
// the operator's state tensors, reset at load (hidden to its zero point, cell
// to 0) and kept between executions, as TFLM resets its variable tensors and
// keeps them between Invoke calls.
//
// TFLM's kernel (UnidirectionalSequenceLstmPrepare, LstmTensors::
// ValidateTensorStatus) takes the plain LSTM only: the inputs for CIFG,
// peepholes, projection and layer norm are refused as TFLM refuses them.
// It does not read the operator's intermediates either: the gates' scales are
// fixed (Q3.12 in, Q0.15 out), so the intermediates are ignored here too.
namespace etns::tools::builtins {
namespace {

// TFLite's input positions (lstm_shared.h).
constexpr size_t kInputTensor = 0;
constexpr size_t kInputWeights[4] = {1, 2, 3, 4};      // input_to_{input,forget,cell,output}_weights
constexpr size_t kRecurrentWeights[4] = {5, 6, 7, 8};  // recurrent_to_..._weights
constexpr size_t kPeepholes[3] = {9, 10, 11};
constexpr size_t kBiases[4] = {12, 13, 14, 15};        // {input,forget,cell,output}_gate_bias
constexpr size_t kProjection[2] = {16, 17};
constexpr size_t kOutputState = 18;
constexpr size_t kCellState = 19;
constexpr size_t kLayerNorms[4] = {20, 21, 22, 23};
constexpr size_t kInputCount = 24;

const char* const kGate[4] = {"input", "forget", "cell", "output"};

// A weight tensor: int8 [rows, depth], per-tensor scale, zero point 0.
float weight_scale(OperatorImport& c, int32_t t, int32_t rows, int32_t depth) {
  if (c.tensor(t).type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) +
           ": only int8 weights are supported (float and hybrid LSTMs are not)");
  }
  if (c.shape(t) != std::vector<int32_t>{rows, depth}) {
    c.fail(c.tensor_label(t) + " has shape " + tflite::shape_text(c.shape(t)) + ", expected [" +
           std::to_string(rows) + "," + std::to_string(depth) + "]");
  }
  const Grid g = c.per_tensor_grid(t);
  if (g.zero_point != 0) c.fail(c.tensor_label(t) + ": weight zero point " + std::to_string(g.zero_point) + ", expected 0");
  return g.scale;
}

// A state tensor TFLM keeps between Invoke calls: a variable tensor of
// batches x state elements.
void expect_state(OperatorImport& c, int32_t t, tflite::TensorType type, uint64_t elements) {
  if (!c.tensor(t).is_variable) c.fail(c.tensor_label(t) + " is not a variable tensor (TFLite Micro keeps the LSTM's state in one)");
  if (c.tensor(t).type != type) {
    c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) + ", expected " + tflite::to_string(type));
  }
  if (c.elements(t) != elements) {
    c.fail(c.tensor_label(t) + " has " + std::to_string(c.elements(t)) + " elements, expected " +
           std::to_string(elements) + " (batches x state size)");
  }
  if (c.is_constant(t)) c.fail(c.tensor_label(t) + " has data: a state that starts non-zero is not supported");
}

}  // namespace

void import_unidirectional_sequence_lstm(OperatorImport& c) {
  const tflite::Options& o = c.options();
  if (c.op().inputs.size() != kInputCount) {
    c.fail(std::to_string(c.op().inputs.size()) + " inputs, expected 24");
  }
  const int32_t x = c.input(kInputTensor), y = c.output();
  if (c.tensor(x).type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(x) + " is " + tflite::to_string(c.tensor(x).type) +
           ": only the int8 LSTM is supported (float, hybrid and 16x8 LSTMs are not)");
  }
  for (size_t k : kPeepholes) {
    if (c.has_input(k)) c.fail("input " + std::to_string(k) + " (a peephole weight) is given: TFLite Micro's LSTM has no peepholes");
  }
  for (size_t k : kProjection) {
    if (c.has_input(k)) c.fail("input " + std::to_string(k) + " (projection) is given: TFLite Micro's LSTM has no projection");
  }
  for (size_t k : kLayerNorms) {
    if (c.has_input(k)) c.fail("input " + std::to_string(k) + " (layer norm) is given: TFLite Micro's LSTM has no layer norm");
  }
  if (!c.has_input(kInputWeights[0]) || !c.has_input(kRecurrentWeights[0])) {
    c.fail("input 1 or 5 (the input gate's weights) is missing: CIFG LSTMs are not supported (nor by TFLite Micro)");
  }
  if (o.activation != tflite::Activation::Tanh) {
    c.fail("fused_activation_function " + tflite::to_string(o.activation) +
           ": TFLite Micro's LSTM computes the cell gate with TANH only");
  }
  if (o.diagonal_recurrent_tensors) c.fail("diagonal_recurrent_tensors is set: TFLite Micro's LSTM has no such path");

  c.expect_rank(x, 3);
  const std::vector<int32_t>& xs = c.shape(x);
  const bool time_major = o.time_major;
  const int32_t batches = time_major ? xs[1] : xs[0];
  const int32_t n_in = xs[2];
  const int32_t h = c.input(kOutputState), cs = c.input(kCellState);
  if (c.shape(h).empty()) c.fail(c.tensor_label(h) + " has no dims");
  const int32_t n_state = c.shape(h).back();
  if (c.shape(h).size() != 2) {
    c.fail(c.tensor_label(h) + " has shape " + tflite::shape_text(c.shape(h)) + ", expected [batches, state size]");
  }
  const uint64_t state_elements = static_cast<uint64_t>(batches) * static_cast<uint64_t>(n_state);
  expect_state(c, h, tflite::TensorType::Int8, state_elements);
  expect_state(c, cs, tflite::TensorType::Int16, state_elements);
  if (c.tensor(y).type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(y) + " is " + tflite::to_string(c.tensor(y).type) + ", expected int8");
  }
  const std::vector<int32_t> out_shape = {xs[0], xs[1], n_state};
  if (c.shape(y) != out_shape) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", expected " +
           tflite::shape_text(out_shape));
  }

  const Grid in = c.int8_grid(x);
  const Grid hidden = c.int8_grid(h);
  tflm::LstmScales scales;
  scales.input = in.scale;
  scales.hidden = hidden.scale;
  scales.hidden_zero_point = hidden.zero_point;
  const tflite::Tensor& cell = c.tensor(cs);
  if (!cell.has_quantization || cell.quantization.scales.size() != 1) {
    c.fail(c.tensor_label(cs) + " has no per-tensor quantisation (one scale)");
  }
  scales.cell = cell.quantization.scales[0];
  scales.cell_clip = o.cell_clip;

  // The packed constants: gate g's rows at g * state size.
  std::vector<uint8_t> input_weights, recurrent_weights;
  std::vector<int32_t> input_bias, recurrent_bias;
  for (size_t g = 0; g < 4; ++g) {
    const int32_t wi = c.input(kInputWeights[g]), wr = c.input(kRecurrentWeights[g]), b = c.input(kBiases[g]);
    scales.input_weights[g] = weight_scale(c, wi, n_state, n_in);
    scales.recurrent_weights[g] = weight_scale(c, wr, n_state, n_state);
    const std::vector<uint8_t>& wi_bytes = c.constant(wi, tflite::TensorType::Int8).data;
    const std::vector<uint8_t>& wr_bytes = c.constant(wr, tflite::TensorType::Int8).data;
    if (c.tensor(b).type != tflite::TensorType::Int32 || c.shape(b) != std::vector<int32_t>{n_state}) {
      c.fail(c.tensor_label(b) + " (the " + std::string(kGate[g]) + " gate's bias) is " +
             tflite::to_string(c.tensor(b).type) + " " + tflite::shape_text(c.shape(b)) + ", expected int32 [" +
             std::to_string(n_state) + "]");
    }
    const std::vector<int32_t> bias = OperatorImport::int32_values(c.constant(b, tflite::TensorType::Int32));
    const auto* wi_s8 = reinterpret_cast<const int8_t*>(wi_bytes.data());
    const auto* wr_s8 = reinterpret_cast<const int8_t*>(wr_bytes.data());
    const std::vector<int32_t> bi = tflm::lstm_folded_bias(bias, wi_s8, n_state, n_in, in.zero_point);
    const std::vector<int32_t> br = tflm::lstm_folded_bias({}, wr_s8, n_state, n_state, hidden.zero_point);
    input_weights.insert(input_weights.end(), wi_bytes.begin(), wi_bytes.end());
    recurrent_weights.insert(recurrent_weights.end(), wr_bytes.begin(), wr_bytes.end());
    input_bias.insert(input_bias.end(), bi.begin(), bi.end());
    recurrent_bias.insert(recurrent_bias.end(), br.begin(), br.end());
  }
  const tflm::LstmParams p = tflm::lstm_params(scales, c.where());

  GraphBuilder& g = c.graph();
  const auto bytes_of = [](const std::vector<int32_t>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(int32_t));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return bytes;
  };
  const int32_t gx = c.use(x, Form::Stored);
  const int32_t g_wi = g.tensor(c.name("input_weights"), runtime::ScalarType::Char, {4, n_state, n_in},
                                contiguous_order(3), GraphTensor::Role::Constant, std::move(input_weights));
  const int32_t g_wr = g.tensor(c.name("recurrent_weights"), runtime::ScalarType::Char, {4, n_state, n_state},
                                contiguous_order(3), GraphTensor::Role::Constant, std::move(recurrent_weights));
  const int32_t g_bi = g.tensor(c.name("input_bias"), runtime::ScalarType::Int, {4, n_state}, contiguous_order(2),
                                GraphTensor::Role::Constant, bytes_of(input_bias));
  const int32_t g_br = g.tensor(c.name("recurrent_bias"), runtime::ScalarType::Int, {4, n_state},
                                contiguous_order(2), GraphTensor::Role::Constant, bytes_of(recurrent_bias));
  // The state: planned tensors only this call names (the runtime resets them
  // at load; the planner keeps them for the whole method).
  const int32_t g_h = g.tensor("t" + std::to_string(h), runtime::ScalarType::Char, {batches, n_state},
                               contiguous_order(2));
  const int32_t g_c = g.tensor("t" + std::to_string(cs), runtime::ScalarType::Short, {batches, n_state},
                               contiguous_order(2));
  const int32_t gy = c.define(y, Form::Stored);

  std::vector<int64_t> in_m, in_s, rec_m, rec_s;
  for (size_t k = 0; k < 4; ++k) {
    in_m.push_back(p.input_rq[k].multiplier);
    in_s.push_back(p.input_rq[k].shift);
    rec_m.push_back(p.recurrent_rq[k].multiplier);
    rec_s.push_back(p.recurrent_rq[k].shift);
  }
  c.set_macs_per_output(4 * static_cast<uint64_t>(n_in + n_state));
  c.call(etns_ops::kLstmContract, {{"input", GraphArg::of_tensor(gx)},
                                   {"input_weights", GraphArg::of_tensor(g_wi)},
                                   {"input_bias", GraphArg::of_tensor(g_bi)},
                                   {"recurrent_weights", GraphArg::of_tensor(g_wr)},
                                   {"recurrent_bias", GraphArg::of_tensor(g_br)},
                                   {"input_multipliers", GraphArg::list(in_m)},
                                   {"input_shifts", GraphArg::list(in_s)},
                                   {"recurrent_multipliers", GraphArg::list(rec_m)},
                                   {"recurrent_shifts", GraphArg::list(rec_s)},
                                   {"forget_cell_multiplier", GraphArg::integer(p.forget_cell_rq.multiplier)},
                                   {"forget_cell_shift", GraphArg::integer(p.forget_cell_rq.shift)},
                                   {"input_cell_multiplier", GraphArg::integer(p.input_cell_rq.multiplier)},
                                   {"input_cell_shift", GraphArg::integer(p.input_cell_rq.shift)},
                                   {"hidden_multiplier", GraphArg::integer(p.hidden_rq.multiplier)},
                                   {"hidden_shift", GraphArg::integer(p.hidden_rq.shift)},
                                   {"hidden_zero_point", GraphArg::integer(p.hidden_zero_point)},
                                   {"cell_clip", GraphArg::integer(p.cell_clip)},
                                   {"cell_state_scale_power", GraphArg::integer(p.cell_state_scale_power)},
                                   {"time_major", GraphArg::boolean(time_major)},
                                   {"output_state", GraphArg::of_tensor(g_h)},
                                   {"cell_state", GraphArg::of_tensor(g_c)},
                                   {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
