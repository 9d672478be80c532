#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// The `arguments` fuzz target's mutator (docs/fuzzing.md): it changes what a
// program says to its operators, never its bytes. A program is read into the
// editable model (tools/writers/program/program_model.h); a few edits chosen by a
// seed change the values its instructions take (ints, doubles, bools, int
// lists, which value an argument names), its tensors' shapes, dim orders and
// dtypes, where planned tensors sit (offsets and arenas, so that outputs
// overlap inputs at other offsets), and which tensors are constants and what
// their bytes hold; the model is written back as a .pte. What comes out is a
// program the file layer accepts, so the argument checks and the kernels see
// it.
namespace etns::fuzz {

// The mutated program, or an empty vector when `program` cannot be read into
// the model or no edit chosen by `seed` gives a program the writer can
// write within `max_size` bytes. The same input and seed give the same bytes.
std::vector<uint8_t> mutate_arguments(const uint8_t* program, size_t size, uint32_t seed, size_t max_size);

}  // namespace etns::fuzz
