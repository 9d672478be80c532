#include "tools/writers/import/import_program.h"

#include "tools/common/failure.h"
#include "tools/writers/import/program_check.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/writers/tflite/tflite_reader.h"

namespace etns::tools {
namespace {

// ExecuTorch's pytree specs of forward(x0, x1, ...) -> y (or a tuple of
// outputs), as the stock exporter writes them into container_meta_type, so
// that ExecuTorch's Python runtime can call the program.
constexpr const char* kLeaf = R"({"type": null, "context": null, "children_spec": []})";

std::string tuple_of_leaves(size_t n) {
  std::string children;
  for (size_t i = 0; i < n; ++i) children += (i == 0 ? "" : ", ") + std::string(kLeaf);
  return R"({"type": "builtins.tuple", "context": "null", "children_spec": [)" + children + "]}";
}

std::string input_spec(size_t inputs) {
  return "[1, {\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": [" + tuple_of_leaves(inputs) +
         R"(, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])";
}

std::string output_spec(size_t outputs) {
  return "[1, " + (outputs == 1 ? std::string(kLeaf) : tuple_of_leaves(outputs)) + "]";
}

}  // namespace

ImportedProgram import_program(const std::vector<uint8_t>& tflite, const std::string& context,
                               protocol::Provider provider) {
  ImportedProgram result;
  result.imported = import_tflite(tflite::read_tflite(tflite, context), context, provider);
  // Layers repeat their strides, paddings, offsets and bounds: one value each
  // (the method arena holds an EValue per value), then memory planned once.
  FinishOptions finish;
  finish.share_equal_values = true;
  check_planned_sizes(result.imported, context);
  try {
    result.program = graph_to_program(result.imported.graph, finish);
  } catch (const Failure& failure) {
    throw Failure(context + ": the imported program fails verification: " + failure.what());
  }
  ProgramModel& model = result.program.model;
  model.encoded_inp_str = input_spec(model.inputs.size());
  model.encoded_out_str = output_spec(model.outputs.size());
  result.pte = write_program(model);
  // Nothing a target would refuse: loaded and prepared as the firmware does.
  check_program_loads(result.pte, result.imported, context, provider);
  for (const ModelValue& v : model.values) {
    if (v.kind == runtime::ValueKind::Tensor && v.tensor.storage == TensorStorage::Constant) {
      result.constant_bytes += v.tensor.data.size();
    }
  }
  return result;
}

}  // namespace etns::tools
