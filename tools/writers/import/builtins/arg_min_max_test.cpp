#include "tools/writers/import/import_test_support.h"

// ARG_MAX and ARG_MIN: etns_ops::arg_reduce on the stored form (a constant
// input folded), against tflm_reference.h's arg_min_max.
namespace etns::tools::import_test {
namespace {

// An int32 activation (the indices' tensor).
int32_t int32_activation(TfliteBuilder& b, std::vector<int32_t> shape) {
  const int32_t t = b.float32(std::move(shape));
  b.tensor(t).type = tfl::TensorType::Int32;
  return t;
}

std::vector<int32_t> without(std::vector<int32_t> shape, int32_t axis) {
  shape.erase(shape.begin() + (axis < 0 ? axis + static_cast<int32_t>(shape.size()) : axis));
  return shape;
}

tfl::Model arg_model(Builtin builtin, const std::vector<int32_t>& shape, const std::vector<int32_t>& axis_shape,
                     int32_t axis) {
  TfliteBuilder b;
  const int32_t in = b.int8(shape, 0.1F, -3);
  const int32_t ax = b.int32_constant(axis_shape, {axis});
  const int32_t out = int32_activation(b, without(shape, axis));
  b.op(builtin, {in, ax}, {out});
  return b.finish({in}, {out});
}

// Ranks 1 to 4, every axis given both ways, the axis as a scalar and as
// [1], both builtins; values from a narrow range in half the trials so that
// ties are common.
TEST(TfliteImport, ArgMinMaxOnEveryAxisAndRank) {
  Rng rng(5679);
  const std::vector<std::vector<int32_t>> kShapes = {{7}, {3, 5}, {2, 3, 4}, {2, 3, 4, 5}, {1, 1, 40, 1}, {1, 33}};
  for (const std::vector<int32_t>& shape : kShapes) {
    const auto rank = static_cast<int32_t>(shape.size());
    for (int32_t axis = -rank; axis < rank; ++axis) {
      for (const Builtin builtin : {Builtin::ArgMax, Builtin::ArgMin}) {
        const bool narrow = rng.uniform32(0, 1) == 1;
        SCOPED_TRACE(shape_text(shape) + " axis " + std::to_string(axis) + (narrow ? " narrow" : " full") +
                     (builtin == Builtin::ArgMax ? " ARG_MAX" : " ARG_MIN"));
        size_t n = 1;
        for (const int32_t d : shape) n *= static_cast<size_t>(d);
        std::vector<int8_t> x(n);
        for (int8_t& v : x) v = static_cast<int8_t>(narrow ? rng.uniform32(-1, 1) : rng.uniform32(-128, 127));
        const std::vector<int32_t> axis_shape = axis % 2 == 0 ? std::vector<int32_t>{} : std::vector<int32_t>{1};
        const std::vector<int32_t> want = ref::arg_min_max(x, shape, axis, builtin == Builtin::ArgMax);
        EXPECT_EQ(run_one(arg_model(builtin, shape, axis_shape, axis), {as_bytes(x)}), as_bytes(want));
      }
    }
  }
}

// All-equal rows: the first index (0) for both builtins; one row with its
// extreme at several places gives the first of them.
TEST(TfliteImport, ArgMinMaxTiesGiveTheFirstIndex) {
  const std::vector<int32_t> shape{2, 6};
  const std::vector<int8_t> x = {5, 5, 5, 5, 5, 5, -4, 9, -4, 9, 0, 9};
  EXPECT_EQ(run_one(arg_model(Builtin::ArgMax, shape, {1}, 1), {as_bytes(x)}),
            as_bytes(std::vector<int32_t>{0, 1}));
  EXPECT_EQ(run_one(arg_model(Builtin::ArgMin, shape, {1}, -1), {as_bytes(x)}),
            as_bytes(std::vector<int32_t>{0, 0}));
  EXPECT_EQ(ref::arg_min_max(x, shape, 1, true), (std::vector<int32_t>{0, 1}));
}

// After a convolution the activation exists channels_last; the NHWC axes
// are TFLite's, every one of them (the channel axis the common case).
tfl::Model conv_then(const std::vector<int8_t>& weights, Builtin builtin, int32_t axis) {
  TfliteBuilder b;
  const int32_t in = b.int8({1, 4, 4, 2}, 0.1F, 0);
  const int32_t w = b.weights({3, 3, 3, 2}, {0.01F, 0.02F, 0.03F}, 0, weights);
  const int32_t conv = b.int8({1, 2, 2, 3}, 0.1F, 0);
  b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
  if (builtin == Builtin::Conv2d) return b.finish({in}, {conv});
  const int32_t ax = b.int32_constant({}, {axis});
  const int32_t out = int32_activation(b, without({1, 2, 2, 3}, axis));
  b.op(builtin, {conv, ax}, {out});
  return b.finish({in}, {out});
}

TEST(TfliteImport, ArgMinMaxAfterAConvolution) {
  const std::vector<int32_t> shape{1, 2, 2, 3};
  Rng rng(8123);
  for (int32_t axis = -4; axis < 4; ++axis) {
    for (const Builtin builtin : {Builtin::ArgMax, Builtin::ArgMin}) {
      SCOPED_TRACE("axis " + std::to_string(axis));
      const std::vector<int8_t> w = random_s8(rng, 54);
      const std::vector<int8_t> x = random_s8(rng, 32);
      // The convolution's output alone, then the same model with the arg.
      const Bytes conv_out = run_one(conv_then(w, Builtin::Conv2d, 0), {as_bytes(x)});
      const std::vector<int8_t> y(conv_out.begin(), conv_out.end());
      const std::vector<int32_t> want = ref::arg_min_max(y, shape, axis, builtin == Builtin::ArgMax);
      ImportedModel imported;
      const std::vector<Bytes> got = run_imported(conv_then(w, builtin, axis), {as_bytes(x)}, &imported);
      ASSERT_EQ(got.size(), 1U);
      EXPECT_EQ(got[0], as_bytes(want));
      EXPECT_EQ(imported.operators[1].became, "etns_ops::arg_reduce");
    }
  }
}

// A constant input is folded: no instruction is left, and the GATHER that
// reads the indices gets TFLM's.
TEST(TfliteImport, ArgMinOfAConstantIsFolded) {
  TfliteBuilder b;
  const int32_t in = b.int8_constant({2, 3}, 0.1F, 0, {1, 7, 1, -2, -9, -9});
  const int32_t ax = b.int32_constant({1}, {1});
  const int32_t idx = int32_activation(b, {2});
  b.op(Builtin::ArgMin, {in, ax}, {idx});
  const int32_t src = b.int8({2, 4}, 0.1F, 0), out = b.int8({2, 2}, 0.1F, 0);
  tfl::Options o;
  o.axis = 1;
  b.op(Builtin::Gather, {src, idx}, {out}, o);
  ImportedModel imported;
  const std::vector<int8_t> s = {10, 11, 12, 13, 20, 21, 22, 23};
  // ARG_MIN of [1, 7, 1] is 0 (the first of two), of [-2, -9, -9] is 1.
  const std::vector<Bytes> got = run_imported(b.finish({src}, {out}), {as_bytes(s)}, &imported);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0], as_bytes(std::vector<int8_t>{10, 11, 20, 21}));
  EXPECT_TRUE(imported.operators[0].folded);
  EXPECT_EQ(imported.operators[0].instructions, 0);
  EXPECT_EQ(ref::arg_min_max({1, 7, 1, -2, -9, -9}, {2, 3}, 1, false), (std::vector<int32_t>{0, 1}));
}

