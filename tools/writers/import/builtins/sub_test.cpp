#include "kernels/registry.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/import_test_support.h"

// SUB.
namespace etns::tools::import_test {
namespace {

std::vector<int32_t> broadcast_of(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int32_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    const int32_t da = k + a.size() < rank ? 1 : a[k + a.size() - rank];
    const int32_t db = k + b.size() < rank ? 1 : b[k + b.size() - rank];
    out[k] = da == 1 ? db : da;
  }
  return out;
}

struct SubCase {
  std::vector<int32_t> a, b;
  float s1, s2, s_out;
  int32_t zp1, zp2, zp_out;
  Activation activation;
  bool b_constant;
};

TfliteBuilder sub_model(const SubCase& c, const std::vector<int8_t>& y, int32_t& ta, int32_t& tb, int32_t& out) {
  TfliteBuilder b;
  ta = b.int8(c.a, c.s1, c.zp1);
  tb = c.b_constant ? b.int8_constant(c.b, c.s2, c.zp2, y) : b.int8(c.b, c.s2, c.zp2);
  out = b.int8(broadcast_of(c.a, c.b), c.s_out, c.zp_out);
  b.op(Builtin::Sub, {ta, tb}, {out}, testing::activation_options(c.activation));
  return b;
}

TEST(TfliteImport, SubMatchesTflm) {
  const SubCase cases[] = {
      {{1, 3, 4, 6}, {1, 3, 4, 6}, 0.02F, 0.035F, 0.04F, -3, 12, -2, Activation::None, false},
      {{2, 17}, {2, 17}, 0.5F, 0.5F, 0.9F, 0, -128, 127, Activation::Relu, false},
      {{7}, {7}, 0.003F, 0.2F, 0.25F, -1, 1, 0, Activation::Relu6, true},
      {{1, 2, 3, 1}, {1, 1, 1, 3}, 0.05F, 0.05F, 0.1F, 5, -5, 0, Activation::ReluN1To1, false},
      {{2, 3}, {1}, 0.25F, 0.125F, 0.5F, 100, -50, -20, Activation::None, true},
      {{1}, {3, 2, 2}, 0.5F, 0.5F, 1.0F, 0, 0, 0, Activation::None, false},
      {{2, 3, 4}, {4}, 0.1F, 0.05F, 0.2F, -1, 1, 0, Activation::None, true},
      {{1, 3, 1, 1}, {1, 3, 4, 2}, 0.04F, 0.02F, 0.08F, 20, -20, 1, Activation::Relu, false},
      // Channel vectors against [1, H, W, C] (the kernel's channel broadcast).
      {{1, 3, 2, 4}, {4}, 0.04F, 0.02F, 0.08F, 20, -20, 1, Activation::None, true},
      {{1, 1, 1, 4}, {1, 3, 2, 4}, 0.04F, 0.02F, 0.08F, 20, -20, 1, Activation::None, false},
      // Saturation both ways: differences far outside the output grid.
      {{4, 8}, {4, 8}, 1.0F, 1.0F, 0.01F, 0, 0, 0, Activation::None, false},
  };
  Rng rng(115);
  for (const SubCase& c : cases) {
    const std::vector<int32_t> so = broadcast_of(c.a, c.b);
    SCOPED_TRACE(shape_text(c.a) + " - " + shape_text(c.b) + " " + tfl::to_string(c.activation));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.a)), y = random_s8(rng, ref::count(c.b));
    int32_t ta = 0, tb = 0, out = 0;
    TfliteBuilder b = sub_model(c, y, ta, tb, out);
    const ref::Add p = ref::sub_params(c.s1, c.zp1, c.s2, c.zp2, c.s_out, c.zp_out,
                                       ref::activation_range(c.activation, c.s_out, c.zp_out));
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.b_constant) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.b_constant ? std::vector<int32_t>{ta} : std::vector<int32_t>{ta, tb}, {out});
    EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(ref::sub(p, x, c.a, y, c.b, so))});
  }
}

