#pragma once

#include <cstddef>

#include "tools/writers/program/program_model.h"

namespace etns::tools {

// Makes instructions share equal scalar values: every Int, Bool, Double and
// Null argument, and every int list whose items are equal ints, is kept once
// and the calls that named a copy name it instead; the copies are dropped.
// Each value costs an EValue in the method arena (and a table entry in the
// file), so a model whose layers repeat their strides, paddings, offsets and
// bounds loads in less memory. Tensors are never merged. Returns how many
// values were dropped.
size_t share_equal_values(ProgramModel& model);

}  // namespace etns::tools
