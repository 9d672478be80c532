#include "tools/writers/import/import_test_support.h"

// SPACE_TO_DEPTH and DEPTH_TO_SPACE.
namespace etns::tools::import_test {
namespace {

tfl::Options block(int32_t b) {
  tfl::Options o;
  o.block_size = b;
  return o;
}

struct BlockCase {
  std::vector<int32_t> shape;  // the input's, NHWC
  int32_t block;
};

TEST(TfliteImport, SpaceToDepthMatchesTflm) {
  const BlockCase cases[] = {
      {{1, 4, 4, 1}, 2}, {{1, 4, 6, 3}, 2}, {{3, 2, 4, 5}, 2}, {{1, 6, 9, 2}, 3},
      {{2, 3, 6, 4}, 3}, {{2, 5, 3, 2}, 1}, {{1, 2, 2, 7}, 2}, {{2, 8, 4, 16}, 2},
  };
  Rng rng(261);
  for (const BlockCase& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " block " + std::to_string(c.block));
    const std::vector<int32_t> os = {c.shape[0], c.shape[1] / c.block, c.shape[2] / c.block,
                                     c.shape[3] * c.block * c.block};
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.1F, -3), out = b.int8(os, 0.1F, -3);
    b.op(Builtin::SpaceToDepth, {in}, {out}, block(c.block));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::space_to_depth(x, c.shape, c.block)));
  }
}

TEST(TfliteImport, DepthToSpaceMatchesTflm) {
  const BlockCase cases[] = {
      {{1, 1, 1, 4}, 2}, {{1, 2, 3, 12}, 2}, {{3, 2, 2, 8}, 2}, {{1, 2, 3, 18}, 3},
      {{2, 3, 1, 9}, 3}, {{2, 2, 3, 5}, 1}, {{2, 4, 2, 64}, 2},
  };
  Rng rng(53);
  for (const BlockCase& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " block " + std::to_string(c.block));
    const std::vector<int32_t> os = {c.shape[0], c.shape[1] * c.block, c.shape[2] * c.block,
                                     c.shape[3] / (c.block * c.block)};
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.25F, 7), out = b.int8(os, 0.25F, 7);
    b.op(Builtin::DepthToSpace, {in}, {out}, block(c.block));
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::depth_to_space(x, c.shape, c.block)));
  }
}

// The two undo each other: a chain of both is the identity on the bytes, and
// an operator reading a tensor the other wrote gets it in the form it needs.
TEST(TfliteImport, SpaceToDepthThenDepthToSpaceIsTheIdentity) {
  Rng rng(7);
  const std::vector<int32_t> shape = {2, 6, 6, 3};
  const std::vector<int8_t> x = random_s8(rng, ref::count(shape));
  TfliteBuilder b;
  const int32_t in = b.int8(shape, 0.5F, 0), mid = b.int8({2, 2, 2, 27}, 0.5F, 0), out = b.int8(shape, 0.5F, 0);
  b.op(Builtin::SpaceToDepth, {in}, {mid}, block(3));
  b.op(Builtin::DepthToSpace, {mid}, {out}, block(3));
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(x));
}

TEST(TfliteImport, SpaceToDepthAndDepthToSpaceRefusalsAreOneExactLine) {
  expect_refusals({
      {"SPACE_TO_DEPTH height", [] { return one_op(Builtin::SpaceToDepth, {{1, 5, 4, 2}, {1, 2, 2, 8}}, block(2)); },
       "m.tflite: operator 0 (SPACE_TO_DEPTH): tensor 0 (\"t0\") has height 5 and width 4: TFLM needs both multiples "
       "of block_size 2"},
      {"SPACE_TO_DEPTH width", [] { return one_op(Builtin::SpaceToDepth, {{1, 3, 4, 2}, {1, 1, 1, 18}}, block(3)); },
       "m.tflite: operator 0 (SPACE_TO_DEPTH): tensor 0 (\"t0\") has height 3 and width 4: TFLM needs both multiples "
       "of block_size 3"},
      {"SPACE_TO_DEPTH block 0", [] { return one_op(Builtin::SpaceToDepth, {{1, 4, 4, 2}, {1, 4, 4, 2}}, block(0)); },
       "m.tflite: operator 0 (SPACE_TO_DEPTH): block_size 0, TFLM takes a positive one"},
      {"SPACE_TO_DEPTH output", [] { return one_op(Builtin::SpaceToDepth, {{1, 4, 4, 2}, {1, 2, 2, 4}}, block(2)); },
       "m.tflite: operator 0 (SPACE_TO_DEPTH): tensor 1 (\"t1\") has shape [1,2,2,4], TFLM computes [1,2,2,8]"},
      {"SPACE_TO_DEPTH rank", [] { return one_op(Builtin::SpaceToDepth, {{4, 4, 2}, {2, 2, 8}}, block(2)); },
       "m.tflite: operator 0 (SPACE_TO_DEPTH): tensor 0 (\"t0\") has rank 3, expected 4"},
      {"SPACE_TO_DEPTH float32",
       [] {
         TfliteBuilder b;
         const int32_t in = b.float32({1, 2, 2, 1}), out = b.float32({1, 1, 1, 4});
         b.op(Builtin::SpaceToDepth, {in}, {out}, block(2));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (SPACE_TO_DEPTH): tensor 0 (\"t0\") is float32: int8 is imported (TFLM also takes "
       "float32, with input and output of one type)"},
      {"DEPTH_TO_SPACE depth", [] { return one_op(Builtin::DepthToSpace, {{1, 2, 2, 6}, {1, 4, 4, 1}}, block(2)); },
       "m.tflite: operator 0 (DEPTH_TO_SPACE): tensor 0 (\"t0\") has depth 6: TFLM needs a multiple of block_size^2 "
       "4"},
      {"DEPTH_TO_SPACE block -1", [] { return one_op(Builtin::DepthToSpace, {{1, 2, 2, 4}, {1, 2, 2, 4}}, block(-1)); },
       "m.tflite: operator 0 (DEPTH_TO_SPACE): block_size -1, TFLM takes a positive one"},
      {"DEPTH_TO_SPACE output", [] { return one_op(Builtin::DepthToSpace, {{2, 2, 2, 9}, {1, 6, 6, 1}}, block(3)); },
       "m.tflite: operator 0 (DEPTH_TO_SPACE): tensor 1 (\"t1\") has shape [1,6,6,1], TFLM computes [2,6,6,1]"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
