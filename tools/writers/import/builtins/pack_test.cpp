#include <cstring>

#include "tools/writers/import/import_test_support.h"

// PACK: of values known at import folded, of int8 activations one
// etns_ops::concatenate; against tflm_reference.h's pack.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, PackFoldsOnEveryAxisIncludingNegativeOnes) {
  Rng rng(83);
  for (int trial = 0; trial < 60; ++trial) {
    const auto rank = static_cast<size_t>(rng.uniform(0, 3));
    std::vector<int32_t> in_shape(rank);
    for (int32_t& d : in_shape) d = rng.uniform32(1, 4);
    const auto count = static_cast<int32_t>(rng.uniform(1, 4));
    const auto out_rank = static_cast<int32_t>(rank) + 1;
    const int32_t axis = rng.uniform32(-out_rank, out_rank - 1);
    std::vector<int32_t> out_shape = in_shape;
    out_shape.insert(out_shape.begin() + (axis < 0 ? axis + out_rank : axis), count);
    SCOPED_TRACE(shape_text(in_shape) + " x" + std::to_string(count) + " axis " + std::to_string(axis));
    TfliteBuilder b;
    const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({6}, 0.1F, 0);
    std::vector<int32_t> ins;
    std::vector<std::vector<int32_t>> values;
    for (int32_t k = 0; k < count; ++k) {
      std::vector<int32_t> v(ref::count(in_shape));
      for (int32_t& e : v) e = rng.uniform32(-1000, 1000);
      ins.push_back(b.int32_constant(in_shape, v));
      values.push_back(v);
    }
    const int32_t packed = b.int8(out_shape, 0.1F, 0);
    b.tensor(packed).type = tfl::TensorType::Int32;
    tfl::Options o;
    o.values_count = count;
    o.axis = axis;
    b.op(Builtin::Pack, ins, {packed}, o);
    b.op(Builtin::Reshape, {x}, {y});
    ImportedModel imported;
    run_imported(b.finish({x}, {y}), {Bytes(6, 1)}, &imported);
    EXPECT_TRUE(imported.operators[0].folded);
    EXPECT_EQ(imported.operators[0].folded_value, as_bytes(ref::pack(values, out_shape, axis)));
  }
}

// Int8 model inputs (and a convolution's channels_last output) packed on
// every axis, negative ones and the new last one too.
TEST(TfliteImport, PackOfActivationsIsOneConcatenate) {
  Rng rng(84);
  for (int trial = 0; trial < 50; ++trial) {
    const auto rank = static_cast<size_t>(rng.uniform(1, 3));
    std::vector<int32_t> in_shape(rank);
    for (int32_t& d : in_shape) d = rng.uniform32(1, 4);
    const auto count = static_cast<int32_t>(rng.uniform(1, 10));
    const auto out_rank = static_cast<int32_t>(rank) + 1;
    const int32_t axis = rng.uniform32(-out_rank, out_rank - 1);
    std::vector<int32_t> out_shape = in_shape;
    out_shape.insert(out_shape.begin() + (axis < 0 ? axis + out_rank : axis), count);
    SCOPED_TRACE(shape_text(in_shape) + " x" + std::to_string(count) + " axis " + std::to_string(axis));
    TfliteBuilder b;
    std::vector<int32_t> ins;
    std::vector<std::vector<int8_t>> values;
    std::vector<Bytes> inputs;
    for (int32_t k = 0; k < count; ++k) {
      ins.push_back(b.int8(in_shape, 0.1F * static_cast<float>(k + 1), k));
      values.push_back(random_s8(rng, ref::count(in_shape)));
      inputs.push_back(as_bytes(values.back()));
    }
    const int32_t y = b.int8(out_shape, 0.3F, 1);
    tfl::Options o;
    o.values_count = count;
    o.axis = axis;
    b.op(Builtin::Pack, ins, {y}, o);
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish(ins, {y}), inputs, &imported)[0], as_bytes(ref::pack(values, out_shape, axis)));
    EXPECT_EQ(imported.operators[0].became, "etns_ops::concatenate");
  }
  // A convolution output [1, 2, 2, 3] packed with a model input on axis 1.
  const std::vector<int32_t> nhwc = {1, 2, 2, 3};
  std::vector<int8_t> identity(9, 0);
  for (int32_t i = 0; i < 3; ++i) identity[static_cast<size_t>(i * 3 + i)] = 1;
  TfliteBuilder b;
  const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({3, 1, 1, 3}, {1.0F}, 0, identity);
  const int32_t conv = b.int8(nhwc, 0.1F, 2), other = b.int8(nhwc, 0.1F, 2), y = b.int8({1, 2, 2, 2, 3}, 0.1F, 2);
  b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
  tfl::Options o;
  o.values_count = 2;
  o.axis = 1;
  b.op(Builtin::Pack, {conv, other}, {y}, o);
  const std::vector<int8_t> x = random_s8(rng, 12), z = random_s8(rng, 12);
  EXPECT_EQ(run_imported(b.finish({in, other}, {y}), {as_bytes(x), as_bytes(z)})[0],
            as_bytes(ref::pack<int8_t>({x, z}, {1, 2, 2, 2, 3}, 1)));
}

