#pragma once

#include <cstdint>
#include <vector>

#include "tools/writers/import/import_context.h"

// numpy broadcasting for the binary builtins (ADD, MUL, MINIMUM, MAXIMUM):
// cortex_m::minimum and maximum walk a broadcast themselves; quantized_add and
// quantized_mul take equal sizes, so a smaller operand is first expanded to
// the output's sizes by cortex_m::maximum against a constant of -128 (which
// leaves every code as it is).
namespace etns::tools::builtins {

// Whether cortex_m::minimum/maximum refuse a general broadcast of these
// stored shapes (kernels/common/broadcast_walk.cpp): a rank-5 output with a
// leading dim other than 1, or, in the last 4 dims, an operand whose last two
// are 1 and third-last above 1 against one whose second-last is above 1
// (CMSIS-NN's row-scalar walk skips elements there).
bool broadcast_walk_refused(const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                            const std::vector<int32_t>& out);

// The broadcast of a and b over fewer dims: dims of size 1 everywhere
// dropped, neighbours that broadcast alike merged (the bytes do not move).
struct Merged {
  std::vector<int32_t> a, b, out;
};
Merged merged_dims(const std::vector<int32_t>& sa, const std::vector<int32_t>& sb, const std::vector<int32_t>& sizes);

// The two inputs of an elementwise ADD, MUL or SUB as graph tensors the
// kernels pair, and the form the output takes: equal shapes in
// elementwise_form; a 4-D tensor against its C channel values (C > 1) in
// channels_last with the values as [1, C, 1, 1] (the kernels' channel
// broadcast: a and b then differ in size); otherwise (the output the inputs'
// broadcast, else a failure) the stored form, an input with the output's
// element count reshaped, a smaller one expanded (above).
struct PairedOperands {
  int32_t a = -1, b = -1;
  Form form = Form::Stored;
  // b's graph tensor: its sizes and dim order.
  std::vector<int32_t> b_sizes;
  std::vector<uint8_t> b_order;
};
PairedOperands paired_operands(OperatorImport& c, int32_t a, int32_t b, int32_t y);

}  // namespace etns::tools::builtins
