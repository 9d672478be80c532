#include "tools/writers/import/import_test_support.h"

#include <cstring>

#include "tests/support/shared_data.h"
#include "tools/writers/tflite/tflite_reader.h"

// MEAN, SUM and REDUCE_MAX: etns_ops::quantized_reduce with TFLM's branch for
// each (reference_ops::Mean, QuantizedMeanOrSum, ReduceGeneric).
namespace etns::tools::import_test {
namespace {

struct Case {
  const char* what;
  std::vector<int32_t> shape;
  std::vector<int32_t> axes;
  bool keep_dims;
  float s_in;
  int32_t zp_in;
  float s_out;
  int32_t zp_out;
};

// The output shape TFLite's converter writes: each resolved axis dropped or 1.
std::vector<int32_t> out_shape(const std::vector<int32_t>& shape, const std::vector<int32_t>& axes, bool keep) {
  const int rank = static_cast<int>(shape.size());
  std::vector<int32_t> out;
  for (int d = 0; d < rank; ++d) {
    bool reduced = false;
    for (const int32_t a : axes) reduced = reduced || (a < 0 ? a + rank : a) == d;
    if (!reduced) {
      out.push_back(shape[static_cast<size_t>(d)]);
    } else if (keep) {
      out.push_back(1);
    }
  }
  return out;
}

// One reduction of c's input, imported and run on the host.
Bytes run_case(Builtin builtin, const Case& c, const std::vector<int8_t>& x) {
  TfliteBuilder b;
  const int32_t in = b.int8(c.shape, c.s_in, c.zp_in);
  const int32_t axis = b.int32_constant({static_cast<int32_t>(c.axes.size())}, c.axes);
  const int32_t out = b.int8(out_shape(c.shape, c.axes, c.keep_dims), c.s_out, c.zp_out);
  tfl::Options o;
  o.keep_dims = c.keep_dims;
  b.op(builtin, {in, axis}, {out}, o);
  return run_one(b.finish({in}, {out}), {as_bytes(x)});
}

const Case kMeanCases[] = {
    // fingerprint_signature's MEAN: the global average pool head, grids differ.
    {"[1,42,42,16] axes {1,2}, keep false, rescaled", {1, 42, 42, 16}, {1, 2}, false, 0.020308755F, -128,
     0.011438F, -128},
    {"axes {-3,2} (not TFLM's raw {1,2}), keep true, rescaled", {1, 5, 7, 16}, {-3, 2}, true, 0.05F, 3, 0.02F,
     -7},
    {"axes {1,-2}, keep true, equal grids (integer mean)", {2, 5, 7, 16}, {1, -2}, true, 0.05F, 3, 0.05F, 3},
    {"axes {1,2}, keep false, equal grids", {1, 6, 6, 8}, {1, 2}, false, 0.1F, -128, 0.1F, -128},
    {"axis {3}, equal grids", {1, 3, 4, 10}, {3}, false, 0.1F, 0, 0.1F, 0},
    {"axis {-1}, rescaled", {2, 3, 9}, {-1}, true, 0.1F, 10, 0.07F, -20},
    {"axis {0}, 2-D", {7, 5}, {0}, false, 0.03F, -3, 0.03F, 4},
    {"duplicate and negative axes {2, -2, 1}", {1, 4, 5, 3}, {2, -2, 1}, false, 0.04F, 1, 0.05F, 2},
    {"non-adjacent axes {0, 2}", {3, 4, 5, 2}, {0, 2}, true, 0.04F, -5, 0.02F, 9},
    {"rank 5, axes {1, 3}", {2, 3, 2, 4, 3}, {1, 3}, false, 0.02F, 0, 0.03F, 0},
    {"saturates high", {1, 4, 4, 4}, {1, 2}, false, 0.5F, -128, 0.01F, 0},
    {"saturates low", {1, 4, 4, 4}, {1, 2}, false, 0.5F, 127, 0.01F, 0},
};

TEST(TfliteImport, MeanMatchesTflmOnEveryBranch) {
  Rng rng(4040);
  for (const Case& c : kMeanCases) {
    SCOPED_TRACE(std::string(c.what) + " " + shape_text(c.shape));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    const std::vector<int8_t> want = ref::mean(x, c.shape, c.axes, c.s_in, c.zp_in, c.s_out, c.zp_out);
    EXPECT_EQ(run_case(Builtin::Mean, c, x), as_bytes(want));
  }
}

// Constant inputs at either end put every mean on a code, exactly or on a
// half: ties round away from zero, and the integer mean truncates toward zero.
// --provider ns: MEAN calls cortex_m_ns::quantized_mean only where a factor
// gives TFLM's bytes on every reachable sum (proved at import), else stays on
// etns_ops::quantized_reduce and says why. Either way the bytes are TFLM's.
// With one scale on both sides and a power-of-two count, TFLM's rescaled
// mean is one rounding (halves away from zero) of sum / count, which the
// kernel's factor just below 2^-k reproduces; a count of 3 is two roundings
// in the kernel (no factor fits), and equal grids truncate: those stay.
TEST(TfliteImport, MeanOnNsOnlyWhereEveryReachableSumAgrees) {
  struct NsCase {
    Case c;
    bool ns;
  };
  const NsCase cases[] = {
      {{"count 4, rescaled", {2, 4}, {1}, false, 0.1F, 5, 0.1F, -3}, true},
      {{"count 8 over [1,8,1,4] axis 1, keep_dims", {1, 8, 1, 4}, {1}, true, 0.05F, -7, 0.05F, 2}, true},
      {{"count 3, rescaled", {2, 3}, {1}, false, 0.1F, 5, 0.1F, -3}, false},
      {{"count 3, scales differ", {1, 3, 1, 4}, {1}, true, 0.05F, -7, 0.04F, 2}, false},
      {{"equal grids truncate", {1, 6, 6, 8}, {1, 2}, false, 0.1F, -128, 0.1F, -128}, false},
  };
  Rng rng(4041);
  for (const NsCase& n : cases) {
    const Case& c = n.c;
    SCOPED_TRACE(c.what);
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, c.s_in, c.zp_in);
    const int32_t axis = b.int32_constant({static_cast<int32_t>(c.axes.size())}, c.axes);
    const int32_t out = b.int8(out_shape(c.shape, c.axes, c.keep_dims), c.s_out, c.zp_out);
    tfl::Options o;
    o.keep_dims = c.keep_dims;
    b.op(Builtin::Mean, {in, axis}, {out}, o);
    const ImportedModel imported = import_tflite(b.finish({in}, {out}), "m.tflite", protocol::Provider::Ns);
    ASSERT_EQ(imported.operators.size(), 1u);
    const ImportedOperator& op = imported.operators[0];
    EXPECT_EQ(op.provider, n.ns ? "ns" : "arm");
    if (n.ns) {
      EXPECT_EQ(op.provider_note, "");
    } else {
      EXPECT_NE(op.provider_note.find("no factor gives TFLM's MEAN on all"), std::string::npos) << op.provider_note;
    }
    for (int k = 0; k < 4; ++k) {
      const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
      const std::vector<int8_t> want = ref::mean(x, c.shape, c.axes, c.s_in, c.zp_in, c.s_out, c.zp_out);
      EXPECT_EQ(run_imported(b.finish({in}, {out}), {as_bytes(x)}, nullptr, protocol::Provider::Ns).at(0),
                as_bytes(want));
    }
  }
}

TEST(TfliteImport, MeanOfConstantsAndTies) {
  const Case rescaled{"ties", {1, 2, 2, 4}, {1, 2}, false, 1.0F, 0, 2.0F, 0};
  const Case integer{"truncation", {1, 2, 2, 4}, {1, 2}, false, 0.5F, 0, 0.5F, 0};
  // Per channel (4 pixels): sums 1, -1, 3, -3 -> means 0.25, -0.25, 0.75, -0.75.
  const std::vector<int8_t> x = {1, -1, 3, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(run_case(Builtin::Mean, integer, x), as_bytes(std::vector<int8_t>{0, 0, 0, 0}));
  EXPECT_EQ(run_case(Builtin::Mean, rescaled, x), as_bytes(ref::mean(x, {1, 2, 2, 4}, {1, 2}, 1.0F, 0, 2.0F, 0)));
  // Means of 1 and -1 halved by the rescale: 0.5 -> 1, -0.5 -> -1.
  const std::vector<int8_t> ones = {1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1};
  EXPECT_EQ(run_case(Builtin::Mean, rescaled, ones), as_bytes(std::vector<int8_t>{1, -1, 1, -1}));
  EXPECT_EQ(ref::mean(ones, {1, 2, 2, 4}, {1, 2}, 1.0F, 0, 2.0F, 0), (std::vector<int8_t>{1, -1, 1, -1}));
}

const Case kSumCases[] = {
    {"axes {1,2}, keep true", {1, 3, 3, 4}, {1, 2}, true, 0.05F, 3, 0.4F, -7},
    {"axis {-1}", {2, 3, 6}, {-1}, false, 0.1F, -2, 0.5F, 1},
    {"equal grids still rescale", {4, 5}, {0}, false, 0.1F, 0, 0.1F, 0},
    {"wraps past 127 (no clamp)", {1, 8, 8, 2}, {1, 2}, false, 0.5F, -128, 0.25F, 0},
    {"duplicate axes {1, 1, -3}", {2, 4, 3}, {1, 1, -3}, true, 0.02F, 7, 0.2F, -3},
};

TEST(TfliteImport, SumMatchesTflm) {
  Rng rng(7474);
  for (const Case& c : kSumCases) {
    SCOPED_TRACE(std::string(c.what) + " " + shape_text(c.shape));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    const std::vector<int8_t> want = ref::sum(x, c.shape, c.axes, c.s_in, c.zp_in, c.s_out, c.zp_out);
    EXPECT_EQ(run_case(Builtin::Sum, c, x), as_bytes(want));
  }
}

const Case kMaxCases[] = {
    {"axes {1,2}", {1, 5, 5, 8}, {1, 2}, false, 0.05F, 3, 0.05F, 3},
    {"three axes {0, 1, 2}", {2, 3, 4, 5}, {0, 1, 2}, true, 0.05F, -1, 0.05F, -1},
    {"axis {-1}", {3, 17}, {-1}, false, 0.1F, 0, 0.1F, 0},
};

TEST(TfliteImport, ReduceMaxMatchesTflm) {
  Rng rng(8282);
  for (const Case& c : kMaxCases) {
    SCOPED_TRACE(std::string(c.what) + " " + shape_text(c.shape));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    EXPECT_EQ(run_case(Builtin::ReduceMax, c, x), as_bytes(ref::reduce_max(x, c.shape, c.axes)));
  }
}

// After a pool the activation exists only channels_last: the mean reads its
// NHWC bytes there, with the axes named in the logical [N, C, H, W].
TEST(TfliteImport, MeanAfterAPoolReadsChannelsLast) {
  const std::vector<int32_t> shape{1, 6, 6, 5};
  for (const bool keep : {false, true}) {
    SCOPED_TRACE(keep ? "keep_dims" : "dropped");
    TfliteBuilder b;
    const int32_t in = b.int8(shape, 0.05F, -7), pooled = b.int8(shape, 0.05F, -7);
    // keep_dims over the raw {1, 2} is refused (ReduceRefusalsAreOneExactLine); {-3, -2} names the same dims.
    const std::vector<int32_t> axes = keep ? std::vector<int32_t>{-3, -2} : std::vector<int32_t>{1, 2};
    const int32_t axis = b.int32_constant({2}, axes);
    const int32_t out = b.int8(keep ? std::vector<int32_t>{1, 1, 1, 5} : std::vector<int32_t>{1, 5}, 0.03F, 20);
    b.op(Builtin::MaxPool2d, {in}, {pooled}, pool_options(Padding::Valid, 1, 1, 1, 1, Activation::None));
    tfl::Options o;
    o.keep_dims = keep;
    b.op(Builtin::Mean, {pooled, axis}, {out}, o);
    Rng rng(606);
    const std::vector<int8_t> x = random_s8(rng, ref::count(shape));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::mean(x, shape, axes, 0.05F, -7, 0.03F, 20)));
  }
}

