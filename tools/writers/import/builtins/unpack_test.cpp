#include "tools/writers/import/import_test_support.h"

// UNPACK of int8 activations: one etns_ops::slice_copy per output (viewed
// to the output's shape), every output against tflm_reference.h's unpack.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, UnpackCopiesEveryOutputOnEveryAxis) {
  Rng rng(88);
  for (int trial = 0; trial < 50; ++trial) {
    const auto rank = static_cast<int32_t>(rng.uniform(1, 5));
    const int32_t axis = rng.uniform32(-rank, rank - 1);
    const auto a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
    std::vector<int32_t> shape(static_cast<size_t>(rank));
    for (int32_t& d : shape) d = rng.uniform32(1, 4);
    std::vector<int32_t> piece = shape;
    piece.erase(piece.begin() + static_cast<std::ptrdiff_t>(a));
    if (piece.empty()) continue;  // rank 1: scalar outputs, covered below
    SCOPED_TRACE(shape_text(shape) + " axis " + std::to_string(axis));
    TfliteBuilder b;
    const int32_t x = b.int8(shape, 0.1F, 3);
    std::vector<int32_t> outs;
    for (int32_t i = 0; i < shape[a]; ++i) outs.push_back(b.int8(piece, 0.2F, i));
    tfl::Options o;
    o.axis = axis;
    o.num = shape[a];
    b.op(Builtin::Unpack, {x}, outs, o);
    const std::vector<int8_t> values = random_s8(rng, ref::count(shape));
    ImportedModel imported;
    const std::vector<Bytes> got = run_imported(b.finish({x}, outs), {as_bytes(values)}, &imported);
    const std::vector<std::vector<int8_t>> want = ref::unpack(shape, values, axis);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], as_bytes(want[i])) << "output " << i;
    ASSERT_EQ(imported.operators[0].outputs.size(), want.size());
  }
}

// A convolution output [1, 2, 3, 4] unpacked along W: three [1, 2, 4].
TEST(TfliteImport, UnpackOfAConvolutionOutput) {
  Rng rng(89);
  const std::vector<int32_t> nhwc = {1, 2, 3, 4};
  std::vector<int8_t> identity(16, 0);
  for (int32_t i = 0; i < 4; ++i) identity[static_cast<size_t>(i * 4 + i)] = 1;
  TfliteBuilder b;
  const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({4, 1, 1, 4}, {1.0F}, 0, identity);
  const int32_t conv = b.int8(nhwc, 0.1F, 2);
  b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
  std::vector<int32_t> outs;
  for (int32_t i = 0; i < 3; ++i) outs.push_back(b.int8({1, 2, 4}, 0.1F, 2));
  tfl::Options o;
  o.axis = -2;
  o.num = 3;
  b.op(Builtin::Unpack, {conv}, outs, o);
  const std::vector<int8_t> x = random_s8(rng, ref::count(nhwc));
  const std::vector<Bytes> got = run_imported(b.finish({in}, outs), {as_bytes(x)});
  const std::vector<std::vector<int8_t>> want = ref::unpack(nhwc, x, -2);
  ASSERT_EQ(got.size(), 3U);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(got[i], as_bytes(want[i])) << "output " << i;
}

TEST(TfliteImport, UnpackRefusalsAreOneExactLine) {
  using Edit = std::function<void(TfliteBuilder&, std::vector<int32_t>&, tfl::Options&)>;
  const auto model = [](const Edit& edit) {
    return [=] {
      TfliteBuilder b;
      const int32_t x = b.int8({2, 3}, 0.1F, 0);
      std::vector<int32_t> outs = {b.int8({3}, 0.1F, 0), b.int8({3}, 0.1F, 0)};
      tfl::Options o;
      o.axis = 0;
      o.num = 2;
      edit(b, outs, o);
      b.op(Builtin::Unpack, {x}, outs, o);
      return b.finish({x}, outs);
    };
  };
  EXPECT_EQ(refusal(model([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options&) {})()), "imported");
  expect_refusals({
      {"axis", model([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options& o) { o.axis = -3; }),
       "m.tflite: operator 0 (UNPACK): axis -3 outside [-2, 2)"},
      {"num", model([](TfliteBuilder&, std::vector<int32_t>&, tfl::Options& o) { o.num = 3; }),
       "m.tflite: operator 0 (UNPACK): num 3 with 2 outputs and 2 along axis 0 of the input (TFLM reads and writes as "
       "if all three were equal)"},
      {"shape", model([](TfliteBuilder& b, std::vector<int32_t>& outs, tfl::Options&) { b.tensor(outs[1]).shape = {1, 3}; }),
       "m.tflite: operator 0 (UNPACK): tensor 2 (\"t2\") has shape [1,3], expected [3]"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
