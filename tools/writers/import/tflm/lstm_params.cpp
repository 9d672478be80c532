#include "tools/writers/import/tflm/lstm_params.h"

#include <algorithm>
#include <cmath>

#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::tflm {
namespace {

// lstm_eval_common.cc's literals, as floats.
constexpr float kNonlinearInputScale = 0.00024414062F;   // Q3.12
constexpr float kNonlinearOutputScale = 0.00003051757F;  // Q0.15
static_assert(kNonlinearInputScale == 0x1p-12F, "the literal is 2^-12 as a float");
static_assert(kNonlinearOutputScale < 0x1p-15F, "the literal is just below 2^-15 as a float");

const char* const kGateNames[4] = {"input", "forget", "cell", "output"};

// CheckedLog2's value: round(log(x) * (1 / log(2))) in float.
int32_t checked_log2(float x) {
  const float log2 = std::log(x) * (1.0F / std::log(2.0F));
  return static_cast<int32_t>(std::round(log2));
}

}  // namespace

LstmParams lstm_params(const LstmScales& s, const std::string& what) {
  LstmParams p;
  for (size_t g = 0; g < 4; ++g) {
    const std::string gate = std::string(kGateNames[g]) + " gate";
    p.input_rq[g] = fully_connected_multiplier(s.input, s.input_weights[g], kNonlinearInputScale,
                                               what + ": " + gate + " input product");
    p.recurrent_rq[g] = fully_connected_multiplier(s.hidden, s.recurrent_weights[g], kNonlinearInputScale,
                                                   what + ": " + gate + " recurrent product");
  }
  p.forget_cell_rq = mul_multiplier(kNonlinearOutputScale, s.cell, s.cell, what + ": forget gate x cell state");
  p.input_cell_rq =
      mul_multiplier(kNonlinearOutputScale, kNonlinearOutputScale, s.cell, what + ": input gate x cell gate");
  p.hidden_rq =
      mul_multiplier(kNonlinearOutputScale, kNonlinearOutputScale, s.hidden, what + ": tanh(cell) x output gate");
  p.hidden_zero_point = s.hidden_zero_point;

  if (!(s.cell > 0.0F) || !std::isfinite(s.cell)) {
    throw Failure(what + ": cell state scale " + std::to_string(s.cell) + " is not positive");
  }
  p.cell_state_scale_power = checked_log2(s.cell);
  if (p.cell_state_scale_power < -30 || p.cell_state_scale_power > 0) {
    throw Failure(what + ": cell state scale " + std::to_string(s.cell) + " is 2^" +
                  std::to_string(p.cell_state_scale_power) + ", expected 2^-30 .. 2^0");
  }
  if (s.cell_clip > 0.0F) {
    const double clip = std::min(std::max(static_cast<double>(s.cell_clip) / static_cast<double>(s.cell), -32768.0),
                                 32767.0);
    p.cell_clip = static_cast<int16_t>(clip);
    if (p.cell_clip <= 0) {
      throw Failure(what + ": cell_clip " + std::to_string(s.cell_clip) + " is below one cell state step (" +
                    std::to_string(s.cell) + "): TFLite Micro would clip the cell state to 0");
    }
  }
  return p;
}

std::vector<int32_t> lstm_folded_bias(const std::vector<int32_t>& bias, const int8_t* weights, int32_t rows,
                                      int32_t depth, int32_t zero_point) {
  std::vector<int32_t> folded(static_cast<size_t>(rows));
  for (int32_t r = 0; r < rows; ++r) {
    int64_t sum = 0;
    for (int32_t k = 0; k < depth; ++k) sum += weights[static_cast<size_t>(r) * static_cast<size_t>(depth) + k];
    const int64_t value = (bias.empty() ? 0 : bias[static_cast<size_t>(r)]) - int64_t{zero_point} * sum;
    folded[static_cast<size_t>(r)] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(value)));
  }
  return folded;
}

}  // namespace etns::tools::tflm
