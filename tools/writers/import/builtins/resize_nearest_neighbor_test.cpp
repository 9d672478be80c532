#include "tools/writers/import/import_test_support.h"

// RESIZE_NEAREST_NEIGHBOR.
namespace etns::tools::import_test {
namespace {

tfl::Options flags(bool align_corners, bool half_pixel_centers) {
  tfl::Options o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel_centers;
  return o;
}

tfl::Model resize_model(const std::vector<int32_t>& is, int32_t out_h, int32_t out_w, const tfl::Options& o,
                        int32_t* in_out = nullptr) {
  TfliteBuilder b;
  const int32_t in = b.int8(is, 0.3F, 2), size = b.int32_constant({2}, {out_h, out_w});
  const int32_t out = b.int8({is[0], out_h, out_w, is[3]}, 0.3F, 2);
  b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, o);
  if (in_out != nullptr) *in_out = in;
  return b.finish({in}, {out});
}

// TFLM's own test vector (resize_nearest_neighbor_test.cc,
// TwoDimensionalResizeWithTwoBatchesInt8): 2x2 to 3x3, two batches.
TEST(TfliteImport, ResizeNearestNeighborGivesTflmsTestVector) {
  const std::vector<int8_t> x = {3, 6, 9, -12, -4, 10, 10, 16};
  const std::vector<int8_t> want = {3, 3, 6, 3, 3, 6, 9, 9, -12, -4, -4, 10, -4, -4, 10, 10, 10, 16};
  EXPECT_EQ(run_one(resize_model({2, 2, 2, 1}, 3, 3, flags(false, false)), {as_bytes(x)}), as_bytes(want));
  EXPECT_EQ(ref::resize_nearest_neighbor(x, {2, 2, 2, 1}, 3, 3, false, false), want);
}

TEST(TfliteImport, ResizeNearestNeighborMatchesTflmUpAndDown) {
  struct Case {
    std::vector<int32_t> shape;  // the input's, NHWC
    int32_t out_h, out_w;
  };
  const Case cases[] = {
      {{1, 2, 2, 1}, 3, 3},   {{2, 3, 4, 5}, 6, 8},  {{1, 5, 7, 3}, 2, 3},  {{3, 4, 4, 2}, 7, 1},
      {{1, 1, 1, 16}, 4, 5},  {{2, 6, 5, 4}, 6, 5},  {{1, 9, 4, 8}, 4, 9},  {{1, 7, 3, 33}, 11, 2},
      {{2, 12, 12, 3}, 5, 7}, {{1, 3, 2, 1}, 1, 1},
  };
  Rng rng(97);
  for (const Case& c : cases) {
    for (const bool align : {false, true}) {
      for (const bool half : {false, true}) {
        SCOPED_TRACE(shape_text(c.shape) + " to " + std::to_string(c.out_h) + "x" + std::to_string(c.out_w) +
                     (align ? " align_corners" : "") + (half ? " half_pixel_centers" : ""));
        const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
        EXPECT_EQ(run_one(resize_model(c.shape, c.out_h, c.out_w, flags(align, half)), {as_bytes(x)}),
                  as_bytes(ref::resize_nearest_neighbor(x, c.shape, c.out_h, c.out_w, align, half)));
      }
    }
  }
}

// The rounding choices differ: 2 to 3 picks rows 0, 0, 1 by default, 0, 1, 1
// with align_corners (0.5 rounds away from zero) and with half_pixel_centers.
TEST(TfliteImport, ResizeNearestNeighborFlagsPickTheirRows) {
  const std::vector<int8_t> x = {10, 20};
  const auto run = [&](bool align, bool half) {
    return run_one(resize_model({1, 2, 1, 1}, 3, 1, flags(align, half)), {as_bytes(x)});
  };
  EXPECT_EQ(run(false, false), as_bytes(std::vector<int8_t>{10, 10, 20}));
  EXPECT_EQ(run(true, false), as_bytes(std::vector<int8_t>{10, 20, 20}));
  EXPECT_EQ(run(false, true), as_bytes(std::vector<int8_t>{10, 20, 20}));
}

TEST(TfliteImport, ResizeNearestNeighborRefusalsAreOneExactLine) {
  expect_refusals({
      {"size values",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.3F, 2), size = b.int32_constant({2}, {0, 3});
         const int32_t out = b.int8({1, 2, 3, 1}, 0.3F, 2);
         b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, flags(false, false));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): tensor 1 (\"t1\") asks for height 0 and width 3 (positive "
       "sizes are imported)"},
      {"output shape",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.3F, 2), size = b.int32_constant({2}, {4, 4});
         const int32_t out = b.int8({1, 4, 3, 1}, 0.3F, 2);
         b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, flags(false, false));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): tensor 2 (\"t2\") has shape [1,4,3,1], TFLM writes "
       "[1,4,4,1]"},
      {"size shape",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.3F, 2), size = b.int32_constant({3}, {4, 4, 1});
         const int32_t out = b.int8({1, 4, 4, 1}, 0.3F, 2);
         b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, flags(false, false));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): tensor 1 (\"t1\") is int32 [3], TFLM takes int32 [2] "
       "(height, width)"},
      {"size not constant",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.3F, 2), size = b.int32_constant({2}, {4, 4});
         b.tensor(size).buffer = 0;
         b.tensor(size).data.clear();
         const int32_t out = b.int8({1, 4, 4, 1}, 0.3F, 2);
         b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, flags(false, false));
         return b.finish({in, size}, {out});
       },
       "m.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): tensor 1 (\"t1\") is not a constant (TFLM requires one)"},
      {"rank 3",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 2, 1}, 0.3F, 2), size = b.int32_constant({2}, {4, 4});
         const int32_t out = b.int8({4, 4, 1}, 0.3F, 2);
         b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, flags(false, false));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): tensor 0 (\"t0\") has rank 3, expected 4"},
      {"float32",
       [] {
         TfliteBuilder b;
         const int32_t in = b.float32({1, 2, 2, 1}), size = b.int32_constant({2}, {4, 4});
         const int32_t out = b.float32({1, 4, 4, 1});
         b.op(Builtin::ResizeNearestNeighbor, {in, size}, {out}, flags(false, false));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): tensor 0 (\"t0\") is float32: int8 is imported (TFLM also "
       "takes float32 and int16, the output of the input's type)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