// fingerprint_signature's MEAN (operator 3: [1, 42, 42, 16] over {1, 2},
// keep_dims false, grids (0.0203, -128) -> (0.00334, -128)) as a one-operator
// model with the file's tensors, fed TFLM's input to it on runs A and B: the
// output is TFLM's, byte for byte. (The whole model on the host and the M55:
// tests/import_test.cpp.)
TEST(TfliteImport, FingerprintSignatureMeanIsBitExactOnBothRuns) {
  ETNS_REQUIRE_SHARED(shared);
  const std::string base = shared + "/models/real-tflite/fingerprint_signature";
  const tfl::Model file = tfl::read_tflite(testing::read_file(base + ".tflite"), "fingerprint_signature.tflite");
  ASSERT_GT(file.operators.size(), 3U);
  const tfl::Operator& op = file.operators[3];
  ASSERT_EQ(op.builtin, static_cast<int32_t>(Builtin::Mean));
  const tfl::Tensor &x = file.tensors[static_cast<size_t>(op.inputs[0])],
                    &axis = file.tensors[static_cast<size_t>(op.inputs[1])],
                    &y = file.tensors[static_cast<size_t>(op.outputs[0])];
  EXPECT_FALSE(op.options.keep_dims);
  TfliteBuilder b;
  const int32_t in = b.int8(x.shape, x.quantization.scales[0], static_cast<int32_t>(x.quantization.zero_points[0]));
  std::vector<int32_t> axis_values(axis.data.size() / 4);
  std::memcpy(axis_values.data(), axis.data.data(), axis.data.size());
  const int32_t axes = b.int32_constant(axis.shape, axis_values);
  const int32_t out = b.int8(y.shape, y.quantization.scales[0], static_cast<int32_t>(y.quantization.zero_points[0]));
  b.op(Builtin::Mean, {in, axes}, {out}, op.options);
  const tfl::Model m = b.finish({in}, {out});
  for (const char* run : {"A", "B"}) {
    SCOPED_TRACE(run);
    const std::string tensors = base + "." + run + ".tensors/";
    EXPECT_EQ(run_one(m, {testing::read_file(tensors + "op002_t3.bin")}), testing::read_file(tensors + "op003_t11.bin"));
  }
}

