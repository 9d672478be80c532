#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/exec/operator_contract.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/hard_swish_table.h"
#include "tools/writers/import/tflm/leaky_relu_table.h"
#include "tools/writers/import/tflm/relu_table.h"

// `etns import --provider ns`: an int8 activation runs on its cortex_m_ns::
// kernel when that kernel, with the arguments chosen here, gives TFLM's bytes
// on every one of the 256 input codes. The proof is exhaustive and made at
// import: the kernel's scalar reference (the definition of its numerics, which
// every variant matches bit for bit) runs on all 256 codes and its bytes are
// compared with the TFLM table. Otherwise the operator keeps
// etns_ops::lookup_table and the import report says why.
namespace etns::tools::builtins {

// A cortex_m_ns:: call for one activation: its integer arguments in contract
// order (between self and out) and the kernel reference's output on every
// code (entry (uint8_t)q), or why the kernel cannot take this operator.
struct NsCandidate {
  const runtime::OperatorContract* contract = nullptr;
  std::vector<std::pair<const char*, int64_t>> arguments;
  std::array<int8_t, 256> bytes{};
  std::string refusal;  // non-empty: no call (its arguments are outside the kernel's range)
};

// quantized_relu for RELU and RELU_N1_TO_1: TFLM's factor, zero points and
// clamp as they are (the kernel's generic path is TFLM's ReluX).
NsCandidate ns_relu(const tflm::ReluParams& p);
// quantized_relu for RELU6: the identity factor with equal zero points
// (arm_clamp_s8's path) clamping the input byte to TFLM's [zero, six].
NsCandidate ns_relu6(const tflm::Relu6Params& p);
// quantized_leaky_relu with TFLM's two factors (a negative alpha's negative
// multiplier is outside the kernel's range).
NsCandidate ns_leaky_relu(const tflm::LeakyReluParams& p);
// quantized_hardswish with the exporter's derivation (operators.md §3.1):
// relu_q3 = round(3 / s_in), relu_q6 = round(6 / s_in) (halves to even),
// (M, S) = QM(s_in^2 / (6 s_out)), prescale 0, and relu_q3, relu_q6 one step
// either way: the first of these nine that gives `tflm` (TFLM's bytes), else
// the derivation's.
NsCandidate ns_hard_swish(float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                          const std::array<int8_t, 256>& tflm);

// Adds the operator's call: the candidate's cortex_m_ns:: operator when the
// import is for ns and the candidate's bytes equal `tflm` on all 256 codes,
// else etns_ops::lookup_table with `tflm`. Records the provider used and, in
// an ns import, why the table was kept.
void call_activation(OperatorImport& c, const UnaryInt8& u, const std::array<int8_t, 256>& tflm,
                     const NsCandidate& candidate);

// The number of codes on which two tables differ.
int32_t differing_codes(const std::array<int8_t, 256>& a, const std::array<int8_t, 256>& b);

}  // namespace etns::tools::builtins
