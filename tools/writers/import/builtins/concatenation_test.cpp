#include "tools/writers/import/import_test_support.h"

// CONCATENATION of int8 activations: against tflm_reference.h's
// concatenation (the codes copied, whatever each input's grid).
namespace etns::tools::import_test {
namespace {

// 1 to 5 model inputs of rank 1 to 4, each its own size along the axis and
// its own grid (TFLM copies the codes), on every axis, negative ones too.
TEST(TfliteImport, ConcatenationCopiesTheCodesOnEveryAxis) {
  Rng rng(2);
  for (int trial = 0; trial < 80; ++trial) {
    const auto rank = static_cast<int32_t>(rng.uniform(1, 4));
    const int32_t axis = rng.uniform32(-rank, rank - 1);
    const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
    std::vector<int32_t> base(static_cast<size_t>(rank));
    for (int32_t& d : base) d = rng.uniform32(1, 4);
    const auto count = static_cast<size_t>(rng.uniform(1, 5));
    std::vector<std::vector<int32_t>> shapes;
    std::vector<std::vector<int8_t>> values;
    std::vector<int32_t> out_shape = base;
    out_shape[a] = 0;
    TfliteBuilder b;
    std::vector<int32_t> ins;
    for (size_t i = 0; i < count; ++i) {
      std::vector<int32_t> s = base;
      s[a] = rng.uniform32(1, 3);
      out_shape[a] += s[a];
      shapes.push_back(s);
      values.push_back(random_s8(rng, ref::count(s)));
      ins.push_back(b.int8(s, 0.05F * static_cast<float>(i + 1), rng.uniform32(-20, 20)));
    }
    SCOPED_TRACE(shape_text(out_shape) + " from " + std::to_string(count) + ", axis " + std::to_string(axis));
    const int32_t out = b.int8(out_shape, 0.1F, 3);
    tfl::Options o;
    o.axis = axis;
    b.op(Builtin::Concatenation, ins, {out}, o);
    std::vector<Bytes> inputs;
    for (const std::vector<int8_t>& v : values) inputs.push_back(as_bytes(v));
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish(ins, {out}), inputs, &imported)[0],
              as_bytes(ref::concatenation(values, shapes, axis)));
    EXPECT_EQ(imported.operators[0].instructions, 1);
    EXPECT_EQ(imported.operators[0].became, "etns_ops::concatenate");
  }
}

// A convolution's [1, H, W, C] output (channels_last) beside a model input,
// along C, W and N: the concatenate works in the first input's form. A
// [1, 1, 1, C] or [1, H, W, 1] output (its channels_last form in the default
// dim order, same bytes) is concatenated in its stored form.
TEST(TfliteImport, ConcatenationOfAConvolutionOutputKeepsTheNhwcBytes) {
  Rng rng(22);
  for (const std::vector<int32_t>& nhwc : {std::vector<int32_t>{1, 3, 2, 4}, {1, 1, 1, 4}}) {
    for (const int32_t axis : {-1, 2, 0}) {
      SCOPED_TRACE(shape_text(nhwc) + " axis " + std::to_string(axis));
      std::vector<int32_t> other = nhwc, out_shape = nhwc;
      const size_t a = static_cast<size_t>(axis < 0 ? axis + 4 : axis);
      other[a] = 2;
      out_shape[a] += 2;
      const std::vector<int8_t> x = random_s8(rng, ref::count(nhwc)), z = random_s8(rng, ref::count(other));
      std::vector<int8_t> identity(16, 0);
      for (int32_t i = 0; i < 4; ++i) identity[static_cast<size_t>(i * 4 + i)] = 1;
      TfliteBuilder b;
      const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({4, 1, 1, 4}, {1.0F}, 0, identity);
      const int32_t conv = b.int8(nhwc, 0.1F, 2), in2 = b.int8(other, 0.7F, -9);
      b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
      const int32_t out = b.int8(out_shape, 0.1F, 2);
      tfl::Options o;
      o.axis = axis;
      b.op(Builtin::Concatenation, {conv, in2}, {out}, o);
      EXPECT_EQ(run_imported(b.finish({in, in2}, {out}), {as_bytes(x), as_bytes(z)})[0],
                as_bytes(ref::concatenation<int8_t>({x, z}, {nhwc, other}, axis)));
    }
  }
}

TEST(TfliteImport, ConcatenationRefusalsAreOneExactLine) {
  using Edit = std::function<void(TfliteBuilder&, std::vector<int32_t>&, tfl::Options&)>;
  const auto model = [](const Edit& edit) {
    return [=] {
      TfliteBuilder b;
      std::vector<int32_t> in = {b.int8({2, 3}, 0.1F, 0), b.int8({2, 1}, 0.2F, 1)};
      const int32_t y = b.int8({2, 4}, 0.1F, 0);
      tfl::Options o;
      o.axis = -1;
      edit(b, in, o);
      b.op(Builtin::Concatenation, in, {y}, o);
      return b.finish(in, {y});
    };
  };
  expect_refusals({
      {"activation", model([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options& o) { o.activation = Activation::Relu; }),
       "m.tflite: operator 0 (CONCATENATION): fused activation RELU (TFLM refuses any)"},
      {"axis", model([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options& o) { o.axis = -3; }),
       "m.tflite: operator 0 (CONCATENATION): axis -3 outside [-2, 2)"},
      {"other dims",
       model([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) { b.tensor(in[1]).shape = {1, 1}; }),
       "m.tflite: operator 0 (CONCATENATION): tensor 1 (\"t1\") has shape [1,1], the output [2,4] (all dims but axis 1 "
       "must be equal)"},
      {"sum", model([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) { b.tensor(in[1]).shape = {2, 2}; }),
       "m.tflite: operator 0 (CONCATENATION): the inputs have 5 along axis 1, the output 4"},
      {"eleven inputs",
       model([](TfliteBuilder&, std::vector<int32_t>& in, tfl::Options&) {
         for (int i = 0; i < 9; ++i) in.push_back(in[1]);
       }),
       "m.tflite: operator 0 (CONCATENATION): 11 inputs; TFLite Micro's CONCATENATION takes 1 to 10"},
      {"float input",
       model([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) {
         b.tensor(in[1]).type = tfl::TensorType::Float32;
         b.tensor(in[1]).has_quantization = false;
       }),
       "m.tflite: operator 0 (CONCATENATION): tensor 1 (\"t1\") is float32, expected int8"},
  });
  expect_refusals({{"rank 5",
                    [] {
                      TfliteBuilder b;
                      const int32_t x = b.int8({1, 1, 1, 2, 3}, 0.1F, 0), y = b.int8({1, 1, 1, 4, 3}, 0.1F, 0);
                      b.op(Builtin::Concatenation, {x, x}, {y});
                      return b.finish({x}, {y});
                    },
                    "m.tflite: operator 0 (CONCATENATION): rank 5 (TFLM takes 1 to 4)"}});
}

}  // namespace
}  // namespace etns::tools::import_test
