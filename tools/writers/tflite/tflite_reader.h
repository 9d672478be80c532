#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/tflite/tflite_model.h"

// Reads a TFLite model (.tflite) into the plain model of tflite_model.h, after
// verifying every byte it reads.
namespace etns::tools::tflite {

// The largest tensor the reader accepts: its extent (the product of its dims,
// an empty dim counted as 1) times its element size, below 2 GiB so that no
// product of a tensor's dims a later step forms can wrap, in int32 (the
// importer's sizes) or in the M55's 32-bit size_t.
inline constexpr uint64_t kMaxTensorBytes = (uint64_t{1} << 31) - 1;
// The most constant data a model may hold, counted once per tensor: each
// tensor gets its own copy of its buffer, and tensors may share one.
inline constexpr uint64_t kMaxConstantBytes = uint64_t{1} << 30;

// `bytes` is a whole .tflite file; `context` (usually the file name) starts
// every message. Throws Failure with one line, "<context>: <what and where>",
// when the file is not a TFLite flatbuffer (identifier "TFL3"), fails the
// flatbuffers verifier (truncated, corrupt), is not schema version 3, does not
// have exactly one subgraph, or breaks a rule the model relies on: indices
// (tensors, operator codes, buffers) in range; buffer data inline or wholly
// inside the file; static, non-negative shapes of at most kMaxTensorBytes;
// constant data of exactly the tensor's size, kMaxConstantBytes in all; consistent quantisation
// (as many zero points as scales; per-channel: one per element of the
// quantized dimension); known enum values; the builtin options table that the
// operator's code expects (for the operators of the Builtin enum); a custom
// code on CUSTOM operators. Sparse tensors and custom quantisation are
// refused. Operators outside the Builtin enum are read with their code,
// version and options type, for the importer to refuse by name.
Model read_tflite(const std::vector<uint8_t>& bytes, const std::string& context);

// The BuiltinOptions type tag an operator of `builtin` carries (1 for
// CONV_2D's Conv2DOptions, ...), or 0 for one that takes none (CUSTOM) or
// whose options etns does not read.
uint32_t expected_options_type(int32_t builtin);

// "Conv2DOptions", ...; "type <n>" for a tag etns does not know.
std::string options_type_name(uint32_t type);

// The size of one element of `type` in bytes, or 0 when it has no fixed size
// (string, resource, variant, packed int4, unknown).
uint32_t element_size(TensorType type);

}  // namespace etns::tools::tflite
