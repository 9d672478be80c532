#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/import/tflite_import.h"

// Checks an imported program tensor by tensor against a reference run of
// the TFLite model: `etns run --dump-dir DUMP` writes each instruction's
// output as DUMP/c0i<k>.bin; the reference folder holds each TFLite
// operator's output as opNNN_t<T>.bin (the mlperf-tiny layout: NNN the
// operator's 3-digit index, T its output tensor; an operator with several
// outputs has one file each). The import's trace (ImportedOperator::outputs,
// each output's instruction) pairs them, one row per output.
namespace etns::tools {

struct TensorComparison {
  int32_t op_index = 0;
  std::string builtin;
  int32_t tensor = 0;
  std::string reference_file;  // "" when the reference folder lacks it
  std::string dump_file;       // "" when no instruction writes it
  bool folded = false;         // compared with the value the import folded
  size_t elements = 0;
  bool exact = false;
  // In steps of the element: int8 for a dump, the output's type (int8 or
  // int32) for a folded value.
  int32_t max_abs_diff = 0;
  int64_t first_difference = -1;  // element index, or -1
  std::string problem;      // a missing file or a size mismatch, else ""
};

// "op000_t22.bin": the reference file of operator `op` writing tensor `tensor`.
std::string reference_file_name(int32_t op, int32_t tensor);

// One row per TFLite operator, in model order; a folded operator's value
// (ImportedOperator::folded_value) is compared as a dump would be. Never throws for a missing or
// short file: the row says so.
std::vector<TensorComparison> compare_tensors(const ImportedModel& imported, const std::string& dump_dir,
                                              const std::string& reference_dir);

// "op 0 CONV_2D t22 (c0i0): bit-exact" or "... max |diff| 3, first at element 17".
std::string format_comparison(const TensorComparison& row);

}  // namespace etns::tools
