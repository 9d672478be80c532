#include "kernels/etns_ops/lstm/lstm.h"

#include <cstring>
#include <initializer_list>

#include "kernels/common/checks.h"
#include "runtime/core/format.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::Tensor;

constexpr const runtime::OperatorContract& kContract = kLstmContract;
constexpr runtime::Arg kInput = kContract.arg("input");
constexpr runtime::Arg kInputWeights = kContract.arg("input_weights");
constexpr runtime::Arg kInputBias = kContract.arg("input_bias");
constexpr runtime::Arg kRecurrentWeights = kContract.arg("recurrent_weights");
constexpr runtime::Arg kRecurrentBias = kContract.arg("recurrent_bias");
constexpr runtime::Arg kInputMultipliers = kContract.arg("input_multipliers");
constexpr runtime::Arg kInputShifts = kContract.arg("input_shifts");
constexpr runtime::Arg kRecurrentMultipliers = kContract.arg("recurrent_multipliers");
constexpr runtime::Arg kRecurrentShifts = kContract.arg("recurrent_shifts");
constexpr runtime::Arg kForgetCellMultiplier = kContract.arg("forget_cell_multiplier");
constexpr runtime::Arg kForgetCellShift = kContract.arg("forget_cell_shift");
constexpr runtime::Arg kInputCellMultiplier = kContract.arg("input_cell_multiplier");
constexpr runtime::Arg kInputCellShift = kContract.arg("input_cell_shift");
constexpr runtime::Arg kHiddenMultiplier = kContract.arg("hidden_multiplier");
constexpr runtime::Arg kHiddenShift = kContract.arg("hidden_shift");
constexpr runtime::Arg kHiddenZeroPoint = kContract.arg("hidden_zero_point");
constexpr runtime::Arg kCellClip = kContract.arg("cell_clip");
constexpr runtime::Arg kCellStateScalePower = kContract.arg("cell_state_scale_power");
constexpr runtime::Arg kTimeMajor = kContract.arg("time_major");
constexpr runtime::Arg kOutputState = kContract.arg("output_state");
constexpr runtime::Arg kCellState = kContract.arg("cell_state");
constexpr runtime::Arg kOut = kContract.out();

// `t` has exactly `sizes` (rank and every dim); the message gives both shapes.
Error check_sizes(const runtime::PrepareContext& ctx, const Tensor& t, const char* name,
                  std::initializer_list<int32_t> sizes) {
  bool same = t.rank == sizes.size();
  size_t d = 0;
  for (int32_t want : sizes) {
    if (same && t.size(d) != want) same = false;
    ++d;
  }
  if (same) return Error::Ok;
  char have[64] = "[";
  for (uint8_t i = 0; i < t.rank && i < 4; ++i) {
    runtime::format_text(have + strlen(have), sizeof(have) - strlen(have), i == 0 ? "%d" : ", %d", static_cast<int>(t.size(i)));
  }
  runtime::format_text(have + strlen(have), sizeof(have) - strlen(have), t.rank > 4 ? ", ...]" : "]");
  const int32_t* w = sizes.begin();
  if (sizes.size() == 3) {
    return ctx.fail(Error::InvalidArgument, "%s has shape %s, expected [%d, %d, %d]", name, have, static_cast<int>(w[0]),
                    static_cast<int>(w[1]), static_cast<int>(w[2]));
  }
  return ctx.fail(Error::InvalidArgument, "%s has shape %s, expected [%d, %d]", name, have, static_cast<int>(w[0]),
                  static_cast<int>(w[1]));
}

// Four (multiplier, shift) pairs from two 4-item lists.
Error read_gate_requants(const runtime::PrepareContext& ctx, runtime::Arg multipliers, runtime::Arg shifts,
                         kernels::Requant* out) {
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList m, ctx.int_list(multipliers));
  ETNS_ASSIGN_OR_RETURN(const runtime::IntList s, ctx.int_list(shifts));
  if (m.size != kLstmGates || s.size != kLstmGates) {
    return ctx.fail(Error::InvalidArgument, "%s and %s have %zu and %zu items, expected 4 each (one per gate)",
                    multipliers.name(), shifts.name(), static_cast<size_t>(m.size), static_cast<size_t>(s.size));
  }
  for (int g = 0; g < kLstmGates; ++g) {
    ETNS_TRY(kernels::check_range(ctx, multipliers.name(), m.at(g), 0, INT32_MAX));
    ETNS_TRY(kernels::check_range(ctx, shifts.name(), s.at(g), -31, 30));
    out[g] = kernels::Requant{static_cast<int32_t>(m.at(g)), static_cast<int32_t>(s.at(g))};
  }
  return Error::Ok;
}

}  // namespace

