#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/program/program_model.h"

namespace etns::tools {

// One rewrite: which instructions (ids of the input program, "c0i7
// aten::leaky_relu.out") became which cortex_m_ns op, with its arguments and
// how they were derived.
struct LoweringRewrite {
  std::string op;                     // "cortex_m_ns::quantized_leaky_relu.out"
  std::vector<std::string> replaced;  // the instruction(s) it replaces, absorbed quantize/dequantize included
  std::string parameters;             // "input_zero_point=0 output_zero_point=-99 ..."
  std::string derivation;             // where the scales came from; empty when nothing to say
};

// An instruction that could have been lowered but was not, and why.
struct LoweringKept {
  std::string instruction;  // "c0i2 aten::mean.out"
  std::string reason;
};

struct LoweringResult {
  std::vector<LoweringRewrite> rewrites;
  std::vector<LoweringKept> kept;
  size_t instructions_before = 0;
  size_t instructions_after = 0;
  uint64_t arena_before_bytes = 0;  // planned arena(s) as the input program has them
  uint64_t arena_after_bytes = 0;
  uint64_t arena_lower_bound_bytes = 0;  // after: no plan of the lowered program does better
};

// Rewrites an arm program (stock cortex_m:: ops and portable aten:: fallbacks)
// into an ns one, in place:
//  * float islands: aten::leaky_relu (constant slope > 0), aten::sub (alpha 1,
//    no broadcasting), aten::clamp / relu / hardtanh (constant bounds) and
//    aten::mean (constant dims, contiguous rank <= 4 input) whose float inputs
//    come from cortex_m::dequantize_per_tensor (or from an op lowered here)
//    become cortex_m_ns ops; a quantize that is the only reader of such an
//    op's output is absorbed (its scale and zero point are the op's output
//    quantisation). An intermediate float value with no quantize reader gets
//    a quantisation derived from its exact reachable range (every input code
//    pushed through the op): scale = range / 255, zero point placing the
//    range's minimum at -128.
//  * aten::clamp.out on int8 with Int bounds becomes quantized_relu with
//    identical input and output quantisation (arm_clamp_s8).
//  * the stock hardswish decomposition minimum(x, c) + quantized_mul(x, min)
//    becomes quantized_hardswish: (M, S) is the mul's (it is already
//    QM(s_in^2 / (6 s_out))), relu_q3 = c - zp_in, relu_q6 = 2 relu_q3 (the
//    saturation point of the decomposition, so the rewrite is bit-exact).
//  * etns_ops::lookup_table (an imported TFLite activation) becomes
//    quantized_relu or quantized_leaky_relu when arguments fitted to the
//    table make the kernel's reference give all 256 entries
//    (lower_tables.cpp; docs/design.md).
//  * etns_ops::quantized_reduce's mean branches (an imported MEAN) become
//    quantized_mean where one factor gives TFLM's output on every reachable
//    sum (ns_mean_proof.h), else the report says why.
// Dequantizes left without readers are removed, then unused values dropped and
// memory re-planned. A program with nothing to lower is left untouched, so
// lowering is idempotent. Throws Failure on a malformed model.
LoweringResult lower_to_ns(ProgramModel& model);

// Difference between two programs' outputs on one input, in output LSBs: a
// float output is measured on the quantisation of the dequantize that
// writes it in `original` (|a - b| / scale), an int8 output in codes.
struct OutputDifference {
  double max_lsb = 0;
  double mean_lsb = 0;
  size_t elements = 0;
};

// Runs `original_pte` on the arm provider and `lowered_pte` on the ns
// provider (host) with `input` as input 0 (all zeros when empty) and compares
// output 0. Throws Failure on any load or run error.
OutputDifference compare_lowered(const std::string& original_pte, const std::string& lowered_pte,
                                 const std::vector<uint8_t>& input);

// The Markdown report of `etns lower`. `difference` may be null (not run).
std::string lowering_report(const std::string& input_path, const std::string& output_path,
                            const LoweringResult& result, const OutputDifference* difference,
                            const std::string& input_description);

}  // namespace etns::tools
