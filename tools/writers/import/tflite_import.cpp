#include "tools/writers/import/tflite_import.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tools/common/failure.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/import_context.h"
#include "tools/writers/import/operator_checks.h"

// The walk over the model: each operator in order through its builtin's
// import function (builtins/builtins.h), a record of what it became, then the
// method's inputs and outputs in the model's order.
namespace etns::tools {
namespace {

using tflite::Builtin;

// Every tensor an operator reads or writes holds at least one element
// (RESHAPE's new_shape aside, which is empty for a scalar): the builtins'
// shape arithmetic divides by channel and row counts, and no cortex_m::
// kernel has work to do on an empty tensor.
void expect_elements(const OperatorImport& c) {
  const tflite::Operator& op = c.op();
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    if (k == 1 && static_cast<Builtin>(op.builtin) == Builtin::Reshape) continue;
    if (op.inputs[k] >= 0 && c.elements(op.inputs[k]) == 0) {
      c.fail(c.tensor_label(op.inputs[k]) + ", input " + std::to_string(k) + ", has no elements (shape " +
             tflite::shape_text(c.shape(op.inputs[k])) + ")");
    }
  }
  for (const int32_t out : c.outputs()) {
    if (c.elements(out) == 0) {
      c.fail(c.tensor_label(out) + ", the output, has no elements (shape " + tflite::shape_text(c.shape(out)) + ")");
    }
  }
}

// Why no import function exists for the operator's builtin, or "" when one does.
std::string unsupported(const tflite::Operator& op) {
  const auto builtin = static_cast<Builtin>(op.builtin);
  if (builtin == Builtin::Custom) return "custom operator \"" + op.custom_code + "\" has no cortex_m:: equivalent";
  if (builtins::find_import(builtin) == nullptr) return "no cortex_m:: operator computes it like TFLite Micro";
  return "";
}

ImportedOperator import_operator(ImportState& state, int32_t index) {
  OperatorImport c(state, index);
  const tflite::Operator& op = c.op();
  const std::string why = unsupported(op);
  if (!why.empty()) c.fail(why);
  const std::vector<int32_t> outs = c.outputs();
  check_operator(state, c);
  expect_elements(c);
  builtins::find_import(static_cast<Builtin>(op.builtin))(c);
  ImportedOperator record;
  record.index = index;
  record.builtin = tflite::builtin_name(op.builtin);
  record.became = c.became();
  for (const int32_t out : outs) {
    const ImportState::Forms& f = state.forms[static_cast<size_t>(out)];
    const int32_t written = f.channels_last >= 0 ? f.channels_last : f.stored;
    ImportedOutput o;
    o.tensor = out;
    o.instruction =
        static_cast<size_t>(written) < state.producer.size() ? state.producer[static_cast<size_t>(written)] : -1;
    o.elements = c.elements(out);
    record.outputs.push_back(o);
    record.output_elements += o.elements;
  }
  const int32_t out = outs.back();
  record.output_tensor = out;
  record.instruction = record.outputs.back().instruction;
  record.instructions = c.instructions();
  record.macs = record.output_elements * c.macs_per_output();
  record.provider = protocol::to_string(c.provider_used());
  record.provider_note = c.provider_note();
  record.folded = c.folded();
  if (record.folded) record.folded_value = state.folded[static_cast<size_t>(out)]->data;
  return record;
}

// Every operator the import refuses, in TFLite's terms: an unsupported
// builtin once, with how many operators use it, at the first; any other
// refusal (an option, a tensor) once per operator.
struct Refusals {
  struct Line {
    std::string kind;  // "SHAPE", or "CUSTOM MyOp"
    bool per_builtin = false;  // an unsupported builtin: counted, said once
    int32_t count = 0;
    std::string text;
  };
  std::vector<Line> lines;

  void add(const tflite::Operator& op, const std::string& text, bool per_builtin) {
    const std::string kind = tflite::builtin_name(op.builtin) +
                             (static_cast<Builtin>(op.builtin) == Builtin::Custom ? " " + op.custom_code : "");
    if (per_builtin) {
      for (Line& line : lines) {
        if (line.per_builtin && line.kind == kind) {
          ++line.count;
          return;
        }
      }
    }
    lines.push_back({kind, per_builtin, 1, text});
  }

