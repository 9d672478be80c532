#include "tools/writers/import/import_test_support.h"

#include "kernels/cortex_m/batch_matmul/batch_matmul.h"

// BATCH_MATMUL.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, BatchMatmulMatchesTflm) {
  struct Case {
    std::vector<int32_t> lhs, rhs;
    bool adj_x, adj_y, rhs_constant;
  };
  const Case cases[] = {
      {{2, 3, 5}, {2, 5, 4}, false, false, false}, {{2, 5, 3}, {2, 5, 4}, true, false, false},
      {{2, 3, 5}, {2, 4, 5}, false, true, false},  {{2, 5, 3}, {2, 4, 5}, true, true, false},
      {{1, 4, 6}, {1, 6, 3}, false, false, true},  {{3, 2, 7}, {3, 5, 7}, false, true, true},
      {{2, 6, 2}, {2, 6, 3}, true, false, true},   {{3, 4}, {4, 5}, false, false, false},
      {{4, 3}, {5, 4}, true, true, true},          {{2, 2, 3, 4}, {2, 2, 4, 5}, false, false, false},
      // A right operand without batch dims: the left one's fold into rows.
      {{2, 3, 3, 4}, {4, 2}, false, false, true},  {{2, 4, 3}, {1, 4, 5}, true, false, false},
      {{1, 2, 1, 3, 4}, {2, 4}, false, true, true},
  };
  Rng rng(116);
  // Scales whose product differs between float32 and double (TFLM's
  // GetQuantizedConvolutionMultipler rounds it to float32 first).
  const float s_l = 0.0802361593F, s_r = 0.00838575512F, s_out = 0.14469251F;
  ASSERT_NE(ref::product_multiplier(s_l, s_r, s_out).multiplier, ref::mul_multiplier(s_l, s_r, s_out).multiplier);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.lhs) + (c.adj_x ? "^T" : "") + " x " + shape_text(c.rhs) + (c.adj_y ? "^T" : "") +
                 (c.rhs_constant ? " constant" : ""));
    const size_t rl = c.lhs.size(), rr = c.rhs.size();
    const std::vector<int32_t> bl(c.lhs.begin(), c.lhs.end() - 2), br(c.rhs.begin(), c.rhs.end() - 2);
    std::vector<int32_t> os(std::max(bl.size(), br.size()));
    for (size_t k = 0; k < os.size(); ++k) {
      const int32_t a = k + bl.size() < os.size() ? 1 : bl[k + bl.size() - os.size()];
      const int32_t d = k + br.size() < os.size() ? 1 : br[k + br.size() - os.size()];
      os[k] = a == 1 ? d : a;
    }
    os.push_back(c.adj_x ? c.lhs[rl - 1] : c.lhs[rl - 2]);
    os.push_back(c.adj_y ? c.rhs[rr - 2] : c.rhs[rr - 1]);
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.lhs)), y = random_s8(rng, ref::count(c.rhs));
    const int32_t zp_l = 5, zp_r = c.rhs_constant ? -3 : 7, zp_out = -11;
    TfliteBuilder b;
    const int32_t l = b.int8(c.lhs, s_l, zp_l);
    const int32_t r = c.rhs_constant ? b.int8_constant(c.rhs, s_r, zp_r, y) : b.int8(c.rhs, s_r, zp_r);
    const int32_t out = b.int8(os, s_out, zp_out);
    tfl::Options o;
    o.adj_x = c.adj_x;
    o.adj_y = c.adj_y;
    b.op(Builtin::BatchMatmul, {l, r}, {out}, o);
    std::vector<Bytes> inputs{as_bytes(x)};
    if (!c.rhs_constant) inputs.push_back(as_bytes(y));
    const tfl::Model model = b.finish(c.rhs_constant ? std::vector<int32_t>{l} : std::vector<int32_t>{l, r}, {out});
    ImportedModel imported;
    const std::vector<int8_t> want = ref::batch_matmul(x, c.lhs, zp_l, y, c.rhs, zp_r, c.adj_x, c.adj_y, zp_out,
                                                       ref::product_multiplier(s_l, s_r, s_out));
    EXPECT_EQ(run_imported(model, inputs, &imported), std::vector<Bytes>{as_bytes(want)});
    for (const GraphOp& op : imported.graph.ops) {
      if (op.op != "cortex_m::quantized_batch_matmul") continue;
      EXPECT_EQ(op.arg(cortex_m::kBatchMatmulContract, "output_multiplier").int_value,
                ref::product_multiplier(s_l, s_r, s_out).multiplier);
    }
  }
}

TEST(TfliteImport, BatchMatmulRefusalsAreOneExactLine) {
  expect_refusals({
      {"BATCH_MATMUL depths",
       [] { return one_op(Builtin::BatchMatmul, {{2, 3, 4}, {2, 5, 6}, {2, 3, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): depths differ: 4 and 5"},
      {"BATCH_MATMUL batch broadcast",
       [] { return one_op(Builtin::BatchMatmul, {{1, 3, 4}, {2, 4, 6}, {2, 3, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): batch dims broadcast (equal batch dims, or a right operand without batch "
       "dims, are imported)"},
      {"BATCH_MATMUL output",
       [] { return one_op(Builtin::BatchMatmul, {{2, 3, 4}, {2, 4, 6}, {2, 6, 3}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): output shape is not the product's"},
      {"BATCH_MATMUL rank 6",
       [] { return one_op(Builtin::BatchMatmul, {{1, 1, 1, 1, 3, 4}, {4, 6}, {1, 1, 1, 1, 3, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): ranks 6 and 2 (2 to 5 are imported)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
