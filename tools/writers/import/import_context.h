#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "runtime/exec/operator_contract.h"
#include "tools/writers/import/tflm_numerics.h"
#include "tools/writers/program/quantized_graph.h"
#include "tools/writers/tflite/tflite_model.h"

// What one TFLite builtin's import function (tools/writers/import/builtins/) works
// with: the operator, its TFLite tensors, the graph tensors that stand for
// them, and the calls it adds. The walk over the model and the record of what
// each operator became stay in tflite_import.cpp; a builtin only reads its
// operator and adds calls through this interface.
namespace etns::tools {

// The per-tensor int8 quantisation of an activation.
struct Grid {
  float scale = 1.0F;
  int32_t zero_point = 0;
};

inline bool same_grid(const Grid& a, const Grid& b) { return a.scale == b.scale && a.zero_point == b.zero_point; }

// The two graph tensors a TFLite tensor may have. Both hold the same NHWC
// bytes; a copy between them is made only where one tensor needs both.
enum class Form : uint8_t {
  ChannelsLast,  // 4-D [N,H,W,C] as logical [N,C,H,W], dim order {0,2,3,1}
  Stored,        // the TFLite shape, contiguous
};

// Whether a call is what the operator became (the trace names it) or a step
// beside it: a copy between forms, a flattening, a crop, a clamp.
enum class Step : uint8_t { Main, Helper };

// What the whole import shares across operators.
struct ImportState {
  struct Forms {
    int32_t channels_last = -1;  // graph tensor indices, -1 = not made
    int32_t stored = -1;
  };
  ImportState(const tflite::Model& model, std::string context);

  const tflite::Model& model;
  std::string context;  // the first words of every message: the file name
  GraphBuilder graph;
  std::vector<Forms> forms;        // by TFLite tensor
  // By TFLite tensor: the value an operator folded at import (SHAPE, and
  // shape arithmetic on constants), a copy of the tensor with its bytes.
  std::vector<std::optional<tflite::Tensor>> folded;
  std::vector<int32_t> producer;   // by graph tensor: the instruction writing it, -1 for none
  int32_t instruction_count = 0;
  // The provider the program is for (etns import --provider): arm programs
  // call cortex_m:: and etns_ops:: operators only; ns ones may call
  // cortex_m_ns:: operators where those give TFLM's bytes.
  protocol::Provider provider = protocol::Provider::Arm;

  bool is_model_input(int32_t t) const;
  bool is_model_output(int32_t t) const;
};

// The context of one operator's import. Every check that fails throws
// Failure with one line "<context>: operator <i> (<BUILTIN>): <why>".
class OperatorImport {
 public:
  OperatorImport(ImportState& state, int32_t index);

  // ---- The operator and messages ----
  int32_t index() const { return index_; }
  const tflite::Operator& op() const { return op_; }
  const tflite::Options& options() const { return op_.options; }
  [[noreturn]] void fail(const std::string& why) const;
  // "<context>: operator <i> (<BUILTIN>)": the `what` of tflm:: derivations.
  std::string where() const;
  // "tensor <t> ("<name>")"
  std::string tensor_label(int32_t t) const;
  // A name for a graph tensor this operator adds: "op<i>_<suffix>".
  std::string name(const std::string& suffix) const;

  // ---- TFLite tensors ----
  int32_t input(size_t k) const;  // fails when input k is missing
  bool has_input(size_t k) const;
  int32_t output() const;         // fails unless there is exactly one output
  // Every output in order: one, or for a builtin that writes several
  // (SPLIT, SPLIT_V, UNPACK) at least one; fails otherwise or for a missing one.
  std::vector<int32_t> outputs() const;
  const tflite::Tensor& tensor(int32_t t) const;
  const std::vector<int32_t>& shape(int32_t t) const { return tensor(t).shape; }
  uint64_t elements(int32_t t) const;
  void expect_rank(int32_t t, size_t rank) const;
  // An int8 activation with per-tensor quantisation: its grid.
  Grid int8_grid(int32_t t) const;
  // The per-tensor quantisation of any tensor: its grid.
  Grid per_tensor_grid(int32_t t) const;
  // A constant of `type`: the file holds its bytes, or an operator before
  // folded its value at import (then a copy of the tensor with those bytes).
  const tflite::Tensor& constant(int32_t t, tflite::TensorType type) const;
  // Whether t's value is known at import: in the file, or folded.
  bool is_constant(int32_t t) const;
  // t's bytes when is_constant(t), else nullptr.
  const std::vector<uint8_t>* constant_bytes(int32_t t) const;
  // A constant int32 tensor of `count` values (paddings, permutations).
  std::vector<int32_t> int32_constant(int32_t t, size_t count) const;
  static std::vector<int32_t> int32_values(const tflite::Tensor& x);
  // Per-channel (or per-tensor, then repeated) weight scales along `dim`,
  // each with zero point 0.
  std::vector<float> weight_scales(int32_t t, size_t dim, int32_t channels) const;
  // The int8 clamp of the operator's fused activation on the output grid.
  tflm::ActivationRange activation(const Grid& out) const;

