#include "tools/writers/program/graph_to_program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "tests/support/graph_reference.h"
#include "tools/common/failure.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/program_test_util.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/writers/program/value_sharing.h"

namespace etns::tools {
namespace {

using runtime::ValueKind;

constexpr Tier1Model kModels[] = {Tier1Model::Tier1, Tier1Model::Tier1Mean};
constexpr Provider kProviders[] = {Provider::Arm, Provider::Ns};

std::string label(Tier1Model m, Provider p) { return std::string(to_string(m)) + "_" + to_string(p); }

const QuantizedGraph& graph(Tier1Model m, Provider p) { return testing::tier1_graph(m, p); }

// The upstream arenas (profiler.md §12.6).
uint64_t upstream_arena(Tier1Model m, Provider p) {
  if (m == Tier1Model::Tier1Mean) return 81920;
  return p == Provider::Arm ? 196608 : 98304;
}

TEST(GraphToProgram, ValuesOperatorsAndReturnSlot) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      const QuantizedGraph& g = graph(m, p);
      const ConvertedProgram c = graph_to_program(g);
      const ProgramModel& model = c.model;
      EXPECT_EQ(c.plan.dropped_values, 0u);
      // Tensors first, one value each, in graph order.
      for (size_t t = 0; t < g.tensors.size(); ++t) {
        const ModelValue& v = model.values.at(t);
        ASSERT_EQ(v.kind, ValueKind::Tensor) << g.tensors[t].name;
        EXPECT_EQ(v.tensor.sizes, g.tensors[t].sizes);
        EXPECT_EQ(v.tensor.dim_order, g.tensors[t].dim_order);
        EXPECT_EQ(v.tensor.dtype, g.tensors[t].dtype);
        if (g.tensors[t].role == GraphTensor::Role::Constant) {
          EXPECT_EQ(v.tensor.storage, TensorStorage::Constant);
          EXPECT_EQ(v.tensor.data, g.tensors[t].data);
        } else {
          EXPECT_EQ(v.tensor.storage, TensorStorage::Planned);
          EXPECT_EQ(v.tensor.memory_id, 1u);
        }
      }
      EXPECT_EQ(model.inputs, std::vector<int32_t>{g.input()});
      EXPECT_EQ(model.outputs, std::vector<int32_t>{g.output()});
      ASSERT_EQ(model.instructions.size(), g.ops.size());
      std::vector<std::string> table;
      for (const ModelOperator& o : model.operators) table.push_back(o.name + "." + o.overload);
      size_t scalars = 0;
      for (size_t k = 0; k < g.ops.size(); ++k) {
        const GraphOp& op = g.ops[k];
        const KernelCall& call = model.instructions[k];
        SCOPED_TRACE(op.full_name());
        EXPECT_EQ(table.at(call.op_index), op.full_name());
        ASSERT_EQ(call.args.size(), op.args.size() + 1);
        EXPECT_EQ(call.args.back(), call.args[call.args.size() - 2]);  // the return slot
        for (size_t i = 0; i < op.args.size(); ++i) {
          const GraphArg& a = op.args[i];
          const ModelValue& v = model.values.at(call.args[i]);
          ASSERT_EQ(v.kind, a.kind) << "argument " << i;
          switch (a.kind) {
            case ValueKind::Tensor: EXPECT_EQ(call.args[i], a.tensor); break;
            case ValueKind::Int: EXPECT_EQ(v.int_value, a.int_value); break;
            case ValueKind::Double: EXPECT_EQ(v.double_value, a.double_value); break;
            case ValueKind::Bool: EXPECT_EQ(v.bool_value, a.bool_value); break;
            case ValueKind::IntList: {
              ASSERT_EQ(v.items.size(), a.int_list.size());
              for (size_t j = 0; j < v.items.size(); ++j) {
                const ModelValue& item = model.values.at(v.items[j]);
                EXPECT_EQ(item.kind, ValueKind::Int);
                EXPECT_EQ(item.int_value, a.int_list[j]);
              }
              scalars += v.items.size();
              break;
            }
            default: break;
          }
          if (a.kind != ValueKind::Tensor) {
            EXPECT_GE(call.args[i], static_cast<int32_t>(g.tensors.size())) << "a scalar has its own value";
            ++scalars;
          }
        }
      }
      EXPECT_EQ(model.values.size(), g.tensors.size() + scalars) << "no shared or extra values";
      // Operator table: each name once, in order of first use.
      std::vector<std::string> first_use;
      for (const GraphOp& op : g.ops)
        if (std::find(first_use.begin(), first_use.end(), op.full_name()) == first_use.end())
          first_use.push_back(op.full_name());
      EXPECT_EQ(table, first_use);
    }
}

