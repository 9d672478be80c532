#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/writers/import/import_test_support.h"
#include "tools/writers/import/tensor_compare.h"

// SPLIT and SPLIT_V of int8 activations: one etns_ops::slice_copy per output,
// every output against tflm_reference.h's split (SplitImpl's walk).
namespace etns::tools::import_test {
namespace {

// `sizes` along `axis` of a model input of `shape`: SPLIT (equal sizes) or
// SPLIT_V; every output a model output.
tfl::Model split_model(bool v, const std::vector<int32_t>& shape, int32_t axis, const std::vector<int32_t>& sizes) {
  TfliteBuilder b;
  const int32_t x = b.int8(shape, 0.1F, 3);
  const auto a = static_cast<size_t>(axis < 0 ? axis + static_cast<int32_t>(shape.size()) : axis);
  std::vector<int32_t> outs;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<int32_t> s = shape;
    s[a] = sizes[i];
    outs.push_back(b.int8(s, 0.05F * static_cast<float>(i + 1), static_cast<int32_t>(i)));
  }
  const int32_t axis_t = b.int32_constant({1}, {axis});
  tfl::Options o;
  o.num_splits = static_cast<int32_t>(sizes.size());
  if (v) {
    const int32_t sizes_t = b.int32_constant({static_cast<int32_t>(sizes.size())}, sizes);
    b.op(Builtin::SplitV, {x, sizes_t, axis_t}, outs, o);
  } else {
    b.op(Builtin::Split, {axis_t, x}, outs, o);
  }
  return b.finish({x}, outs);
}

TEST(TfliteImport, SplitAndSplitVCopyEveryOutputOnEveryAxis) {
  Rng rng(49);
  for (int trial = 0; trial < 60; ++trial) {
    const bool v = trial % 2 == 1;
    const auto rank = static_cast<int32_t>(rng.uniform(1, 5));
    const int32_t axis = rng.uniform32(-rank, rank - 1);
    const auto a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
    std::vector<int32_t> shape(static_cast<size_t>(rank));
    for (int32_t& d : shape) d = rng.uniform32(1, 4);
    const auto count = static_cast<size_t>(rng.uniform(1, 4));
    std::vector<int32_t> sizes(count);
    const int32_t equal = rng.uniform32(1, 3);
    shape[a] = 0;
    for (int32_t& s : sizes) {
      s = v ? rng.uniform32(1, 3) : equal;
      shape[a] += s;
    }
    SCOPED_TRACE(std::string(v ? "SPLIT_V " : "SPLIT ") + shape_text(shape) + " axis " + std::to_string(axis) + " into " +
                 std::to_string(count));
    const std::vector<int8_t> x = random_s8(rng, ref::count(shape));
    ImportedModel imported;
    const std::vector<Bytes> got = run_imported(split_model(v, shape, axis, sizes), {as_bytes(x)}, &imported);
    const std::vector<std::vector<int8_t>> want = ref::split(shape, x, axis, sizes);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], as_bytes(want[i])) << "output " << i;
    const ImportedOperator& op = imported.operators[0];
    EXPECT_EQ(op.instructions, static_cast<int32_t>(count));
    ASSERT_EQ(op.outputs.size(), count);
    for (size_t i = 0; i < count; ++i) {
      EXPECT_EQ(op.outputs[i].tensor, static_cast<int32_t>(i + 1));
      EXPECT_EQ(op.outputs[i].instruction, static_cast<int32_t>(i));
    }
    EXPECT_EQ(op.instruction, static_cast<int32_t>(count - 1));
  }
}

// A convolution's output split along C (and H): each piece read in place.
TEST(TfliteImport, SplitOfAConvolutionOutput) {
  Rng rng(50);
  const std::vector<int32_t> nhwc = {1, 2, 3, 6};
  std::vector<int8_t> identity(36, 0);
  for (int32_t i = 0; i < 6; ++i) identity[static_cast<size_t>(i * 6 + i)] = 1;
  for (const int32_t axis : {3, -1, 1}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    const auto a = static_cast<size_t>(axis < 0 ? axis + 4 : axis);
    const int32_t pieces = nhwc[a];
    std::vector<int32_t> piece_shape = nhwc;
    piece_shape[a] = 1;
    TfliteBuilder b;
    const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({6, 1, 1, 6}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(nhwc, 0.1F, 2);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    std::vector<int32_t> outs;
    for (int32_t i = 0; i < pieces; ++i) outs.push_back(b.int8(piece_shape, 0.1F, 2));
    b.op(Builtin::Split, {b.int32_constant({}, {axis}), conv}, outs);
    const std::vector<int8_t> x = random_s8(rng, ref::count(nhwc));
    ImportedModel imported;
    const std::vector<Bytes> got = run_imported(b.finish({in}, outs), {as_bytes(x)}, &imported);
    const std::vector<std::vector<int8_t>> want =
        ref::split(nhwc, x, axis, std::vector<int32_t>(static_cast<size_t>(pieces), 1));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], as_bytes(want[i])) << "output " << i;
    EXPECT_EQ(imported.operators[1].instructions, pieces);
  }
}

