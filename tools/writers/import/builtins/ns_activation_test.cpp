#include "kernels/registry.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/import/builtins/ns_activation.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/import_test_support.h"

// `etns import --provider ns`: the int8 activations whose cortex_m_ns::
// kernel gives TFLM's bytes on all 256 codes call it; the others keep
// etns_ops::lookup_table with a reason; arm imports never change.
namespace etns::tools::import_test {
namespace {

std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  return codes;
}

// The imported program (provider `provider`) run on that provider's registry,
// host, on every code.
struct NsRun {
  ImportedOperator op;
  Bytes out;
  std::vector<uint8_t> pte;
};

NsRun import_and_run(const tfl::Model& model, protocol::Provider provider) {
  const ImportedProgram program = import_program(tfl::write_tflite(model), "m.tflite", provider);
  const TemporaryDirectory dir("etns-ns-import-test");
  const std::string path = dir.path() + "/m.pte";
  write_file_atomic(path, program.pte.data(), program.pte.size());
  HostSession session(path, &kernels::registry_of(provider));
  session.set_input(0, as_bytes(all_codes()));
  session.execute();
  return {program.imported.operators.at(0), session.output_bytes(0), program.pte};
}

tfl::Model unary(Builtin builtin, float s_in, int32_t zp_in, float s_out, int32_t zp_out, float alpha = 0.0F) {
  TfliteBuilder b;
  const int32_t in = b.int8({1, 8, 8, 4}, s_in, zp_in), out = b.int8({1, 8, 8, 4}, s_out, zp_out);
  tfl::Options o;
  if (builtin == Builtin::LeakyRelu) o.alpha = alpha;
  b.op(builtin, {in}, {out}, o);
  return b.finish({in}, {out});
}

struct Applies {
  const char* what;
  Builtin builtin;
  float s_in;
  int32_t zp_in;
  float s_out;
  int32_t zp_out;
  float alpha;
  const char* op;
};

// Each kind the ns kernels take, on grids TFLM's tests and real models use.
const Applies kApplies[] = {
    {"RELU, equal grids", Builtin::Relu, 0.5F, -1, 0.5F, -1, 0, "cortex_m_ns::quantized_relu"},
    {"RELU, unequal grids", Builtin::Relu, 0.04F, -10, 0.025F, -100, 0, "cortex_m_ns::quantized_relu"},
    {"RELU6", Builtin::Relu6, 0.05F, -20, 0.07F, 3, 0, "cortex_m_ns::quantized_relu"},
    {"RELU_N1_TO_1", Builtin::ReluN1To1, 0.02F, 3, 0.01F, -7, 0, "cortex_m_ns::quantized_relu"},
    {"LEAKY_RELU alpha 0.2", Builtin::LeakyRelu, 0.04F, -10, 0.025F, -100, 0.2F,
     "cortex_m_ns::quantized_leaky_relu"},
    {"LEAKY_RELU alpha 0", Builtin::LeakyRelu, 0.05F, 127, 0.05F, -128, 0.0F, "cortex_m_ns::quantized_leaky_relu"},
    // One of the grids where the exporter's derivation gives TFLM's bytes.
    {"HARD_SWISH, exact grid", Builtin::HardSwish, 0.1F, 10, 0.05F, -100, 0, "cortex_m_ns::quantized_hardswish"},
};

TEST(TfliteImportNs, ActivationsRunOnNsKernelsBitExactWithTflm) {
  const std::vector<int8_t> x = all_codes();
  for (const Applies& a : kApplies) {
    SCOPED_TRACE(a.what);
    const tfl::Model m = unary(a.builtin, a.s_in, a.zp_in, a.s_out, a.zp_out, a.alpha);
    std::vector<int8_t> want;
    switch (a.builtin) {
      case Builtin::Relu: want = ref::relu_x(ref::relu_params(a.s_in, a.zp_in, a.s_out, a.zp_out), x); break;
      case Builtin::ReluN1To1:
        want = ref::relu_x(ref::relu_n1_to_1_params(a.s_in, a.zp_in, a.s_out, a.zp_out), x);
        break;
      case Builtin::Relu6: want = ref::relu6(a.s_in, a.zp_in, x); break;
      case Builtin::HardSwish:
        want = ref::hard_swish(ref::hard_swish_params(a.s_in, a.zp_in, a.s_out, a.zp_out), x);
        break;
      default: want = ref::leaky_relu(ref::leaky_relu_params(a.s_in, a.zp_in, a.s_out, a.zp_out, a.alpha), x);
    }
    const NsRun ns = import_and_run(m, protocol::Provider::Ns);
    EXPECT_EQ(ns.op.became, a.op);
    EXPECT_EQ(ns.op.provider, "ns");
    EXPECT_EQ(ns.op.provider_note, "");
    EXPECT_EQ(ns.out, as_bytes(want));
    // The arm import of the same model: the table, on arm's registry, the same bytes.
    const NsRun arm = import_and_run(m, protocol::Provider::Arm);
    EXPECT_EQ(arm.op.became, "etns_ops::lookup_table");
    EXPECT_EQ(arm.op.provider, "arm");
    EXPECT_EQ(arm.out, as_bytes(want));
  }
}

// Where the ns kernel's bytes differ from TFLM's (HARD_SWISH: its exact
// x * relu6(x + 3) against TFLM's 16-bit fixed point) or its arguments are out
// of its range (a negative alpha), the ns import keeps the table, says why, and
// computes TFLM's bytes; the program is the arm import's.
TEST(TfliteImportNs, KeepsTheTableWhereTheNsKernelDiffers) {
  const std::vector<int8_t> x = all_codes();
  {
    const tfl::Model m = unary(Builtin::LeakyRelu, 0.03F, 5, 0.02F, 0, -0.5F);
    const NsRun ns = import_and_run(m, protocol::Provider::Ns);
    EXPECT_EQ(ns.op.became, "etns_ops::lookup_table");
    EXPECT_EQ(ns.op.provider, "arm");
    EXPECT_EQ(ns.op.provider_note,
              "cortex_m_ns::quantized_leaky_relu.out takes no alpha factor (-1610612736, 0) (a negative alpha)");
    EXPECT_EQ(ns.out, as_bytes(ref::leaky_relu(ref::leaky_relu_params(0.03F, 5, 0.02F, 0, -0.5F), x)));
    EXPECT_EQ(ns.pte, import_and_run(m, protocol::Provider::Arm).pte);
  }
  {
    const float s = 6.0F / 255;
    const tfl::Model m = unary(Builtin::HardSwish, s, -1, s, -1);
    const NsRun ns = import_and_run(m, protocol::Provider::Ns);
    EXPECT_EQ(ns.op.became, "etns_ops::lookup_table");
    EXPECT_EQ(ns.op.provider, "arm");
    EXPECT_EQ(ns.op.provider_note.rfind("cortex_m_ns::quantized_hardswish.out differs from TFLM on ", 0), 0U)
        << ns.op.provider_note;
    EXPECT_EQ(ns.out, as_bytes(ref::hard_swish(ref::hard_swish_params(s, -1, s, -1), x)));
    EXPECT_EQ(ns.pte, import_and_run(m, protocol::Provider::Arm).pte);
  }
}

// The decision itself: a candidate equal to the TFLM table on every code is
// taken, and one code's difference is counted.
TEST(TfliteImportNs, DifferingCodesCountsEveryCode) {
  std::array<int8_t, 256> a{}, b{};
  for (size_t i = 0; i < 256; ++i) a[i] = b[i] = static_cast<int8_t>(i);
  EXPECT_EQ(builtins::differing_codes(a, b), 0);
  b[255] = 0;
  b[0] = 1;
  EXPECT_EQ(builtins::differing_codes(a, b), 2);
}

}  // namespace
}  // namespace etns::tools::import_test