TEST(TfliteImport, ArgMinMaxRefusalsAreOneExactLine) {
  auto model = [](tfl::TensorType in_type, tfl::TensorType axis_type, tfl::TensorType out_type,
                  std::vector<int32_t> out_shape, bool constant_axis, std::vector<int32_t> axis_values) {
    TfliteBuilder b;
    const int32_t in = b.int8({2, 3}, 0.1F, 0);
    b.tensor(in).type = in_type;
    int32_t ax;
    if (constant_axis) {
      ax = b.int32_constant({static_cast<int32_t>(axis_values.size())}, axis_values);
    } else {
      ax = int32_activation(b, {1});
    }
    b.tensor(ax).type = axis_type;
    const int32_t out = int32_activation(b, std::move(out_shape));
    b.tensor(out).type = out_type;
    b.op(Builtin::ArgMax, {in, ax}, {out});
    std::vector<int32_t> inputs = {in};
    if (!constant_axis) inputs.push_back(ax);
    return b.finish(inputs, {out});
  };
  using T = tfl::TensorType;
  expect_refusals({
      {"int16 input", [&] { return model(T::Int16, T::Int32, T::Int32, {2}, true, {1}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 0 (\"t0\") is int16, expected int8"},
      {"int64 axis",
       [&] {
         tfl::Model m = model(T::Int8, T::Int32, T::Int32, {2}, true, {1, 0});
         m.tensors[1].type = T::Int64;
         m.tensors[1].shape = {1};
         return m;
       },
       "m.tflite: operator 0 (ARG_MAX): tensor 1 (\"t1\") is int64: TFLM's ARG_MAX takes an int32 axis only"},
      {"int64 output", [&] { return model(T::Int8, T::Int32, T::Int64, {2}, true, {1}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 2 (\"t2\") is int64: TFLM's ARG_MAX writes int32 only"},
      {"computed axis", [&] { return model(T::Int8, T::Int32, T::Int32, {2}, false, {}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 1 (\"t1\") is computed: the axis decides the output's shape, so it "
       "must be constant"},
      {"two axes", [&] { return model(T::Int8, T::Int32, T::Int32, {2}, true, {1, 0}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 1 (\"t1\") holds 2 values, expected 1"},
      {"axis past", [&] { return model(T::Int8, T::Int32, T::Int32, {2}, true, {2}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 1 (\"t1\") holds 2, outside [-2, 2) for tensor 0 (\"t0\") [2,3]"},
      {"axis below", [&] { return model(T::Int8, T::Int32, T::Int32, {2}, true, {-3}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 1 (\"t1\") holds -3, outside [-2, 2) for tensor 0 (\"t0\") [2,3]"},
      {"output keeps the dim", [&] { return model(T::Int8, T::Int32, T::Int32, {2, 1}, true, {1}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 2 (\"t2\") has shape [2,1], expected [2] (the input's without axis "
       "1)"},
      {"output of the other axis", [&] { return model(T::Int8, T::Int32, T::Int32, {3}, true, {1}); },
       "m.tflite: operator 0 (ARG_MAX): tensor 2 (\"t2\") has shape [3], expected [2] (the input's without axis "
       "1)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
