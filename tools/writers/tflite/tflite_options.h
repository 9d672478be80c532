#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tools/writers/tflite/tflite_model.h"
#include "tools/writers/tflite/tflite_schema_generated.h"

// The builtins the reader knows, the options table each carries, and the
// reading of those tables into Options (tflite_options.cpp). Internal to
// tools/writers/tflite: the reader checks an operator's table type against
// find_known and calls read_options; failures are Failure lines starting
// with `context`, as the reader's.
namespace etns::tools::tflite {

// Throws Failure("<context>: <what>"): every refusal of the reader.
[[noreturn]] void fail(const std::string& context, const std::string& what);

// Vectors are copied out byte for byte: the file's scalars are little-endian,
// and the verifier aligns only a vector's length, so 8-byte items (zero
// points) may sit at an address that is 4 modulo 8.
static_assert(FLATBUFFERS_LITTLEENDIAN, "the reader copies little-endian scalars as they are");
// A flatbuffer vector's elements (none for an absent vector).
template <typename T>
inline std::vector<T> copy_vector(const flatbuffers::Vector<T>* vector) {
  std::vector<T> out;
  if (vector == nullptr || vector->size() == 0) return out;
  out.resize(vector->size());
  std::memcpy(out.data(), vector->Data(), out.size() * sizeof(T));
  return out;
}

struct KnownOperator {
  Builtin builtin;
  tflite_fb::BuiltinOptions options;
};

// The known operator of a builtin code, or nullptr.
const KnownOperator* find_known(int32_t builtin);

// Fills `o` from the operator's table of type `type`, which the caller has
// checked is the one its operator expects.
void read_options(const tflite_fb::Operator& stored, tflite_fb::BuiltinOptions type, Options& o,
                  const std::string& where, const std::string& context);

}  // namespace etns::tools::tflite
