#pragma once

#include <array>
#include <cstdint>

#include "tools/writers/import/import_context.h"

// The shared shape of the importer's int8 -> int8 functions of one byte
// (RELU, RELU6, RELU_N1_TO_1, HARD_SWISH, LOGISTIC, TANH, QUANTIZE int8 ->
// int8): TFLM's arithmetic is run on all 256 codes at import and the program
// calls etns_ops::lookup_table with the result.
namespace etns::tools::builtins {

// The operator's input and output, checked as one elementwise int8 map:
// equal types (TFLite Micro's check), int8 with per-tensor quantisation,
// equal shapes. Fails with one line otherwise.
struct UnaryInt8 {
  int32_t x = 0;
  int32_t y = 0;
  Grid in;
  Grid out;
};
UnaryInt8 unary_int8(OperatorImport& c);

// Adds out = table[self] (etns_ops::lookup_table) in the elementwise form.
void call_lookup_table(OperatorImport& c, const UnaryInt8& u, const std::array<int8_t, 256>& table);

}  // namespace etns::tools::builtins
