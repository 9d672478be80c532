#include "tools/writers/import/import_test_support.h"

// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND.
namespace etns::tools::import_test {
namespace {

struct BatchCase {
  std::vector<int32_t> shape;  // the input's, NHWC or NHC
  std::vector<int32_t> block;  // one per spatial dim
  std::vector<int32_t> pads;   // paddings or crops: before, after per spatial dim
};

// NHC as NH1C, its block and pads/crops widened with a width of 1 and 0s.
std::vector<int32_t> as4(const std::vector<int32_t>& s) {
  return s.size() == 4 ? s : std::vector<int32_t>{s[0], s[1], 1, s[2]};
}
std::vector<int32_t> block2(const std::vector<int32_t>& b) {
  return b.size() == 2 ? b : std::vector<int32_t>{b[0], 1};
}
std::vector<int32_t> pads4(const std::vector<int32_t>& p) {
  return p.size() == 4 ? p : std::vector<int32_t>{p[0], p[1], 0, 0};
}
std::vector<int32_t> as_rank(const std::vector<int32_t>& s4, size_t rank) {
  return rank == 4 ? s4 : std::vector<int32_t>{s4[0], s4[1], s4[3]};
}
std::string describe(const BatchCase& c) {
  return shape_text(c.shape) + " block " + shape_text(c.block) + " pads " + shape_text(c.pads);
}
std::vector<int32_t> s2b_shape(const BatchCase& c) {
  const std::vector<int32_t> s = as4(c.shape), b = block2(c.block), p = pads4(c.pads);
  return as_rank({s[0] * b[0] * b[1], (s[1] + p[0] + p[1]) / b[0], (s[2] + p[2] + p[3]) / b[1], s[3]}, c.shape.size());
}
std::vector<int32_t> b2s_shape(const BatchCase& c) {
  const std::vector<int32_t> s = as4(c.shape), b = block2(c.block), p = pads4(c.pads);
  return as_rank({s[0] / (b[0] * b[1]), s[1] * b[0] - p[0] - p[1], s[2] * b[1] - p[2] - p[3], s[3]}, c.shape.size());
}
int32_t spatial(const BatchCase& c) { return static_cast<int32_t>(c.shape.size()) - 2; }

TEST(TfliteImport, SpaceToBatchNdMatchesTflm) {
  const BatchCase cases[] = {
      {{1, 4, 4, 1}, {2, 2}, {0, 0, 0, 0}},  {{1, 4, 6, 3}, {2, 2}, {1, 1, 0, 2}},
      {{2, 5, 3, 16}, {3, 1}, {1, 0, 0, 0}}, {{3, 2, 4, 3}, {2, 2}, {0, 2, 1, 1}},
      {{2, 3, 5, 1}, {1, 3}, {0, 0, 2, 2}},  {{1, 1, 1, 16}, {2, 2}, {1, 0, 0, 1}},
      {{2, 4, 4, 3}, {1, 1}, {0, 0, 0, 0}},  {{2, 6, 4, 3}, {3, 2}, {0, 0, 0, 0}},
      {{2, 5, 3}, {2}, {1, 0}},              {{1, 6, 16}, {3}, {0, 0}},
  };
  Rng rng(38);
  for (const BatchCase& c : cases) {
    SCOPED_TRACE(describe(c));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.2F, -7), out = b.int8(s2b_shape(c), 0.2F, -7);
    const int32_t bt = b.int32_constant({spatial(c)}, c.block), pt = b.int32_constant({spatial(c), 2}, c.pads);
    b.op(Builtin::SpaceToBatchNd, {in, bt, pt}, {out});
    const std::vector<int8_t> want = ref::space_to_batch_nd(x, as4(c.shape), block2(c.block), pads4(c.pads), -7);
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

TEST(TfliteImport, BatchToSpaceNdMatchesTflm) {
  const BatchCase cases[] = {
      {{4, 2, 2, 1}, {2, 2}, {0, 0, 0, 0}},  {{8, 3, 2, 3}, {2, 2}, {1, 0, 0, 1}},
      {{6, 2, 3, 16}, {3, 1}, {1, 1, 0, 0}}, {{3, 2, 2, 3}, {1, 3}, {0, 0, 2, 1}},
      {{2, 2, 2, 3}, {1, 1}, {0, 0, 0, 0}},  {{12, 2, 2, 1}, {3, 2}, {2, 0, 1, 2}},
      {{4, 3, 5}, {2}, {0, 1}},              {{3, 2, 16}, {3}, {0, 0}},
  };
  Rng rng(37);
  for (const BatchCase& c : cases) {
    SCOPED_TRACE(describe(c));
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.5F, 3), out = b.int8(b2s_shape(c), 0.5F, 3);
    const int32_t bt = b.int32_constant({spatial(c)}, c.block), ct = b.int32_constant({spatial(c), 2}, c.pads);
    b.op(Builtin::BatchToSpaceNd, {in, bt, ct}, {out});
    const std::vector<int8_t> want = ref::batch_to_space_nd(x, as4(c.shape), block2(c.block), pads4(c.pads));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));
  }
}