// A MEAN model: input t0 of `shape`, output t1 of `out`, axis t2 = `axes`.
tfl::Model mean_model(Builtin builtin, const std::vector<int32_t>& shape, const std::vector<int32_t>& out,
                      const std::vector<int32_t>& axes) {
  return one_op(builtin, {shape, out}, {}, [axes](TfliteBuilder& b, std::vector<int32_t>& in) {
    in.push_back(b.int32_constant({static_cast<int32_t>(axes.size())}, axes));
  });
}

TEST(TfliteImport, ReduceRefusalsAreOneExactLine) {
  expect_refusals({
      {"axis out of range",
       [] { return mean_model(Builtin::Mean, {1, 4, 4, 2}, {1, 2}, {1, 4}); },
       "m.tflite: operator 0 (MEAN): tensor 2 (\"t2\"): axis 4 outside [-4, 4) for rank 4"},
      {"keep_dims over raw axes {2, 1} of a 4-D input",
       [] {
         tfl::Options o;
         o.keep_dims = true;
         return one_op(Builtin::Mean, {{1, 4, 4, 2}, {1, 1, 1, 2}}, o, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({2}, {2, 1}));
         });
       },
       "m.tflite: operator 0 (MEAN): keep_dims over axes {1, 2} of a 4-D input: TFLM versions compute this case two "
       "ways (an integer Mean4D or the generic mean), so etns does not import it"},
      {"three distinct axes",
       [] { return mean_model(Builtin::Sum, {2, 4, 4, 2}, {2}, {0, 1, 2}); },
       "m.tflite: operator 0 (SUM): tensor 2 (\"t2\") names 3 distinct axes, expected at most 2 (TFLM's MEAN and "
       "SUM resolve into 2 slots)"},
      {"output shape",
       [] { return mean_model(Builtin::Mean, {1, 4, 4, 2}, {1, 1, 1, 2}, {1, 2}); },
       "m.tflite: operator 0 (MEAN): tensor 1 (\"t1\") is [1,1,1,2], expected [1,2] (tensor 0 (\"t0\") [1,4,4,2] "
       "reduced with keep_dims false)"},
      {"rank 6",
       [] { return mean_model(Builtin::Mean, {1, 1, 1, 1, 2, 2}, {1, 1, 1, 1, 2}, {5}); },
       "m.tflite: operator 0 (MEAN): tensor 0 (\"t0\") has rank 6, expected at most 5 (TFLM's MEAN and SUM index 5 "
       "dims)"},
      {"REDUCE_MAX grids differ",
       [] {
         tfl::Model m = mean_model(Builtin::ReduceMax, {3, 4}, {3}, {1});
         m.tensors[1].quantization.scales = {0.5F};
         return m;
       },
       "m.tflite: operator 0 (REDUCE_MAX): tensor 0 (\"t0\") and tensor 1 (\"t1\") differ in quantisation (TFLM's "
       "int8 REDUCE_MAX needs one grid)"},
      {"axis not constant",
       [] {
         tfl::Model m = mean_model(Builtin::Mean, {2, 3}, {2}, {1});
         m.tensors[2].data.clear();
         m.tensors[2].buffer = 0;
         return m;
       },
       "m.tflite: operator 0 (MEAN): tensor 2 (\"t2\") is not a constant (its bytes are not in the file)"},
      {"int16",
       [] {
         tfl::Model m = mean_model(Builtin::Mean, {3, 4}, {3}, {1});
         m.tensors[0].type = m.tensors[1].type = tfl::TensorType::Int16;
         return m;
       },
       "m.tflite: operator 0 (MEAN): tensor 0 (\"t0\") is int16, expected int8"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