  std::string text() const {
    std::string out;
    for (const Line& line : lines) {
      if (!out.empty()) out += '\n';
      out += line.text;
      if (line.count > 1) {
        out += " (" + std::to_string(line.count) + " " + line.kind + " operators; this is the first)";
      }
    }
    return out;
  }
};

std::string operator_line(const ImportState& state, size_t index, const std::string& why) {
  return state.context + ": operator " + std::to_string(index) + " (" +
         tflite::builtin_name(state.model.operators[index].builtin) + "): " + why;
}

// The graph tensor holding model input or output t: the form made first (its
// role is Input or Output; a copy into the other form is an activation).
int32_t caller_tensor(const ImportState& state, int32_t t, const char* what) {
  const tflite::Model& m = state.model;
  if (t < 0 || static_cast<size_t>(t) >= m.tensors.size()) {
    throw Failure(state.context + ": model " + what + " tensor " + std::to_string(t) + " out of range");
  }
  const ImportState::Forms& f = state.forms[static_cast<size_t>(t)];
  const int32_t first = f.channels_last >= 0 && (f.stored < 0 || f.channels_last < f.stored) ? f.channels_last : f.stored;
  if (first < 0) {
    throw Failure(state.context + ": model " + what + " tensor " + std::to_string(t) + " (\"" +
                  m.tensors[static_cast<size_t>(t)].name + "\") is " +
                  (std::string(what) == "input" ? "read by no operator" : "written by no operator"));
  }
  if (state.is_model_input(t) && state.is_model_output(t)) {
    throw Failure(state.context + ": tensor " + std::to_string(t) + " is both a model input and a model output");
  }
  return first;
}

}  // namespace

ImportedModel import_tflite(const tflite::Model& model, const std::string& context, protocol::Provider provider) {
  ImportState state(model, context);
  state.provider = provider;
  if (model.inputs.empty() || model.outputs.empty()) throw Failure(context + ": the model has no input or no output");
  ImportedModel result;
  result.tolerated = model.tolerated;
  Refusals refusals;
  // Tensors a refused operator should have written: an operator reading one
  // cannot be checked, so it is refused only when its builtin itself is (its
  // other problems show once the first are solved).
  std::vector<bool> unwritten(model.tensors.size(), false);
  for (size_t i = 0; i < model.operators.size(); ++i) {
    const tflite::Operator& op = model.operators[i];
    const bool reads_unwritten = std::any_of(op.inputs.begin(), op.inputs.end(), [&](int32_t t) {
      return t >= 0 && static_cast<size_t>(t) < unwritten.size() && unwritten[static_cast<size_t>(t)];
    });
    bool refused = reads_unwritten;
    if (reads_unwritten) {
      const std::string why = unsupported(op);
      if (!why.empty()) refusals.add(op, operator_line(state, i, why), true);
    } else {
      try {
        result.operators.push_back(import_operator(state, static_cast<int32_t>(i)));
      } catch (const Failure& failure) {
        refusals.add(op, failure.what(), !unsupported(op).empty());
        refused = true;
      }
    }
    if (refused) {
      for (const int32_t t : op.outputs) {
        if (t >= 0 && static_cast<size_t>(t) < unwritten.size()) unwritten[static_cast<size_t>(t)] = true;
      }
    }
  }
  if (!refusals.lines.empty()) throw Failure(refusals.text());
  result.graph = state.graph.take();
  // The method's inputs and outputs in the model's order (the builder lists
  // them in the order they were made).
  result.graph.inputs.clear();
  for (const int32_t t : model.inputs) result.graph.inputs.push_back(caller_tensor(state, t, "input"));
  result.graph.outputs.clear();
  for (const int32_t t : model.outputs) result.graph.outputs.push_back(caller_tensor(state, t, "output"));
  return result;
}

}  // namespace etns::tools
