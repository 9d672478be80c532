#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "tools/writers/program/quantized_graph.h"
#include "tools/writers/tflite/tflite_model.h"

// `etns import`: an int8 TFLite model as a graph of cortex_m:: operators
// (and the portable data-movement ones), with every argument derived as
// TensorFlow Lite Micro derives its kernels' parameters, so the program
// computes TFLM's bytes (tflm_numerics.h, docs/numerics.md). Activations stay
// NHWC bytes: a 4-D tensor a convolution or pool touches is the logical
// [N, C, H, W] channels_last tensor those operators take, any other tensor
// keeps its TFLite shape, contiguous; both have the same bytes.
namespace etns::tools {

// What the trace says an operator became whose output the import computed.
inline constexpr const char* kFoldedAtImport = "folded at import";

// One TFLite tensor an operator writes, and the graph op (= program
// instruction) whose output holds its bytes; -1 when no instruction writes
// them (the model input itself, or a folded value).
struct ImportedOutput {
  int32_t tensor = 0;
  int32_t instruction = -1;
  uint64_t elements = 0;
};

// What one TFLite operator became.
struct ImportedOperator {
  int32_t index = 0;         // in the subgraph's operator list
  std::string builtin;       // "CONV_2D"
  std::string became;        // "cortex_m::quantized_conv2d", "aten::view_copy", ...
  // Every output in the operator's order: one, or several for SPLIT, SPLIT_V
  // and UNPACK. output_tensor and instruction below are the last of them,
  // whose writer is the operator's last instruction.
  std::vector<ImportedOutput> outputs;
  int32_t output_tensor = 0;  // the TFLite tensor it writes (the last one)
  // The graph op (= program instruction) whose output holds that tensor's
  // bytes; -1 when no instruction writes them (the model input itself).
  int32_t instruction = -1;
  int32_t instructions = 0;  // how many program instructions it took
  // Its work, for instructions per MAC or per element: multiply-accumulates
  // (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL; 0 for the
  // rest) and the elements of its output.
  uint64_t macs = 0;
  uint64_t output_elements = 0;  // of every output together
  // The provider its calls need ("arm", or "ns" for a cortex_m_ns:: call)
  // and, in an ns import, why it stayed on arm's operators ("" otherwise).
  std::string provider = "arm";
  std::string provider_note;
  // An operator whose output the import computed (SHAPE, and shape
  // arithmetic on constants: import_context.h, OperatorImport::fold): no
  // instruction, became kFoldedAtImport, and its value in TFLite's layout.
  bool folded = false;
  std::vector<uint8_t> folded_value;
};

struct ImportedModel {
  QuantizedGraph graph;
  std::vector<ImportedOperator> operators;
  std::vector<std::string> tolerated;  // the reader's (tflite::Model::tolerated)
};

// Throws Failure with one line "<context>: operator <i> (<BUILTIN>): <why>"
// for an operator, an option or a quantisation it cannot compute bit-exactly
// like TFLM, or "<context>: tensor <t> (<name>): <why>" for a tensor.
// `provider` ns lets an int8 activation (LEAKY_RELU, RELU, RELU6,
// RELU_N1_TO_1, HARD_SWISH) call its cortex_m_ns:: operator where that gives
// TFLM's bytes on all 256 inputs (checked at import); arm (the default)
// calls cortex_m:: and etns_ops:: operators only.
ImportedModel import_tflite(const tflite::Model& model, const std::string& context,
                            protocol::Provider provider = protocol::Provider::Arm);

}  // namespace etns::tools