Error lstm_prepare(runtime::PrepareContext& ctx) {
  ETNS_ASSIGN_OR_RETURN(Tensor * input, ctx.tensor(kInput));
  ETNS_ASSIGN_OR_RETURN(Tensor * input_weights, ctx.tensor(kInputWeights));
  ETNS_ASSIGN_OR_RETURN(Tensor * input_bias, ctx.tensor(kInputBias));
  ETNS_ASSIGN_OR_RETURN(Tensor * recurrent_weights, ctx.tensor(kRecurrentWeights));
  ETNS_ASSIGN_OR_RETURN(Tensor * recurrent_bias, ctx.tensor(kRecurrentBias));
  ETNS_ASSIGN_OR_RETURN(Tensor * output_state, ctx.tensor(kOutputState));
  ETNS_ASSIGN_OR_RETURN(Tensor * cell_state, ctx.tensor(kCellState));
  ETNS_ASSIGN_OR_RETURN(Tensor * out, ctx.tensor(kOut));

  ETNS_TRY(kernels::check_rank(ctx, *input, "input", 3));
  ETNS_TRY(kernels::check_rank(ctx, *input_weights, "input_weights", 3));
  ETNS_ASSIGN_OR_RETURN(const bool time_major, ctx.bool_value(kTimeMajor));
  const int32_t batches = time_major ? input->size(1) : input->size(0);
  const int32_t steps = time_major ? input->size(0) : input->size(1);
  const int32_t n_in = input->size(2);
  const int32_t n_state = input_weights->size(1);
  ETNS_TRY(check_sizes(ctx, *input_weights, "input_weights", {kLstmGates, n_state, n_in}));
  ETNS_TRY(check_sizes(ctx, *recurrent_weights, "recurrent_weights", {kLstmGates, n_state, n_state}));
  ETNS_TRY(check_sizes(ctx, *input_bias, "input_bias", {kLstmGates, n_state}));
  ETNS_TRY(check_sizes(ctx, *recurrent_bias, "recurrent_bias", {kLstmGates, n_state}));
  ETNS_TRY(check_sizes(ctx, *out, "out", {input->size(0), input->size(1), n_state}));
  const size_t state_elements = static_cast<size_t>(batches) * static_cast<size_t>(n_state);
  if (output_state->numel != state_elements || cell_state->numel != state_elements) {
    return ctx.fail(Error::InvalidArgument,
                    "output_state and cell_state have %zu and %zu elements, expected %zu (batches x state size)",
                    output_state->numel, cell_state->numel, state_elements);
  }

  LstmParams p;
  p.batches = batches;
  p.steps = steps;
  p.input_size = n_in;
  p.state_size = n_state;
  p.time_major = time_major ? 1 : 0;
  ETNS_TRY(read_gate_requants(ctx, kInputMultipliers, kInputShifts, p.input_rq));
  ETNS_TRY(read_gate_requants(ctx, kRecurrentMultipliers, kRecurrentShifts, p.recurrent_rq));
  ETNS_ASSIGN_OR_RETURN(p.forget_cell_rq, kernels::read_requant(ctx, kForgetCellMultiplier, kForgetCellShift));
  ETNS_ASSIGN_OR_RETURN(p.input_cell_rq, kernels::read_requant(ctx, kInputCellMultiplier, kInputCellShift));
  ETNS_ASSIGN_OR_RETURN(p.hidden_rq, kernels::read_requant(ctx, kHiddenMultiplier, kHiddenShift));
  ETNS_ASSIGN_OR_RETURN(p.hidden_zero_point, kernels::read_zero_point(ctx, kHiddenZeroPoint));
  ETNS_ASSIGN_OR_RETURN(p.cell_clip, kernels::read_int_in_range(ctx, kCellClip, 0, INT16_MAX));
  ETNS_ASSIGN_OR_RETURN(const int32_t power, kernels::read_int_in_range(ctx, kCellStateScalePower, -30, 0));
  lstm_cell_tanh_params(power, &p.cell_tanh_multiplier, &p.cell_tanh_shift);

  ETNS_ASSIGN_OR_RETURN(LstmParams * stored, ctx.make_state<LstmParams>());
  *stored = p;
  ctx.request_scratch(lstm_scratch_bytes(n_state));
  return Error::Ok;
}

Error lstm_run(const runtime::RunContext& ctx) {
  LstmData d;
  d.input = ctx.tensor(kInput).data_as<const int8_t>();
  d.input_weights = ctx.tensor(kInputWeights).data_as<const int8_t>();
  d.input_bias = ctx.tensor(kInputBias).data_as<const int32_t>();
  d.recurrent_weights = ctx.tensor(kRecurrentWeights).data_as<const int8_t>();
  d.recurrent_bias = ctx.tensor(kRecurrentBias).data_as<const int32_t>();
  d.output_state = ctx.tensor(kOutputState).data_as<int8_t>();
  d.cell_state = ctx.tensor(kCellState).data_as<int16_t>();
  d.out = ctx.tensor(kOut).data_as<int8_t>();
  lstm_s8(ctx.state<LstmParams>(), d, reinterpret_cast<int16_t*>(ctx.scratch.data()));
  return Error::Ok;
}

void lstm_s8(const LstmParams& p, const LstmData& d, int16_t* scratch) {
  kernels::fastest(kernels::kLstmVariants)(p, d, scratch);
}

}  // namespace etns::etns_ops
