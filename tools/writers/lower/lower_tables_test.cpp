// `etns lower` of an imported program: its activations are etns_ops::
// lookup_table calls, and lower must reach the cortex_m_ns:: kernels wherever
// `etns import --provider ns` does, bit-exactly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/registry.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/import_test_support.h"
#include "tools/writers/lower/lower.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"

namespace etns::tools::import_test {
namespace {

std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  return codes;
}

size_t ns_calls(const ProgramModel& model) {
  size_t n = 0;
  for (const KernelCall& call : model.instructions) {
    n += model.operators.at(call.op_index).name.rfind("cortex_m_ns::", 0) == 0 ? 1 : 0;
  }
  return n;
}

Bytes run(const std::string& path, const runtime::KernelRegistry& registry, const Bytes& input) {
  HostSession session(path, &registry);
  session.set_input(0, input);
  session.execute();
  return session.output_bytes(0);
}

struct Case {
  const char* what;
  Builtin builtin;
  float alpha;  // LEAKY_RELU only
  float s_in;
  int32_t zp_in;
  float s_out;
  int32_t zp_out;
  bool lowers;  // to a cortex_m_ns call
};

const Case kCases[] = {
    {"relu, equal grids", Builtin::Relu, 0, 0.05F, -3, 0.05F, -3, true},
    {"relu, unequal scales", Builtin::Relu, 0, 0.04F, -10, 0.025F, -100, true},
    {"relu, output coarser", Builtin::Relu, 0, 0.02F, 3, 0.3F, -7, true},
    {"relu6, TFLM test grid", Builtin::Relu6, 0, 0.5F, -1, 0.5F, -1, true},
    {"relu6, unequal", Builtin::Relu6, 0, 0.03F, 20, 0.025F, -128, true},
    {"relu_n1_to_1", Builtin::ReluN1To1, 0, 0.01F, 0, 0.008F, 2, true},
    {"leaky 0.2, equal grids", Builtin::LeakyRelu, 0.2F, 0.05F, 0, 0.05F, 0, true},
    {"leaky 0.1, unequal", Builtin::LeakyRelu, 0.1F, 0.04F, -10, 0.025F, -100, true},
    {"leaky 0.3, zero points", Builtin::LeakyRelu, 0.3F, 0.02F, 27, 0.03F, -40, true},
    {"leaky negative alpha", Builtin::LeakyRelu, -0.5F, 0.03F, 5, 0.02F, 0, false},
    {"hard_swish", Builtin::HardSwish, 0, 0.03F, -5, 0.02F, -60, false},
};

// The fixed grids above and random ones: whenever the import's derivation
// reaches a cortex_m_ns kernel, so does the table fit.
std::vector<Case> cases() {
  std::vector<Case> all(std::begin(kCases), std::end(kCases));
  Rng rng(0x6c6f776572);  // "lower"
  const auto scale = [&rng] { return 0.005F + 0.1F * static_cast<float>(rng.uniform(0, 999)) / 1000.0F; };
  const auto zero_point = [&rng] { return static_cast<int32_t>(rng.uniform(-128, 127)); };
  for (int k = 0; k < 24; ++k) {
    const Builtin builtin = k % 3 == 0 ? Builtin::Relu : (k % 3 == 1 ? Builtin::Relu6 : Builtin::LeakyRelu);
    const float alpha = 0.01F + 0.9F * static_cast<float>(rng.uniform(0, 999)) / 1000.0F;
    all.push_back({"random grid", builtin, alpha, scale(), zero_point(), scale(), zero_point(), true});
  }
  return all;
}

TEST(Lower, ImportedActivationsReachNsWhereImportDoes) {
  const std::vector<int8_t> x = all_codes();
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(c.what) + " s_in " + std::to_string(c.s_in) + " zp_in " + std::to_string(c.zp_in) +
                 " s_out " + std::to_string(c.s_out) + " zp_out " + std::to_string(c.zp_out) + " alpha " +
                 std::to_string(c.alpha));
    TfliteBuilder b;
    const std::vector<int32_t> shape{1, 8, 8, 4};
    const int32_t in = b.int8(shape, c.s_in, c.zp_in), out = b.int8(shape, c.s_out, c.zp_out);
    tfl::Options o;
    o.alpha = c.alpha;
    b.op(c.builtin, {in}, {out}, o);
    const std::vector<uint8_t> file = tfl::write_tflite(b.finish({in}, {out}));
    const ImportedProgram arm = import_program(file, "m.tflite", protocol::Provider::Arm);
    const ImportedProgram ns = import_program(file, "m.tflite", protocol::Provider::Ns);
    const size_t import_ns_calls = ns_calls(read_program(ns.pte, "ns.pte"));