// All 65,536 code pairs at once, [256, 1] minus [1, 256]; the scales are
// ones whose float32 ratios (CalculateOpDataSub) give other multipliers than
// ADD's double ones and change 79 and 59 of the pairs.
TEST(TfliteImport, SubMatchesTflmOnEveryCodePair) {
  const SubCase cases[] = {
      {{256, 1}, {1, 256}, 0.047F, 0.0071F, 0.04F, -11, -4, -16, Activation::None, false},
      {{256, 1}, {1, 256}, 0.02F, 0.033F, 0.06F, -3, -9, 4, Activation::Relu, false},
  };
  std::vector<int8_t> codes(256);
  for (size_t i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(static_cast<int32_t>(i) - 128);
  for (const SubCase& c : cases) {
    SCOPED_TRACE(std::to_string(c.s1) + " " + std::to_string(c.s2) + " " + std::to_string(c.s_out));
    int32_t ta = 0, tb = 0, out = 0;
    TfliteBuilder b = sub_model(c, codes, ta, tb, out);
    const ref::Add p = ref::sub_params(c.s1, c.zp1, c.s2, c.zp2, c.s_out, c.zp_out,
                                       ref::activation_range(c.activation, c.s_out, c.zp_out));
    EXPECT_EQ(run_imported(b.finish({ta, tb}, {out}), {as_bytes(codes), as_bytes(codes)}),
              std::vector<Bytes>{as_bytes(ref::sub(p, codes, c.a, codes, c.b, {256, 256}))});
  }
}

// --provider ns: cortex_m_ns::quantized_sub, TFLM's bytes on every code pair
// (the scales arm refuses among them) and on channel broadcasts.
TEST(TfliteImport, SubWithProviderNsIsQuantizedSubOnEveryCodePair) {
  const SubCase cases[] = {
      {{256, 1}, {1, 256}, 0.035F, 0.017F, 0.04F, 0, 0, 0, Activation::None, false},
      {{256, 1}, {1, 256}, 0.047F, 0.0071F, 0.04F, -11, -4, -16, Activation::Relu6, false},
      // The kernel's channel broadcast, the vector either side.
      {{1, 4, 8, 8}, {8}, 0.035F, 0.017F, 0.04F, 3, -7, 1, Activation::None, false},
      {{1, 1, 1, 8}, {1, 4, 8, 8}, 0.035F, 0.017F, 0.04F, 3, -7, 1, Activation::None, false},
  };
  Rng rng(116);
  std::vector<int8_t> codes(256);
  for (size_t i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(static_cast<int32_t>(i) - 128);
  for (const SubCase& c : cases) {
    SCOPED_TRACE(shape_text(c.a) + " - " + shape_text(c.b));
    const std::vector<int8_t> x = ref::count(c.a) == 256 && c.a[0] == 256 ? codes : random_s8(rng, ref::count(c.a));
    const std::vector<int8_t> y = ref::count(c.b) == 256 && c.b[1] == 256 ? codes : random_s8(rng, ref::count(c.b));
    int32_t ta = 0, tb = 0, out = 0;
    TfliteBuilder b = sub_model(c, y, ta, tb, out);
    const ImportedProgram program =
        import_program(tfl::write_tflite(b.finish({ta, tb}, {out})), "m.tflite", protocol::Provider::Ns);
    EXPECT_EQ(program.imported.operators.at(0).provider, "ns");
    const TemporaryDirectory dir("etns-sub-import-test");
    const std::string path = dir.path() + "/m.pte";
    write_file_atomic(path, program.pte.data(), program.pte.size());
    HostSession session(path, &kernels::registry_of(protocol::Provider::Ns));
    session.set_input(0, as_bytes(x));
    session.set_input(1, as_bytes(y));
    session.execute();
    const ref::Add p = ref::sub_params(c.s1, c.zp1, c.s2, c.zp2, c.s_out, c.zp_out,
                                       ref::activation_range(c.activation, c.s_out, c.zp_out));
    EXPECT_EQ(session.output_bytes(0), as_bytes(ref::sub(p, x, c.a, y, c.b, broadcast_of(c.a, c.b))));
  }
}

// A SUB model of one op: [2, 3] minus [2, 3] on the given grids.
tfl::Model sub_op(float s1, float s2, float s_out) {
  TfliteBuilder b;
  const int32_t ta = b.int8({2, 3}, s1, 0), tb = b.int8({2, 3}, s2, 0), out = b.int8({2, 3}, s_out, 0);
  b.op(Builtin::Sub, {ta, tb}, {out});
  return b.finish({ta, tb}, {out});
}

TEST(TfliteImport, SubRefusalsAreOneExactLine) {
  expect_refusals({
      {"SUB shapes",
       [] { return one_op(Builtin::Sub, {{2, 3}, {2}, {2, 3}}); },
       "m.tflite: operator 0 (SUB): input shapes do not broadcast"},
      {"SUB output",
       [] { return one_op(Builtin::Sub, {{2, 3}, {3}, {3, 3}}); },
       "m.tflite: operator 0 (SUB): output shape is not the inputs' broadcast"},
      // A tie of the negated input's rounding reaches 26 output codes.
      {"SUB rounding",
       [] { return sub_op(0.035F, 0.017F, 0.04F); },
       "m.tflite: operator 0 (SUB): quantized_add of the negated input rounds 26 of 65536 code pairs otherwise "
       "than TFLM's SUB for these scales (--provider ns imports it as cortex_m_ns::quantized_sub)"},
      // An output grid 2^20 times finer than the inputs'.
      {"SUB rounding, fine output",
       [] { return sub_op(0.05F, 0.03F, 1.27156582e-07F); },
       "m.tflite: operator 0 (SUB): quantized_add of the negated input rounds 2 of 65536 code pairs otherwise "
       "than TFLM's SUB for these scales (--provider ns imports it as cortex_m_ns::quantized_sub)"},
      {"SUB output factor",
       [] { return sub_op(1.0F, 1.0F, 1e-7F); },
       "m.tflite: operator 0 (SUB): output multiplier: factor 19.073486 is not below 1 (TFLM's SUB needs that)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