TEST(GraphToProgram, PlansEachArenaAtItsLowerBound) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      const ConvertedProgram c = graph_to_program(graph(m, p));
      std::printf("%s: planned arena %llu bytes (lower bound %llu, upstream %llu)\n", label(m, p).c_str(),
                  static_cast<unsigned long long>(c.plan.arena_bytes),
                  static_cast<unsigned long long>(c.plan.lower_bound_bytes),
                  static_cast<unsigned long long>(upstream_arena(m, p)));
      // Optimal: no plan can go below the most bytes live at one instruction.
      // That bound equals upstream's arena for tier1_arm (aten::sub reads two
      // float tensors and writes a third: 3 x 65536) and for tier1mean (the
      // first quantize holds the float input and its int8 copy: 65536 +
      // 16384), so only tier1_ns can beat it.
      EXPECT_EQ(c.plan.arena_bytes, c.plan.lower_bound_bytes);
      EXPECT_LE(c.plan.arena_bytes, upstream_arena(m, p));
      if (m == Tier1Model::Tier1 && p == Provider::Ns) {
        EXPECT_EQ(c.plan.arena_bytes, 81920u);
      }
      EXPECT_EQ(c.model.non_const_buffer_sizes,
                (std::vector<int64_t>{0, static_cast<int64_t>(c.plan.arena_bytes)}));
      check_model(c.model);  // every planned tensor inside the arena
    }
}

TEST(GraphToProgram, BytesAreDeterministicAndReadBack) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      const std::vector<uint8_t> first = graph_to_pte(graph(m, p));
      EXPECT_EQ(graph_to_pte(build_quantized_graph(m, p)), first);
      EXPECT_TRUE(read_program(first, label(m, p)) == graph_to_program(graph(m, p)).model);
    }
}

// finish_program shares, then plans once: the same program as planning,
// sharing and planning again (the importer's path before it), and without
// sharing the same as before.
TEST(GraphToProgram, FinishingSharesThenPlansOnce) {
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      ConvertedProgram twice = graph_to_program(graph(m, p));
      share_equal_values(twice.model);
      twice.plan = replan_memory(twice.model);
      FinishOptions share;
      share.share_equal_values = true;
      const ConvertedProgram once = graph_to_program(graph(m, p), share);
      EXPECT_TRUE(once.model == twice.model);
      EXPECT_EQ(write_program(once.model), write_program(twice.model));
      EXPECT_EQ(once.plan.arena_bytes, twice.plan.arena_bytes);
      EXPECT_LT(once.model.values.size(), graph_to_program(graph(m, p)).model.values.size());
    }
}

TEST(GraphToProgram, ProgramsRunLikeTheReferenceExecutor) {
  TemporaryDirectory dir;
  const std::vector<float> x = example_input();
  for (Tier1Model m : kModels)
    for (Provider p : kProviders) {
      SCOPED_TRACE(label(m, p));
      const QuantizedGraph& g = graph(m, p);
      const GraphTensor& in = g.tensors[g.input()];
      const std::vector<float> input = to_memory_order(x, in.sizes, in.dim_order);
      const std::vector<float> want = testing::run_graph(g, input);
      ASSERT_EQ(want.size() * sizeof(float), g.tensors[g.output()].nbytes());
      const std::string path = export_test::write_temp(dir, label(m, p) + ".pte", graph_to_pte(g));
      const std::vector<uint8_t> got = export_test::run_once(path, to_string(p), testing::float_bytes(input));
      EXPECT_EQ(got, testing::float_bytes(want)) << "bit for bit";
    }
}

