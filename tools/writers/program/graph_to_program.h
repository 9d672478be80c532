#pragma once

#include <cstdint>
#include <vector>

#include "tools/writers/program/finish_program.h"
#include "tools/writers/program/memory_planner.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns::tools {

// A QuantizedGraph as an ExecuTorch program (pte-format.md §3, §4):
//
// * values: one Tensor value per graph tensor, in graph order; then, op by op
//   and argument by argument, one value per non-tensor argument (Int, Double,
//   Bool, Null; an IntList is its items as Int values followed by the list);
// * operators: each op's `op` and `overload`, in order of first use;
// * one KernelCall per op: its arguments, then the return slot repeating out
//   (pte-format.md §4.6);
// * inputs and outputs: the graph's input and output tensors, in their order;
// * Constant tensors keep their bytes as constant data; Input, Output and
//   Activation tensors are planned into one arena (memory id 1) by
//   finish_program (finish_program.h), once, after sharing equal values when
//   `options` asks for it.
//
// Deterministic: the same graph gives an equal model. Throws Failure when the
// graph names a tensor index out of range, lists a tensor twice among its
// inputs (or outputs), or has an argument kind the format has no value for.
struct ConvertedProgram {
  ProgramModel model;
  ReplanReport plan;
};
ConvertedProgram graph_to_program(const QuantizedGraph& graph, const FinishOptions& options = {});

// graph_to_program, then write_program (pte_writer.h): the .pte bytes.
std::vector<uint8_t> graph_to_pte(const QuantizedGraph& graph, ReplanReport* plan = nullptr,
                                  const FinishOptions& options = {});

}  // namespace etns::tools
