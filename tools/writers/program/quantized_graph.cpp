#include "tools/writers/program/quantized_graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "tools/common/failure.h"

namespace etns::tools {

using runtime::ScalarType;
using runtime::ValueKind;

// ---------------------------------------------------------------------------
// Plain data helpers

size_t GraphTensor::numel() const {
  size_t n = 1;
  for (int32_t s : sizes) n *= static_cast<size_t>(s);
  return n;
}

size_t GraphTensor::nbytes() const { return numel() * runtime::element_size(dtype); }

bool GraphTensor::operator==(const GraphTensor& o) const {
  return name == o.name && dtype == o.dtype && sizes == o.sizes && dim_order == o.dim_order &&
         role == o.role && data == o.data;
}

// Each factory sets the kind and the one field that kind uses.
GraphArg GraphArg::of_tensor(int32_t index) { return with(ValueKind::Tensor, [&](GraphArg& a) { a.tensor = index; }); }
GraphArg GraphArg::integer(int64_t value) { return with(ValueKind::Int, [&](GraphArg& a) { a.int_value = value; }); }
GraphArg GraphArg::real(double value) { return with(ValueKind::Double, [&](GraphArg& a) { a.double_value = value; }); }
GraphArg GraphArg::boolean(bool value) { return with(ValueKind::Bool, [&](GraphArg& a) { a.bool_value = value; }); }
GraphArg GraphArg::list(std::vector<int64_t> values) {
  return with(ValueKind::IntList, [&](GraphArg& a) { a.int_list = std::move(values); });
}
GraphArg GraphArg::null() { return GraphArg{}; }

bool GraphArg::operator==(const GraphArg& o) const {
  // Doubles compared by bits: "identical graphs" means identical bytes.
  uint64_t a = 0, b = 0;
  std::memcpy(&a, &double_value, sizeof(a));
  std::memcpy(&b, &o.double_value, sizeof(b));
  return kind == o.kind && tensor == o.tensor && int_value == o.int_value && a == b &&
         bool_value == o.bool_value && int_list == o.int_list;
}

const GraphArg& GraphOp::arg(const runtime::OperatorContract& contract, const char* name) const {
  const int position = contract.find(name);
  if (full_name() != contract.name || args.size() != contract.count || position < 0) {
    throw Failure("graph op " + full_name() + " has no argument '" + name + "' of " + contract.name);
  }
  return args[static_cast<size_t>(position)];
}

GraphArg& GraphOp::arg(const runtime::OperatorContract& contract, const char* name) {
  return const_cast<GraphArg&>(static_cast<const GraphOp&>(*this).arg(contract, name));
}

bool GraphOp::operator==(const GraphOp& o) const {
  return op == o.op && overload == o.overload && args == o.args;
}

namespace {

int32_t the_only(const std::vector<int32_t>& indices, const std::string& model, const char* what) {
  if (indices.size() != 1) {
    throw Failure("graph '" + model + "' has " + std::to_string(indices.size()) + " " + what + "s, expected one");
  }
  return indices.front();
}

}  // namespace

int32_t QuantizedGraph::input() const { return the_only(inputs, model, "input"); }
int32_t QuantizedGraph::output() const { return the_only(outputs, model, "output"); }

bool QuantizedGraph::operator==(const QuantizedGraph& o) const {
  return model == o.model && provider == o.provider && tensors == o.tensors && ops == o.ops &&
         inputs == o.inputs && outputs == o.outputs;
}

Provider parse_provider(const std::string& name) {
  Provider provider = Provider::Arm;
  if (!protocol::parse_provider_name(name.c_str(), &provider)) {
    throw Failure("unknown provider '" + name + "', expected arm or ns", 2);
  }
  return provider;
}

// ---------------------------------------------------------------------------
// Quantisation arithmetic

Qparams observe_min_max(float lo, float hi) {
  lo = std::min(lo, 0.0f);
  hi = std::max(hi, 0.0f);
  const float scale = std::max((hi - lo) / 255.0f, kFloat32Eps);
  // nearbyint is exact (IEEE roundToIntegral, ties to even in the default mode).
  const float zero_point = -128.0f - std::nearbyint(lo / scale);
  Qparams q;
  q.scale = scale;
  q.zero_point = static_cast<int32_t>(std::clamp(zero_point, -128.0f, 127.0f));
  return q;
}

void MinMax::add(const std::vector<float>& values) {
  for (float v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
}

Requant quantize_multiplier(double x, const std::string& what) {
  if (!(x >= 0.0) || !std::isfinite(x)) {
    throw Failure(what + ": factor is not finite and >= 0");
  }
  if (x == 0.0) return {};
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  int64_t multiplier = static_cast<int64_t>(std::nearbyint(mantissa * 2147483648.0));
  if (multiplier == (int64_t{1} << 31)) {
    multiplier = int64_t{1} << 30;
    exponent += 1;
  }
  if (exponent < -31 || exponent > 30) {
    throw Failure(what + ": shift " + std::to_string(exponent) + " outside [-31, 30]");
  }
  return {static_cast<int32_t>(multiplier), exponent};
}

bool same_qparams(const Qparams& a, const Qparams& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

int32_t quantize_value(double x, const Qparams& q) {
  const double v = std::nearbyint(x / q.scale) + q.zero_point;
  return static_cast<int32_t>(std::clamp(v, -128.0, 127.0));
}

int32_t quantize_activation_bound(double bound, const Qparams& q) {
  const float v = static_cast<float>(bound / q.scale + static_cast<double>(q.zero_point));
  return static_cast<int32_t>(std::clamp(std::nearbyint(v), -128.0f, 127.0f));
}

// ---------------------------------------------------------------------------
// Building graphs

std::vector<uint8_t> contiguous_order(size_t rank) {
  std::vector<uint8_t> order(rank);
  for (size_t d = 0; d < rank; ++d) order[d] = static_cast<uint8_t>(d);
  return order;
}

GraphBuilder::GraphBuilder(std::string model, Provider provider) {
  graph_.model = std::move(model);
  graph_.provider = provider;
}

int32_t GraphBuilder::tensor(std::string name, ScalarType dtype, std::vector<int32_t> sizes,
                             std::vector<uint8_t> dim_order, GraphTensor::Role role, std::vector<uint8_t> data) {
  GraphTensor t;
  t.name = std::move(name);
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  t.dim_order = std::move(dim_order);
  t.role = role;
  t.data = std::move(data);
  graph_.tensors.push_back(std::move(t));
  const int32_t index = static_cast<int32_t>(graph_.tensors.size() - 1);
  if (role == GraphTensor::Role::Input) graph_.inputs.push_back(index);
  if (role == GraphTensor::Role::Output) graph_.outputs.push_back(index);
  return index;
}

int32_t GraphBuilder::int32_vector(std::string name, const std::vector<int32_t>& values,
                                   std::vector<int32_t> sizes) {
  std::vector<uint8_t> bytes;
  for (int32_t v : values) {
    const uint32_t u = static_cast<uint32_t>(v);
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(u >> (8 * i)));
  }
  if (sizes.empty()) sizes = {static_cast<int32_t>(values.size())};
  std::vector<uint8_t> order = contiguous_order(sizes.size());
  return tensor(std::move(name), ScalarType::Int, std::move(sizes), std::move(order),
                GraphTensor::Role::Constant, std::move(bytes));
}

std::vector<GraphArg> arguments_by_name(const runtime::OperatorContract& contract,
                                        const std::vector<NamedArg>& named) {
  const std::string op = contract.name;
  std::vector<GraphArg> args(contract.count);
  std::vector<bool> given(contract.count, false);
  for (const NamedArg& a : named) {
    const int position = contract.find(a.name);
    if (position < 0) throw Failure(op + ": no argument called '" + a.name + "'");
    const runtime::ArgSpec& spec = contract.args[position];
    if (given[static_cast<size_t>(position)]) {
      throw Failure(op + ": argument '" + a.name + "' given twice");
    }
    if (!runtime::kind_accepts(spec.kind, a.value.kind)) {
      throw Failure(op + ": argument '" + a.name + "' is " + runtime::to_string(a.value.kind) +
                    ", expected " + runtime::to_string(spec.kind));
    }
    args[static_cast<size_t>(position)] = a.value;
    given[static_cast<size_t>(position)] = true;
  }
  for (uint8_t k = 0; k < contract.count; ++k) {
    if (given[k] || runtime::kind_accepts(contract.args[k].kind, ValueKind::Null)) continue;
    throw Failure(op + ": argument '" + contract.args[k].name + "' is missing");
  }
  return args;
}

void GraphBuilder::call(const runtime::OperatorContract& contract,
                        const std::vector<NamedArg>& named) {
  const std::string full = contract.name;
  const size_t dot = full.rfind('.');
  GraphOp o;
  o.op = full.substr(0, dot);
  o.overload = dot == std::string::npos ? "" : full.substr(dot + 1);
  o.args = arguments_by_name(contract, named);
  graph_.ops.push_back(std::move(o));
}

void GraphBuilder::per_tensor(const runtime::OperatorContract& contract, int32_t in,
                              const Qparams& q, int32_t out) {
  // quantize_per_tensor and dequantize_per_tensor name their arguments alike.
  call(contract, {{"input", GraphArg::of_tensor(in)},
                  {"scale", GraphArg::real(q.scale)},
                  {"zero_point", GraphArg::integer(q.zero_point)},
                  {"quant_min", GraphArg::integer(-128)},
                  {"quant_max", GraphArg::integer(127)},
                  {"dtype", GraphArg::integer(static_cast<int64_t>(ScalarType::Char))},
                  {"out", GraphArg::of_tensor(out)}});
}

}  // namespace etns::tools