TEST(GraphToProgram, RejectsABrokenGraph) {
  QuantizedGraph g = graph(Tier1Model::Tier1Mean, Provider::Ns);
  g.ops[1].arg(cortex_m_ns::kMeanContract, "self").tensor = 99;
  try {
    graph_to_program(g);
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_EQ(std::string(failure.what()).rfind("c0i1 cortex_m_ns::quantized_mean.out: tensor index 99", 0), 0u)
        << failure.what();
  }
}

// Two inputs and two outputs, each pair added second first: y0 = max(x0, x1),
// y1 = max(x1, x0).
QuantizedGraph two_by_two() {
  GraphBuilder b("two_by_two", Provider::Arm);
  const std::vector<int32_t> sizes{1, 8};
  const int32_t y1 = b.tensor("y1", runtime::ScalarType::Char, sizes, contiguous_order(2), GraphTensor::Role::Output);
  const int32_t x1 = b.tensor("x1", runtime::ScalarType::Char, sizes, contiguous_order(2), GraphTensor::Role::Input);
  const int32_t x0 = b.tensor("x0", runtime::ScalarType::Char, sizes, contiguous_order(2), GraphTensor::Role::Input);
  const int32_t y0 = b.tensor("y0", runtime::ScalarType::Char, sizes, contiguous_order(2), GraphTensor::Role::Output);
  b.call(cortex_m::kMaximumContract,
         {{"self", GraphArg::of_tensor(x0)}, {"other", GraphArg::of_tensor(x1)}, {"out", GraphArg::of_tensor(y0)}});
  b.call(cortex_m::kMaximumContract,
         {{"self", GraphArg::of_tensor(x1)}, {"other", GraphArg::of_tensor(x0)}, {"out", GraphArg::of_tensor(y1)}});
  return b.take();
}

TEST(GraphToProgram, SeveralInputsAndOutputsKeepTheirOrder) {
  QuantizedGraph g = two_by_two();
  EXPECT_EQ(g.inputs, (std::vector<int32_t>{1, 2})) << "in the order the builder added them";
  EXPECT_EQ(g.outputs, (std::vector<int32_t>{0, 3}));
  g.outputs = {3, 0};  // the method's order is the graph's to choose
  g.inputs = {2, 1};
  const ConvertedProgram c = graph_to_program(g);
  EXPECT_EQ(c.model.inputs, g.inputs);
  EXPECT_EQ(c.model.outputs, g.outputs);
  const ProgramModel back = read_program(write_program(c.model), "two_by_two.pte");
  EXPECT_EQ(back.inputs, g.inputs);
  EXPECT_EQ(back.outputs, g.outputs);
}

TEST(GraphToProgram, TheOneInputAccessorsNameTheCount) {
  const QuantizedGraph g = two_by_two();
  try {
    (void)g.input();
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "graph 'two_by_two' has 2 inputs, expected one");
  }
  QuantizedGraph none = g;
  none.outputs.clear();
  try {
    (void)none.output();
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "graph 'two_by_two' has 0 outputs, expected one");
  }
}

TEST(GraphToProgram, RejectsInputsOutOfRangeOrListedTwice) {
  QuantizedGraph out_of_range = two_by_two();
  out_of_range.inputs[1] = 7;
  try {
    graph_to_program(out_of_range);
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "graph input 1: tensor index 7, expected [0, 4)");
  }
  QuantizedGraph twice = two_by_two();
  twice.outputs[1] = twice.outputs[0];
  try {
    graph_to_program(twice);
    FAIL() << "expected a Failure";
  } catch (const Failure& failure) {
    EXPECT_STREQ(failure.what(), "graph outputs 0 and 1 are the same tensor (y1)");
  }
}

}  // namespace
}  // namespace etns::tools