// BATCH_TO_SPACE_ND with the block and pads as crops undoes SPACE_TO_BATCH_ND.
TEST(TfliteImport, SpaceToBatchNdThenBatchToSpaceNdIsTheIdentity) {
  Rng rng(3738);
  const BatchCase c = {{2, 5, 7, 3}, {2, 3}, {1, 0, 1, 1}};
  const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
  TfliteBuilder b;
  const int32_t in = b.int8(c.shape, 0.5F, 11), mid = b.int8(s2b_shape(c), 0.5F, 11), out = b.int8(c.shape, 0.5F, 11);
  const int32_t bt = b.int32_constant({2}, c.block), pt = b.int32_constant({2, 2}, c.pads);
  b.op(Builtin::SpaceToBatchNd, {in, bt, pt}, {mid});
  b.op(Builtin::BatchToSpaceNd, {mid, bt, pt}, {out});
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(x));
}

// The older converters' dilated convolution: SPACE_TO_BATCH_ND, a VALID
// CONV_2D, BATCH_TO_SPACE_ND. The border is the input zero point (-5), so
// the chain is also the 3x3 convolution of dilation 2 with SAME padding.
TEST(TfliteImport, DilatedConvolutionPatternMatchesTflm) {
  Rng rng(2);
  const std::vector<int32_t> is{1, 7, 7, 3}, fs{8, 3, 3, 3}, mid{4, 6, 6, 3}, conv_out{4, 4, 4, 8}, os{1, 7, 7, 8};
  const std::vector<int32_t> block{2, 2}, pads{2, 3, 2, 3}, crops{0, 1, 0, 1};
  const float s_in = 0.05F, s_out = 0.2F;
  std::vector<float> scales;
  for (int32_t o = 0; o < 8; ++o) scales.push_back(0.004F + 0.001F * static_cast<float>(o));
  const std::vector<int8_t> x = random_s8(rng, ref::count(is)), w = random_s8(rng, ref::count(fs));
  const std::vector<int32_t> bias = random_bias(rng, 8, 3000);
  TfliteBuilder b;
  const int32_t in = b.int8(is, s_in, -5), batched = b.int8(mid, s_in, -5);
  const int32_t bt = b.int32_constant({2}, block), pt = b.int32_constant({2, 2}, pads), ct = b.int32_constant({2, 2}, crops);
  const int32_t wt = b.weights(fs, scales, 0, w), biast = b.int32_constant({8}, bias);
  const int32_t convolved = b.int8(conv_out, s_out, 6), out = b.int8(os, s_out, 6);
  b.op(Builtin::SpaceToBatchNd, {in, bt, pt}, {batched});
  b.op(Builtin::Conv2d, {batched, wt, biast}, {convolved}, conv_options(Padding::Valid, 1, 1, Activation::Relu));
  b.op(Builtin::BatchToSpaceNd, {convolved, bt, ct}, {out});

  ref::Conv p;
  p.input_shape = mid;
  p.filter_shape = fs;
  p.output_shape = conv_out;
  p.input_offset = 5;
  p.output_offset = 6;
  p.range = ref::activation_range(Activation::Relu, s_out, 6);
  p.multipliers = ref::conv_multipliers(s_in, scales, s_out);
  const std::vector<int8_t> want =
      ref::batch_to_space_nd(ref::conv(p, ref::space_to_batch_nd(x, is, block, pads, -5), w, bias), conv_out, block, crops);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(want));

  ref::Conv dilated = p;
  dilated.input_shape = is;
  dilated.output_shape = os;
  dilated.dilation_h = dilated.dilation_w = 2;
  dilated.pad_h = dilated.pad_w = 2;
  EXPECT_EQ(want, ref::conv(dilated, x, w, bias));
}

// block_shape and paddings/crops as constants appended to one_op's inputs.
std::function<void(TfliteBuilder&, std::vector<int32_t>&)> block_and(std::vector<int32_t> block,
                                                                     std::vector<int32_t> pads) {
  return [block, pads](TfliteBuilder& b, std::vector<int32_t>& ins) {
    const int32_t n = static_cast<int32_t>(block.size());
    ins.push_back(b.int32_constant({n}, block));
    ins.push_back(b.int32_constant({n, 2}, pads));
  };
}

