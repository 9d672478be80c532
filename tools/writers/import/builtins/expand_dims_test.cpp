#include "tools/writers/import/import_test_support.h"

// EXPAND_DIMS: the bytes as they are, in the shape tflm_reference.h's
// expand_dims_shape gives (TFLM's axis resolution).
namespace etns::tools::import_test {
namespace {

// Of a model input of rank 0 to 3 on every axis, negative ones too, and of a
// convolution's [1, H, W, C] output (stored channels_last: the view reads
// its NHWC bytes) then fed to a second operator.
TEST(TfliteImport, ExpandDimsKeepsTheBytesOnEveryAxis) {
  Rng rng(70);
  for (int trial = 0; trial < 40; ++trial) {
    const auto rank = static_cast<int32_t>(rng.uniform(0, 3));
    std::vector<int32_t> in_shape(static_cast<size_t>(rank));
    for (int32_t& d : in_shape) d = rng.uniform32(1, 4);
    const int32_t axis = rng.uniform32(-rank - 1, rank);
    const std::vector<int32_t> out_shape = ref::expand_dims_shape(in_shape, axis);
    SCOPED_TRACE(shape_text(in_shape) + " axis " + std::to_string(axis));
    const std::vector<int8_t> x = random_s8(rng, ref::count(in_shape));
    TfliteBuilder b;
    const int32_t in = b.int8(in_shape, 0.1F, 2), out = b.int8(out_shape, 0.3F, -1);
    b.op(Builtin::ExpandDims, {in, b.int32_constant({1}, {axis})}, {out});
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish({in}, {out}), {as_bytes(x)}, &imported)[0], as_bytes(x));
    EXPECT_EQ(imported.operators[0].became, "aten::view_copy");
  }
  for (const int32_t axis : {0, 2, 4, -1, -3, -5}) {
    SCOPED_TRACE("conv output, axis " + std::to_string(axis));
    const std::vector<int32_t> nhwc = {1, 3, 2, 4};
    const std::vector<int8_t> x = random_s8(rng, ref::count(nhwc));
    std::vector<int8_t> identity(16, 0);
    for (int32_t i = 0; i < 4; ++i) identity[static_cast<size_t>(i * 4 + i)] = 1;
    TfliteBuilder b;
    const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({4, 1, 1, 4}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(nhwc, 0.1F, 2);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    const int32_t expanded = b.int8(ref::expand_dims_shape(nhwc, axis), 0.1F, 2);
    b.op(Builtin::ExpandDims, {conv, b.int32_constant({}, {axis})}, {expanded});
    const int32_t flat = b.int8({24}, 0.1F, 2);
    b.op(Builtin::Reshape, {expanded}, {flat});
    EXPECT_EQ(run_one(b.finish({in}, {flat}), {as_bytes(x)}), as_bytes(x));
  }
}

// Of a constant: folded, no instruction.
TEST(TfliteImport, ExpandDimsOfAConstantFolds) {
  TfliteBuilder b;
  const int32_t c = b.weights({2, 3}, {0.5F}, 0, {1, -2, 3, -4, 5, -6});
  const int32_t expanded = b.int8({2, 1, 3}, 0.5F, 0);
  b.op(Builtin::ExpandDims, {c, b.int32_constant({1}, {-2})}, {expanded});
  const int32_t x = b.int8({2, 1, 3}, 0.5F, 0), y = b.int8({2, 1, 3}, 0.5F, 0);
  b.op(Builtin::Maximum, {x, expanded}, {y});
  ImportedModel imported;
  const std::vector<int8_t> in(6, -128);
  EXPECT_EQ(run_imported(b.finish({x}, {y}), {as_bytes(in)}, &imported)[0],
            as_bytes(std::vector<int8_t>{1, -2, 3, -4, 5, -6}));
  EXPECT_TRUE(imported.operators[0].folded);
  EXPECT_EQ(imported.operators[0].folded_value, as_bytes(std::vector<int8_t>{1, -2, 3, -4, 5, -6}));
}

TEST(TfliteImport, ExpandDimsRefusalsAreOneExactLine) {
  const auto expand = [](const std::function<void(TfliteBuilder&, std::vector<int32_t>&, int32_t&)>& edit) {
    TfliteBuilder b;
    const int32_t x = b.int8({2, 3}, 0.1F, 0);
    int32_t y = b.int8({2, 3, 1}, 0.1F, 0);
    std::vector<int32_t> in = {x, b.int32_constant({1}, {-1})};
    edit(b, in, y);
    b.op(Builtin::ExpandDims, in, {y});
    return b.finish({x}, {y});
  };
  using Edit = std::function<void(TfliteBuilder&, std::vector<int32_t>&, int32_t&)>;
  const auto model = [&](const Edit& e) { return [=] { return expand(e); }; };
  expect_refusals({
      {"axis above", model([](TfliteBuilder& b, std::vector<int32_t>& in, int32_t&) { in[1] = b.int32_constant({1}, {3}); }),
       "m.tflite: operator 0 (EXPAND_DIMS): axis 3 outside [-3, 2]"},
      {"axis below",
       model([](TfliteBuilder& b, std::vector<int32_t>& in, int32_t&) { in[1] = b.int32_constant({1}, {-4}); }),
       "m.tflite: operator 0 (EXPAND_DIMS): axis -4 outside [-3, 2]"},
      {"int64 axis",
       model([](TfliteBuilder& b, std::vector<int32_t>& in, int32_t&) {
         in[1] = b.int32_constant({2}, {-1, 0});
         b.tensor(in[1]).type = tfl::TensorType::Int64;
         b.tensor(in[1]).shape = {1};
       }),
       "m.tflite: operator 0 (EXPAND_DIMS): tensor 3 (\"t3\") is int64: TFLM takes an int32 axis"},
      {"axis rank",
       model([](TfliteBuilder& b, std::vector<int32_t>& in, int32_t&) { in[1] = b.int32_constant({1, 1}, {0}); }),
       "m.tflite: operator 0 (EXPAND_DIMS): tensor 3 (\"t3\") has rank 2: one axis"},
      {"axis not constant",
       model([](TfliteBuilder& b, std::vector<int32_t>& in, int32_t&) {
         b.tensor(in[1]).data.clear();
         b.tensor(in[1]).buffer = 0;
       }),
       "m.tflite: operator 0 (EXPAND_DIMS): tensor 2 (\"t2\") is not a constant (TFLM requires it)"},
      {"output shape", model([](TfliteBuilder& b, std::vector<int32_t>&, int32_t& y) { b.tensor(y).shape = {2, 1, 3}; }),
       "m.tflite: operator 0 (EXPAND_DIMS): tensor 1 (\"t1\") has shape [2,1,3], expected [2,3,1]"},
      {"one input", model([](TfliteBuilder&, std::vector<int32_t>& in, int32_t&) { in.pop_back(); }),
       "m.tflite: operator 0 (EXPAND_DIMS): 1 inputs; TFLite Micro's EXPAND_DIMS takes 2"},
      {"int32 data",
       model([](TfliteBuilder& b, std::vector<int32_t>&, int32_t& y) {
         b.tensor(0).type = tfl::TensorType::Int32;
         b.tensor(y).type = tfl::TensorType::Int32;
       }),
       "m.tflite: operator 0 (EXPAND_DIMS): tensor 0 (\"t0\") is int32: TFLM's EXPAND_DIMS takes int8, int16 and "
       "float32"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
