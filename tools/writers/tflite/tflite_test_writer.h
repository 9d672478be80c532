#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/tflite/tflite_model.h"

// Writes a Model as a .tflite file, so that tests and fuzz seeds never need a
// converter or the real models. It writes what the model says, valid or not
// (a -1 dim, a wrong data size, a mismatched options type), which is how the
// reader's refusals are tested; WriteOptions adds what the model cannot say.
// read_tflite(write_tflite(m)) == m for every model the reader accepts.
namespace etns::tools::tflite {

// A buffer's offset and size fields written as given, with no data: files
// whose outside data lies anywhere, including past the end.
struct RawBufferLocation {
  uint32_t buffer = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct WriteOptions {
  // Buffer data after the flatbuffer, each at a 16-byte-aligned offset named
  // by the buffer's offset and size (the large-model layout), not inline.
  bool external_buffers = false;
  // Operator codes only in deprecated_builtin_code, builtin_code 0 (as older
  // converters wrote them); codes above 127 cannot be written so.
  bool legacy_opcodes = false;
  // The subgraph is written this many times (0 and 2 test the refusals).
  uint32_t subgraph_copies = 1;
  // The number of buffers; 0 = one more than the largest index a tensor names
  // (and at least one, the empty sentinel).
  uint32_t buffer_count = 0;
  std::vector<RawBufferLocation> raw_locations;
};

// The file. Operator codes are the distinct (builtin, version, custom code)
// triples in order of first use; buffer i holds the data of the tensors that
// name it. The options table written is of type op.builtin_options_type, or,
// when that is 0 and op.options.present, of the type the operator expects
// (expected_options_type); its fields come from op.options (an empty table
// for a type without fields here). Throws Failure for a model it cannot write:
// tensors naming one buffer with different data, data for a buffer past
// buffer_count, a legacy code above 127.
std::vector<uint8_t> write_tflite(const Model& model, const WriteOptions& options = {});

// A small int8 classifier in the shape of the MLPerf models: conv (weights
// per channel, int32 bias), reshape, fully connected, softmax; version 3.
Model example_classifier();

// Every operator of the Builtin enum with options other than the defaults, a
// CUSTOM operator with custom options, REDUCE_PROD with its options table (a
// builtin etns does not read) and GELU (a code above 127). Not a runnable graph.
Model example_operators();

// "" when `a` and `b` hold the same values (floats compared bit for bit),
// else the first difference: "tensor 3 (\"w\"): scales differ".
std::string first_difference(const Model& a, const Model& b);

}  // namespace etns::tools::tflite