TEST(TfliteImport, SpaceToBatchNdAndBatchToSpaceNdRefusalsAreOneExactLine) {
  expect_refusals({
      {"S2B dynamic block",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 4, 4, 1}, 0.1F, 0), block = b.int8({2}, 0.1F, 0);
         const int32_t pads = b.int32_constant({2, 2}, {0, 0, 0, 0}), out = b.int8({4, 2, 2, 1}, 0.1F, 0);
         b.op(Builtin::SpaceToBatchNd, {in, block, pads}, {out});
         return b.finish({in, block}, {out});
       },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): block_shape and paddings must be constant (etns imports no "
       "dynamic shapes)"},
      {"S2B negative padding",
       [] { return one_op(Builtin::SpaceToBatchNd, {{1, 4, 4, 1}, {4, 2, 1, 1}}, {}, block_and({2, 2}, {0, 0, 0, -2})); },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): paddings -2, TFLM takes none negative"},
      {"S2B block 0",
       [] { return one_op(Builtin::SpaceToBatchNd, {{1, 4, 4, 1}, {1, 4, 4, 1}}, {}, block_and({0, 2}, {0, 0, 0, 0})); },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): block_shape 0, TFLM takes positive ones"},
      {"S2B not divisible",
       [] { return one_op(Builtin::SpaceToBatchNd, {{1, 5, 4, 1}, {4, 2, 2, 1}}, {}, block_and({2, 2}, {0, 0, 0, 0})); },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): padded height 5 and width 4: TFLM needs multiples of block_shape 2 "
       "and 2"},
      {"S2B output",
       [] { return one_op(Builtin::SpaceToBatchNd, {{2, 4, 4, 1}, {4, 2, 2, 1}}, {}, block_and({2, 2}, {0, 0, 0, 0})); },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): tensor 1 (\"t1\") has shape [4,2,2,1], TFLM computes [8,2,2,1]"},
      {"S2B paddings count",
       [] {
         return one_op(Builtin::SpaceToBatchNd, {{1, 4, 4, 1}, {4, 2, 2, 1}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& ins) {
           ins.push_back(b.int32_constant({2}, {2, 2}));
           ins.push_back(b.int32_constant({1, 2}, {0, 0}));
         });
       },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): tensor 3 (\"t3\") holds 2 values, expected 4"},
      {"S2B rank 2",
       [] { return one_op(Builtin::SpaceToBatchNd, {{4, 4}, {4, 4}}, {}, block_and({1}, {0, 0})); },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): tensor 0 (\"t0\") has rank 2, TFLM takes 3 (NHC) or 4 (NHWC)"},
      {"S2B float32",
       [] {
         TfliteBuilder b;
         const int32_t in = b.float32({1, 2, 2, 1}), out = b.float32({4, 1, 1, 1});
         const int32_t bt = b.int32_constant({2}, {2, 2}), pt = b.int32_constant({2, 2}, {0, 0, 0, 0});
         b.op(Builtin::SpaceToBatchNd, {in, bt, pt}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (SPACE_TO_BATCH_ND): tensor 0 (\"t0\") is float32: int8 is imported (TFLM also takes "
       "float32, with input and output of one type)"},
      {"B2S dynamic crops",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({4, 2, 2, 1}, 0.1F, 0), crops = b.int8({2, 2}, 0.1F, 0);
         const int32_t block = b.int32_constant({2}, {2, 2}), out = b.int8({1, 4, 4, 1}, 0.1F, 0);
         b.op(Builtin::BatchToSpaceNd, {in, block, crops}, {out});
         return b.finish({in, crops}, {out});
       },
       "m.tflite: operator 0 (BATCH_TO_SPACE_ND): block_shape and crops must be constant (etns imports no dynamic "
       "shapes)"},
      {"B2S negative crop",
       [] { return one_op(Builtin::BatchToSpaceNd, {{4, 2, 2, 1}, {1, 4, 5, 1}}, {}, block_and({2, 2}, {0, 0, -1, 0})); },
       "m.tflite: operator 0 (BATCH_TO_SPACE_ND): crops -1, TFLM takes none negative"},
      {"B2S batch",
       [] { return one_op(Builtin::BatchToSpaceNd, {{6, 2, 2, 1}, {1, 4, 4, 1}}, {}, block_and({2, 2}, {0, 0, 0, 0})); },
       "m.tflite: operator 0 (BATCH_TO_SPACE_ND): tensor 0 (\"t0\") has batch 6: TFLM needs a multiple of the "
       "block's 4 elements"},
      {"B2S crops too big",
       [] { return one_op(Builtin::BatchToSpaceNd, {{4, 2, 2, 1}, {1, 1, 4, 1}}, {}, block_and({2, 2}, {3, 2, 0, 0})); },
       "m.tflite: operator 0 (BATCH_TO_SPACE_ND): crops 3+2 and 0+0 exceed the 4x4 result"},
      {"B2S output",
       [] { return one_op(Builtin::BatchToSpaceNd, {{4, 2, 2, 1}, {1, 4, 4, 1}}, {}, block_and({2, 2}, {1, 0, 0, 0})); },
       "m.tflite: operator 0 (BATCH_TO_SPACE_ND): tensor 1 (\"t1\") has shape [1,4,4,1], TFLM computes [1,3,4,1]"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
