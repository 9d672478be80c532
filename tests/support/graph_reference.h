#pragma once

// The reference executor of a QuantizedGraph (tools/writers/export/tier1_models.h):
// each op called through the real kernels' prepare and run (host build), one
// synthetic KernelCall per op, no program in between. Shared by the tier1
// model tests and the exporter's tests, which check the exported programs
// against it bit for bit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernels/registry.h"
#include "tests/support/kernel_call.h"
#include "tools/writers/export/tier1_models.h"

namespace etns::testing {

// The four graphs, built once per test binary (calibration takes a while).
inline const tools::QuantizedGraph& tier1_graph(tools::Tier1Model m, tools::Provider p) {
  static const std::map<std::pair<tools::Tier1Model, tools::Provider>, tools::QuantizedGraph> graphs = [] {
    std::map<std::pair<tools::Tier1Model, tools::Provider>, tools::QuantizedGraph> all;
    for (tools::Tier1Model model : {tools::Tier1Model::Tier1, tools::Tier1Model::Tier1Mean}) {
      for (tools::Provider provider : {tools::Provider::Arm, tools::Provider::Ns}) {
        all[{model, provider}] = tools::build_quantized_graph(model, provider);
      }
    }
    return all;
  }();
  return graphs.at({m, p});
}

inline const runtime::KernelRegistry& graph_registry(tools::Provider p) {
  return p == tools::Provider::Arm ? kernels::registry_arm() : kernels::registry_ns();
}

// Builds one op's KernelCall with the graph's arguments; tensors get the
// graph's dtype, sizes and dim order, constants their bytes (marked constant),
// other tensors the bytes in `values` when present.
inline void build_call(KernelCall& call, const tools::QuantizedGraph& g, const tools::GraphOp& op,
                       const std::map<int32_t, std::vector<uint8_t>>& values) {
  using runtime::ValueKind;
  for (size_t i = 0; i < op.args.size(); ++i) {
    const tools::GraphArg& a = op.args[i];
    switch (a.kind) {
      case ValueKind::Tensor: {
        const tools::GraphTensor& t = g.tensors.at(a.tensor);
        call.tensor(t.dtype, t.sizes, t.dim_order);
        const std::vector<uint8_t>* bytes = nullptr;
        if (t.role == tools::GraphTensor::Role::Constant) {
          bytes = &t.data;
          call.tensor_at(i).is_constant = true;
        } else if (values.count(a.tensor) != 0) {
          bytes = &values.at(a.tensor);
        }
        if (bytes != nullptr) {
          ASSERT_EQ(bytes->size(), t.nbytes()) << t.name;
          std::copy(bytes->begin(), bytes->end(), call.data<uint8_t>(i));
        }
        break;
      }
      case ValueKind::Int: call.int_value(a.int_value); break;
      case ValueKind::Double: call.double_value(a.double_value); break;
      case ValueKind::Bool: call.bool_value(a.bool_value); break;
      case ValueKind::IntList: call.int_list(a.int_list); break;
      case ValueKind::Null: call.null(); break;
      default: FAIL() << "unexpected argument kind";
    }
  }
}

inline std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Runs the graph op by op through the real kernels of its provider; returns
// the float output in memory order (empty after a failed expectation).
inline std::vector<float> run_graph(const tools::QuantizedGraph& g, const std::vector<float>& input) {
  std::map<int32_t, std::vector<uint8_t>> values;
  values[g.input()] = float_bytes(input);
  const runtime::KernelRegistry& reg = graph_registry(g.provider);
  for (size_t k = 0; k < g.ops.size(); ++k) {
    const tools::GraphOp& op = g.ops[k];
    SCOPED_TRACE(g.model + "/" + to_string(g.provider) + " op " + std::to_string(k) +
                 " " + op.full_name());
    const runtime::KernelEntry* entry = reg.find(op.full_name().c_str());
    EXPECT_NE(entry, nullptr);
    if (entry == nullptr) return {};
    KernelCall call;
    build_call(call, g, op, values);
    const runtime::Error prepared = call.prepare(*entry);
    EXPECT_EQ(prepared, runtime::Error::Ok) << call.log();
    if (prepared != runtime::Error::Ok) return {};
    EXPECT_EQ(call.run(), runtime::Error::Ok);
    const runtime::Arg out = entry->contract->out();
    const uint8_t* p = call.data<uint8_t>(out);
    values[op.out_tensor()] = std::vector<uint8_t>(p, p + call.tensor_at(out).nbytes);
  }
  const std::vector<uint8_t>& bytes = values.at(g.output());
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace etns::testing