  // ---- Graph tensors ----
  static std::vector<int32_t> nchw(const std::vector<int32_t>& nhwc) { return {nhwc[0], nhwc[3], nhwc[1], nhwc[2]}; }
  // A 4-D NHWC shape whose channels_last form holds its bytes in the default
  // dim order too (no dim but C, or none but H and W, exceeds 1): that form is
  // made in the default dim order (make()).
  static bool same_bytes_in_both_forms(const std::vector<int32_t>& nhwc);
  static runtime::ScalarType dtype_of(tflite::TensorType type);
  // TFLite tensor t as a graph tensor in `form`: the existing one, or a
  // constant or model input made in that form, or a copy into it.
  int32_t use(int32_t t, Form form);
  // The graph tensor this operator writes for TFLite tensor t (once per t).
  int32_t define(int32_t t, Form form);
  // A new graph tensor for TFLite tensor t in `form`, named "t<t><suffix>".
  int32_t make(int32_t t, Form form, GraphTensor::Role role, const std::string& suffix = "");
  // The form an elementwise operator works in: channels_last when its first
  // operand exists only in that form, else the stored one.
  Form elementwise_form(int32_t first) const;
  // t in a form whose logical order is its NHWC byte order.
  int32_t row_major(int32_t t);
  // TFLite tensor t's stored bytes as a contiguous graph tensor of `sizes`
  // (same element count): a constant made so, else a view_copy.
  int32_t reshaped(int32_t t, const std::vector<int32_t>& sizes, const std::string& name);
  // Graph tensor `from` (default dim order) copied into TFLite tensor t: its
  // stored form, or the channels_last one where both are the same bytes
  // (4-D int8, no dim but C or H and W above 1, not a model output).
  void view(int32_t from, int32_t t, Step step = Step::Main);
  // The builder, for graph tensors of the operator's own (g.s8, int32_vector).
  GraphBuilder& graph() { return s_.graph; }

  // ---- Calls ----
  // A call of `contract`'s operator, arguments by name (GraphBuilder::call),
  // recorded as the instruction writing its "out"; a Main step names what
  // the operator became (the contract's name without its overload).
  void call(const runtime::OperatorContract& contract, const std::vector<NamedArg>& args, Step step = Step::Main);
  // cortex_m::quantize_per_tensor or dequantize_per_tensor, as call().
  void per_tensor(const runtime::OperatorContract& contract, int32_t in, const Qparams& q, int32_t out);
  // Multiply-accumulates per output element (the trace's macs).
  void set_macs_per_output(uint64_t macs) { macs_per_output_ = macs; }

  // ---- Provider ----
  // The provider the program is for, and which one the operator's calls
  // need: ns when it called a cortex_m_ns:: operator. `why` says, for an ns
  // import, why the operator stayed on arm's operators ("" when it did not).
  protocol::Provider provider() const { return s_.provider; }
  void note_provider(protocol::Provider used, const std::string& why) {
    provider_used_ = used;
    provider_note_ = why;
  }
  protocol::Provider provider_used() const { return provider_used_; }
  const std::string& provider_note() const { return provider_note_; }

  // ---- Folding ----
  // The operator's output t computed here, at import: `bytes` are its value
  // (TFLite's layout, the output's type); no instruction computes it. Fails
  // for a model output (the caller would have no tensor to read).
  void fold(int32_t t, std::vector<uint8_t> bytes);
  bool folded() const { return folded_; }
  bool is_model_output(int32_t t) const { return s_.is_model_output(t); }

  // ---- What the operator became (read by the walk) ----
  const std::string& became() const { return became_; }
  int32_t instructions() const { return instructions_; }
  uint64_t macs_per_output() const { return macs_per_output_; }

 private:
  void note_instruction(int32_t written, const std::string& op_name, Step step);

  ImportState& s_;
  int32_t index_;
  const tflite::Operator& op_;
  std::string became_;
  int32_t instructions_ = 0;
  uint64_t macs_per_output_ = 0;
  protocol::Provider provider_used_ = protocol::Provider::Arm;
  std::string provider_note_;
  bool folded_ = false;
};

}  // namespace etns::tools
