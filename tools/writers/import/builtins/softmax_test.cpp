#include "tools/writers/import/import_test_support.h"

// SOFTMAX.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, SoftmaxMatchesTflm) {
  struct Case {
    std::vector<int32_t> shape;
    float beta, scale;
    int32_t zp;
  };
  const Case cases[] = {
      {{3, 10}, 1.0F, 0.12F, 7},       {{1, 2, 3, 5}, 0.5F, 0.5F, -3}, {{4, 12}, 1.0F, 0.0146F, -128},
      {{2, 1, 1, 16}, 2.0F, 0.25F, 0}, {{1, 33}, 1.0F, 0.08F, 50},     {{5, 3}, 1.0F, 2.0F, 1},
  };
  Rng rng(110);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " beta " + std::to_string(c.beta) + " scale " + std::to_string(c.scale));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, c.scale, c.zp), out = b.int8(c.shape, 1.0F / 256, -128);
    tfl::Options o;
    o.beta = c.beta;
    b.op(Builtin::Softmax, {in}, {out}, o);
    const std::vector<int8_t> want =
        ref::softmax(ref::softmax_params(c.beta, c.scale), x, static_cast<size_t>(c.shape.back()));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

TEST(TfliteImport, SoftmaxRefusalsAreOneExactLine) {
  expect_refusals({
      {"softmax shapes",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 0.1F, 0), out = b.int8({4}, 1.0F / 256, -128);
         tfl::Options o;
         o.beta = 1.0F;
         b.op(Builtin::Softmax, {in}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (SOFTMAX): input and output shapes differ"},
      {"softmax output quantisation",
       [] {
         tfl::Options o;
         o.beta = 1.0F;
         return one_op(Builtin::Softmax, {{1, 4}, {1, 4}}, o);
       },
       "m.tflite: operator 0 (SOFTMAX): output quantisation must be scale 1/256, zero point -128 (TFLite Micro's int8 "
       "softmax)"},
      {"softmax beta too small",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4}, 1.0e-9F, 0), out = b.int8({1, 4}, 1.0F / 256, -128);
         tfl::Options o;
         o.beta = 1.0F;
         b.op(Builtin::Softmax, {in}, {out}, o);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (SOFTMAX): softmax beta * input scale * 2^26 is below 1 (TFLM needs a left shift)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
