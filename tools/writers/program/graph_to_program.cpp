#include "tools/writers/program/graph_to_program.h"

#include <string>

#include "tools/common/failure.h"
#include "tools/writers/program/pte_writer.h"

namespace etns::tools {
namespace {

using runtime::ValueKind;

ModelTensor to_model_tensor(const GraphTensor& t) {
  ModelTensor m;
  m.dtype = t.dtype;
  m.sizes = t.sizes;
  m.dim_order = t.dim_order;
  if (t.role == GraphTensor::Role::Constant) {
    m.storage = TensorStorage::Constant;
    m.data = t.data;
  } else {
    // Placed by finish_program; until then every planned tensor sits at 0.
    m.storage = TensorStorage::Planned;
    m.memory_id = 1;
    m.offset = 0;
  }
  return m;
}

// The value index of one argument, appending the values it needs.
int32_t add_argument(ProgramModel& model, const QuantizedGraph& graph, const GraphArg& arg,
                     const std::string& where) {
  switch (arg.kind) {
    case ValueKind::Tensor:
      if (arg.tensor < 0 || static_cast<size_t>(arg.tensor) >= graph.tensors.size()) {
        throw Failure(where + ": tensor index " + std::to_string(arg.tensor) + ", expected [0, " +
                      std::to_string(graph.tensors.size()) + ")");
      }
      return arg.tensor;  // tensor values come first, in graph order
    case ValueKind::Int: return model.add_value(ModelValue::integer(arg.int_value));
    case ValueKind::Double: return model.add_value(ModelValue::real(arg.double_value));
    case ValueKind::Bool: return model.add_value(ModelValue::boolean(arg.bool_value));
    case ValueKind::Null: return model.add_value(ModelValue::null());
    case ValueKind::IntList: {
      std::vector<int64_t> items;
      items.reserve(arg.int_list.size());
      for (int64_t v : arg.int_list) items.push_back(model.add_value(ModelValue::integer(v)));
      return model.add_value(ModelValue::int_list(std::move(items)));
    }
    default:
      throw Failure(where + ": argument kind " + runtime::to_string(arg.kind) +
                    ", expected Tensor, Int, Double, Bool, IntList or Null");
  }
}

// The graph's inputs or outputs name tensors it has, each once: the method's
// input (output) k is set (read) through one value.
void check_io(const QuantizedGraph& graph, const std::vector<int32_t>& indices, const char* what) {
  for (size_t k = 0; k < indices.size(); ++k) {
    const int32_t index = indices[k];
    if (index < 0 || static_cast<size_t>(index) >= graph.tensors.size()) {
      throw Failure("graph " + std::string(what) + " " + std::to_string(k) + ": tensor index " +
                    std::to_string(index) + ", expected [0, " + std::to_string(graph.tensors.size()) + ")");
    }
    for (size_t j = 0; j < k; ++j) {
      if (indices[j] == index) {
        throw Failure("graph " + std::string(what) + "s " + std::to_string(j) + " and " + std::to_string(k) +
                      " are the same tensor (" + graph.tensors[static_cast<size_t>(index)].name + ")");
      }
    }
  }
}

}  // namespace

ConvertedProgram graph_to_program(const QuantizedGraph& graph, const FinishOptions& options) {
  ConvertedProgram out;
  ProgramModel& model = out.model;
  for (const GraphTensor& t : graph.tensors) model.add_value(ModelValue::tensor_value(to_model_tensor(t)));
  for (size_t k = 0; k < graph.ops.size(); ++k) {
    const GraphOp& op = graph.ops[k];
    const std::string where = "c0i" + std::to_string(k) + " " + op.full_name();
    if (op.args.empty() || op.args.back().kind != ValueKind::Tensor) {
      throw Failure(where + ": the last argument is not the out tensor");
    }
    KernelCall call;
    call.op_index = model.add_operator(op.op, op.overload);
    for (const GraphArg& arg : op.args) call.args.push_back(add_argument(model, graph, arg, where));
    call.args.push_back(call.args.back());  // the return slot repeats out (pte-format.md §4.6)
    model.instructions.push_back(std::move(call));
  }
  check_io(graph, graph.inputs, "input");
  check_io(graph, graph.outputs, "output");
  model.inputs = graph.inputs;
  model.outputs = graph.outputs;
  out.plan = finish_program(model, options);
  return out;
}

std::vector<uint8_t> graph_to_pte(const QuantizedGraph& graph, ReplanReport* plan, const FinishOptions& options) {
  ConvertedProgram converted = graph_to_program(graph, options);
  if (plan != nullptr) *plan = converted.plan;
  return write_program(converted.model);
}

}  // namespace etns::tools