    ProgramModel model = read_program(arm.pte, "arm.pte");
    const LoweringResult result = lower_to_ns(model);
    const size_t lowered_ns_calls = ns_calls(model);
    // Lower may find a kernel the import's derivation missed (HARD_SWISH is
    // never fitted), never fewer for RELU and LEAKY_RELU.
    if (c.builtin != Builtin::HardSwish) {
      EXPECT_GE(lowered_ns_calls, import_ns_calls);
    }
    const bool random = std::string(c.what) == "random grid";  // only: at least where import reaches ns
    if (!random) {
      EXPECT_EQ(lowered_ns_calls, c.lowers ? 1u : 0u);
    }
    EXPECT_EQ(result.rewrites.size() + result.kept.size(), 1u);
    if (lowered_ns_calls == 0) {
      ASSERT_EQ(result.kept.size(), 1u);
      EXPECT_NE(result.kept[0].reason.find("no cortex_m_ns kernel"), std::string::npos) << result.kept[0].reason;
      continue;
    }
    const TemporaryDirectory dir("etns-lower-tables");
    const std::string arm_path = dir.path() + "/arm.pte", lowered_path = dir.path() + "/lowered.pte";
    write_file_atomic(arm_path, arm.pte.data(), arm.pte.size());
    const std::vector<uint8_t> lowered = write_program(model);
    write_file_atomic(lowered_path, lowered.data(), lowered.size());
    EXPECT_EQ(run(lowered_path, kernels::registry_ns(), as_bytes(x)), run(arm_path, kernels::registry_arm(), as_bytes(x)));

    ProgramModel again = read_program(lowered, "lowered.pte");
    EXPECT_TRUE(lower_to_ns(again).rewrites.empty()) << "lowering is idempotent";
  }
}

// An imported MEAN (etns_ops::quantized_reduce) lowers to quantized_mean
// exactly where `import --provider ns` proves one factor exact, with the same
// bytes; elsewhere it stays and the report says why.
TEST(Lower, ImportedMeanReachesNsWhereImportDoes) {
  struct MeanCase {
    const char* what;
    std::vector<int32_t> shape, axes, out;
    float s_in;
    int32_t zp_in;
    float s_out;
    int32_t zp_out;
  };
  const MeanCase cases[] = {
      {"count 4, one grid", {2, 4}, {1}, {2}, 0.1F, 5, 0.1F, -3},
      {"count 8, [1,8,1,4] axis 1", {1, 8, 1, 4}, {1}, {1, 1, 4}, 0.05F, -7, 0.05F, 2},
      {"count 3", {2, 3}, {1}, {2}, 0.1F, 5, 0.1F, -3},
      {"equal grids truncate", {1, 6, 6, 8}, {1, 2}, {1, 8}, 0.1F, -128, 0.1F, -128},
  };
  Rng rng(77);
  for (const MeanCase& c : cases) {
    SCOPED_TRACE(c.what);
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, c.s_in, c.zp_in);
    const int32_t axis = b.int32_constant({static_cast<int32_t>(c.axes.size())}, c.axes);
    const int32_t out = b.int8(c.out, c.s_out, c.zp_out);
    b.op(Builtin::Mean, {in, axis}, {out});
    const std::vector<uint8_t> file = tfl::write_tflite(b.finish({in}, {out}));
    const ImportedProgram arm = import_program(file, "m.tflite", protocol::Provider::Arm);
    const size_t import_ns = ns_calls(read_program(import_program(file, "m.tflite", protocol::Provider::Ns).pte, "ns"));
    ProgramModel model = read_program(arm.pte, "arm.pte");
    const LoweringResult result = lower_to_ns(model);
    EXPECT_EQ(ns_calls(model), import_ns);
    if (import_ns == 0) {
      ASSERT_EQ(result.kept.size(), 1u);
      EXPECT_NE(result.kept[0].reason.find("no factor gives TFLM's MEAN"), std::string::npos) << result.kept[0].reason;
      continue;
    }
    ASSERT_EQ(result.rewrites.size(), 1u);
    EXPECT_EQ(result.rewrites[0].op, "cortex_m_ns::quantized_mean.out");
    const TemporaryDirectory dir("etns-lower-mean");
    const std::string arm_path = dir.path() + "/arm.pte", lowered_path = dir.path() + "/lowered.pte";
    write_file_atomic(arm_path, arm.pte.data(), arm.pte.size());
    const std::vector<uint8_t> lowered = write_program(model);
    write_file_atomic(lowered_path, lowered.data(), lowered.size());
    for (int k = 0; k < 8; ++k) {
      const Bytes x = as_bytes(random_s8(rng, ref::count(c.shape)));
      EXPECT_EQ(run(lowered_path, kernels::registry_ns(), x), run(arm_path, kernels::registry_arm(), x));
    }
  }
}

// A table no cortex_m_ns kernel computes (LOGISTIC) stays, with the reason.
TEST(Lower, AnImportedLogisticKeepsItsTable) {
  TfliteBuilder b;
  const int32_t in = b.int8({2, 128}, 0.05F, 0), out = b.int8({2, 128}, 1.0F / 256, -128);
  b.op(Builtin::Logistic, {in}, {out});
  const ImportedProgram arm = import_program(tfl::write_tflite(b.finish({in}, {out})), "m.tflite");
  ProgramModel model = read_program(arm.pte, "arm.pte");
  const LoweringResult result = lower_to_ns(model);
  EXPECT_TRUE(result.rewrites.empty());
  ASSERT_EQ(result.kept.size(), 1u);
  EXPECT_NE(result.kept[0].instruction.find("etns_ops::lookup_table"), std::string::npos);
}

}  // namespace
}  // namespace etns::tools::import_test