// compare-tensors gives one row per output, each against its own reference
// file and its own instruction's dump.
TEST(TfliteImport, CompareTensorsChecksEveryOutputOfASplit) {
  Rng rng(51);
  const std::vector<int32_t> shape = {2, 4};
  const std::vector<int8_t> x = random_s8(rng, 8);
  ImportedModel imported;
  run_imported(split_model(false, shape, 1, {2, 2}), {as_bytes(x)}, &imported);
  const std::vector<std::vector<int8_t>> want = ref::split(shape, x, 1, {2, 2});
  const TemporaryDirectory dir("etns-split-compare");
  for (size_t i = 0; i < 2; ++i) {
    const ImportedOutput& o = imported.operators[0].outputs[i];
    const Bytes ref_bytes = as_bytes(want[i]);
    Bytes dumped = ref_bytes;
    if (i == 1) dumped[3] = static_cast<uint8_t>(dumped[3] + 2);
    write_file_atomic(dir.path() + "/" + reference_file_name(0, o.tensor), ref_bytes.data(), ref_bytes.size());
    write_file_atomic(dir.path() + "/c0i" + std::to_string(o.instruction) + ".bin", dumped.data(), dumped.size());
  }
  const std::vector<TensorComparison> rows = compare_tensors(imported, dir.path(), dir.path());
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(format_comparison(rows[0]), "op   0 SPLIT              t1: bit-exact (4 bytes)");
  EXPECT_EQ(format_comparison(rows[1]), "op   0 SPLIT              t2: max |diff| 2, first at element 3 of 4");
}

TEST(TfliteImport, SplitRefusalsAreOneExactLine) {
  using Edit = std::function<void(TfliteBuilder&, std::vector<int32_t>&, std::vector<int32_t>&)>;
  const auto model = [](bool v, const Edit& edit) {
    return [=] {
      TfliteBuilder b;
      const int32_t x = b.int8({2, 4}, 0.1F, 0);
      std::vector<int32_t> outs = {b.int8({2, 2}, 0.1F, 0), b.int8({2, 2}, 0.1F, 0)};
      const int32_t axis = b.int32_constant({1}, {1});
      std::vector<int32_t> in = v ? std::vector<int32_t>{x, b.int32_constant({2}, {2, 2}), axis}
                                  : std::vector<int32_t>{axis, x};
      edit(b, in, outs);
      b.op(v ? Builtin::SplitV : Builtin::Split, in, outs);
      return b.finish({x}, outs);
    };
  };
  const Edit none = [](TfliteBuilder&, std::vector<int32_t>&, std::vector<int32_t>&) {};
  EXPECT_EQ(refusal(model(false, none)()), "imported");
  EXPECT_EQ(refusal(model(true, none)()), "imported");
  expect_refusals({
      {"axis", model(false, [](TfliteBuilder& b, std::vector<int32_t>& in, std::vector<int32_t>&) {
         in[0] = b.int32_constant({1}, {2});
       }),
       "m.tflite: operator 0 (SPLIT): axis 2 outside [-2, 2)"},
      {"axis not constant", model(false, [](TfliteBuilder& b, std::vector<int32_t>& in, std::vector<int32_t>&) {
         b.tensor(in[0]).data.clear();
         b.tensor(in[0]).buffer = 0;
       }),
       "m.tflite: operator 0 (SPLIT): tensor 3 (\"t3\") is not a constant (its bytes are not in the file)"},
      {"unequal SPLIT", model(false, [](TfliteBuilder& b, std::vector<int32_t>&, std::vector<int32_t>& outs) {
         b.tensor(outs[1]).shape = {2, 1};
       }),
       "m.tflite: operator 0 (SPLIT): tensor 2 (\"t2\") has shape [2,1], expected [2,2] (the input's, 2 along axis 1)"},
      {"sizes short", model(true, [](TfliteBuilder& b, std::vector<int32_t>&, std::vector<int32_t>& outs) {
         b.tensor(outs[1]).shape = {2, 1};
       }),
       "m.tflite: operator 0 (SPLIT_V): the outputs have 3 along axis 1, the input 4"},
      {"other dim", model(true, [](TfliteBuilder& b, std::vector<int32_t>&, std::vector<int32_t>& outs) {
         b.tensor(outs[0]).shape = {1, 2};
       }),
       "m.tflite: operator 0 (SPLIT_V): tensor 1 (\"t1\") has shape [1,2], expected [2,2] (the input's, 2 along axis 1)"},
      {"rank", model(true, [](TfliteBuilder& b, std::vector<int32_t>&, std::vector<int32_t>& outs) {
         b.tensor(outs[0]).shape = {4};
       }),
       "m.tflite: operator 0 (SPLIT_V): tensor 1 (\"t1\") has shape [4], expected rank 2 (the input's)"},
      {"int16 output", model(false, [](TfliteBuilder& b, std::vector<int32_t>&, std::vector<int32_t>& outs) {
         b.tensor(outs[1]).type = tfl::TensorType::Int16;
       }),
       "m.tflite: operator 0 (SPLIT): tensor 2 (\"t2\") is int16: SPLIT is imported on int8 tensors "
       "(etns_ops::slice_copy)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