TEST(TfliteImport, PackRefusalsAreOneExactLine) {
  const auto pack = [](const std::function<void(TfliteBuilder&, std::vector<int32_t>&, tfl::Options&, int32_t&)>& edit) {
    TfliteBuilder b;
    std::vector<int32_t> in = {b.int32_constant({2}, {1, 2}), b.int32_constant({2}, {3, 4})};
    int32_t y = b.int8({2, 2}, 0.1F, 0);
    b.tensor(y).type = tfl::TensorType::Int32;
    const int32_t x = b.int8({2, 3}, 0.1F, 0), z = b.int8({6}, 0.1F, 0);
    tfl::Options o;
    o.values_count = 2;
    edit(b, in, o, y);
    b.op(Builtin::Pack, in, {y}, o);
    b.op(Builtin::Reshape, {x}, {z});
    return b.finish({x}, {z});
  };
  expect_refusals({
      {"values_count", [&] { return pack([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options& o, int32_t&) { o.values_count = 3; }); },
       "m.tflite: operator 0 (PACK): values_count 3, but 2 inputs"},
      {"axis", [&] { return pack([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options& o, int32_t&) { o.axis = 2; }); },
       "m.tflite: operator 0 (PACK): axis 2 outside [-2, 2)"},
      {"shapes differ",
       [&] {
         return pack([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&, int32_t&) {
           in[1] = b.int32_constant({1, 2}, {3, 4});
         });
       },
       "m.tflite: operator 0 (PACK): tensor 5 (\"t5\") has shape [1,2], input 0 has [2]"},
      {"output shape",
       [&] {
         return pack([](TfliteBuilder& b, std::vector<int32_t>&, tfl::Options&, int32_t&) {
           b.tensor(2).shape = {4};
         });
       },
       "m.tflite: operator 0 (PACK): tensor 2 (\"t2\") has shape [4], expected [2,2]"},
      {"an int32 activation",
       [&] {
         return pack([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&, int32_t&) {
           b.tensor(in[1]).data.clear();
           b.tensor(in[1]).buffer = 0;
         });
       },
       "m.tflite: operator 0 (PACK): tensor 2 (\"t2\") is int32: PACK of activations is imported on int8 tensors "
       "(etns_ops::concatenate)"},
  });
  expect_refusals({{"eleven activations",
                    [] {
                      TfliteBuilder b;
                      std::vector<int32_t> in;
                      for (int k = 0; k < 11; ++k) in.push_back(b.int8({2}, 0.1F, 0));
                      const int32_t y = b.int8({11, 2}, 0.1F, 0);
                      tfl::Options o;
                      o.values_count = 11;
                      b.op(Builtin::Pack, in, {y}, o);
                      return b.finish(in, {y});
                    },
                    "m.tflite: operator 0 (PACK): 11 inputs: etns_ops::concatenate joins at most 10 activations"}});
}

}  // namespace
}  // namespace etns::tools::import_test
