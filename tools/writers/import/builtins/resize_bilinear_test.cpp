#include "tools/writers/import/import_test_support.h"

// RESIZE_BILINEAR.
namespace etns::tools::import_test {
namespace {

tfl::Options flags(bool align_corners, bool half_pixel_centers) {
  tfl::Options o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel_centers;
  return o;
}

tfl::Model resize_model(const std::vector<int32_t>& is, int32_t out_h, int32_t out_w, const tfl::Options& o) {
  TfliteBuilder b;
  const int32_t in = b.int8(is, 0.3F, 2), size = b.int32_constant({2}, {out_h, out_w});
  const int32_t out = b.int8({is[0], out_h, out_w, is[3]}, 0.3F, 2);
  b.op(Builtin::ResizeBilinear, {in, size}, {out}, o);
  return b.finish({in}, {out});
}

std::vector<int8_t> as_s8(const Bytes& bytes) { return std::vector<int8_t>(bytes.begin(), bytes.end()); }

std::vector<int8_t> run_resize(const std::vector<int8_t>& x, const std::vector<int32_t>& is, int32_t out_h,
                               int32_t out_w, const tfl::Options& o) {
  return as_s8(run_one(resize_model(is, out_h, out_w, o), {as_bytes(x)}));
}

// TFLM's own int8 vectors (resize_bilinear_test.cc, no flags). The first
// three it checks exactly; the last two within 1, so those are checked
// within 1 of its goldens and exactly against the reference.
TEST(TfliteImport, ResizeBilinearGivesTflmsTestVectors) {
  const tfl::Options none = flags(false, false);
  EXPECT_EQ(run_resize({3, 6}, {1, 1, 2, 1}, 1, 3, none), (std::vector<int8_t>{3, 5, 6}));
  EXPECT_EQ(run_resize({3, 9}, {1, 2, 1, 1}, 3, 1, none), (std::vector<int8_t>{3, 7, 9}));
  EXPECT_EQ(run_resize({3, 6, 9, 12}, {1, 2, 2, 1}, 3, 3, none),
            (std::vector<int8_t>{3, 5, 6, 7, 9, 10, 9, 11, 12}));
  struct Near {
    std::vector<int8_t> x;
    std::vector<int32_t> shape;
    std::vector<int8_t> golden;
  };
  const Near nears[] = {
      {{3, 6, 9, 12, 4, 10, 12, 16},
       {2, 2, 2, 1},
       {3, 5, 6, 7, 9, 10, 9, 11, 12, 4, 8, 10, 9, 12, 13, 12, 14, 16}},
      {{3, 4, 6, 10, 10, 12, 14, 16}, {1, 2, 2, 2}, {3, 4, 5, 8, 6, 10, 7, 9, 10, 12, 11, 13, 10, 12, 12, 14, 14, 16}},
  };
  for (const Near& n : nears) {
    const std::vector<int8_t> got = run_resize(n.x, n.shape, 3, 3, none);
    ASSERT_EQ(got.size(), n.golden.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], n.golden[i], 1) << i;
    EXPECT_EQ(got, ref::resize_bilinear(n.x, n.shape, 3, 3, false, false));
  }
}

// Half-pixel centres, 2 to 4 columns: scale 512, positions -256, 256, 768,
// 1280: the first and last read one pixel, the middle two tie (12.5, 17.5)
// and round away from zero.
TEST(TfliteImport, ResizeBilinearHalfPixelTiesRoundAwayFromZero) {
  EXPECT_EQ(run_resize({10, 20}, {1, 1, 2, 1}, 1, 4, flags(false, true)), (std::vector<int8_t>{10, 13, 18, 20}));
  EXPECT_EQ(run_resize({-10, -20}, {1, 1, 2, 1}, 1, 4, flags(false, true)),
            (std::vector<int8_t>{-10, -13, -18, -20}));
  // align_corners: 2 to 4 is scale (1024 + 1) / 3 = 341: 0, 341, 682, 1023.
  EXPECT_EQ(run_resize({0, 120}, {1, 1, 2, 1}, 1, 4, flags(true, false)), (std::vector<int8_t>{0, 40, 80, 120}));
}

TEST(TfliteImport, ResizeBilinearMatchesTflm) {
  struct Case {
    std::vector<int32_t> shape;  // the input's, NHWC
    int32_t out_h, out_w;
  };
  const Case cases[] = {
      {{1, 2, 2, 1}, 3, 3},  {{2, 3, 4, 3}, 6, 8},   {{1, 5, 7, 8}, 2, 3},  {{3, 4, 4, 17}, 7, 1},
      {{1, 1, 1, 40}, 4, 5}, {{2, 6, 5, 3}, 6, 5},   {{1, 9, 4, 8}, 4, 9},  {{1, 7, 3, 17}, 11, 2},
      {{2, 12, 12, 3}, 5, 7}, {{1, 3, 2, 1}, 1, 1},  {{1, 4, 6, 40}, 16, 3}, {{2, 1, 5, 1}, 3, 13},
  };
  Rng rng(131);
  for (const Case& c : cases) {
    for (const tfl::Options& o : {flags(false, false), flags(true, false), flags(false, true)}) {
      SCOPED_TRACE(shape_text(c.shape) + " to " + std::to_string(c.out_h) + "x" + std::to_string(c.out_w) +
                   (o.align_corners ? " align_corners" : "") + (o.half_pixel_centers ? " half_pixel_centers" : ""));
      const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
      EXPECT_EQ(run_resize(x, c.shape, c.out_h, c.out_w, o),
                ref::resize_bilinear(x, c.shape, c.out_h, c.out_w, o.align_corners, o.half_pixel_centers));
    }
  }
}

tfl::Model refused(const std::vector<int32_t>& is, const std::vector<int32_t>& size_values,
                   const std::vector<int32_t>& os, const tfl::Options& o) {
  TfliteBuilder b;
  const int32_t in = b.int8(is, 0.3F, 2), size = b.int32_constant({2}, size_values);
  const int32_t out = b.int8(os, 0.3F, 2);
  b.op(Builtin::ResizeBilinear, {in, size}, {out}, o);
  return b.finish({in}, {out});
}

TEST(TfliteImport, ResizeBilinearRefusalsAreOneExactLine) {
  const tfl::Options none = flags(false, false);
  expect_refusals({
      {"both flags", [] { return refused({1, 2, 2, 1}, {4, 4}, {1, 4, 4, 1}, flags(true, true)); },
       "m.tflite: operator 0 (RESIZE_BILINEAR): align_corners and half_pixel_centers are both true (TFLM refuses "
       "the pair)"},
      {"size values", [&] { return refused({1, 2, 2, 1}, {0, 3}, {1, 2, 3, 1}, none); },
       "m.tflite: operator 0 (RESIZE_BILINEAR): tensor 1 (\"t1\") asks for height 0 and width 3 (positive sizes are "
       "imported)"},
      {"output shape", [&] { return refused({1, 2, 2, 1}, {4, 4}, {1, 4, 3, 1}, none); },
       "m.tflite: operator 0 (RESIZE_BILINEAR): tensor 2 (\"t2\") has shape [1,4,3,1], TFLM writes [1,4,4,1]"},
      {"reads past the input", [&] { return refused({1, 1, 1, 1}, {600, 1}, {1, 600, 1, 1}, none); },
       "m.tflite: operator 0 (RESIZE_BILINEAR): output row 512 of 600 reads input row 1 of 1 (TFLM's 10-bit scale "
       "reads past its input)"},
      {"size shape",
       [&] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.3F, 2), size = b.int32_constant({3}, {4, 4, 1});
         const int32_t out = b.int8({1, 4, 4, 1}, 0.3F, 2);
         b.op(Builtin::ResizeBilinear, {in, size}, {out}, none);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_BILINEAR): tensor 1 (\"t1\") is int32 [3], TFLM takes int32 [2] (height, "
       "width)"},
      {"size not constant",
       [&] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.3F, 2), size = b.int32_constant({2}, {4, 4});
         b.tensor(size).buffer = 0;
         b.tensor(size).data.clear();
         const int32_t out = b.int8({1, 4, 4, 1}, 0.3F, 2);
         b.op(Builtin::ResizeBilinear, {in, size}, {out}, none);
         return b.finish({in, size}, {out});
       },
       "m.tflite: operator 0 (RESIZE_BILINEAR): tensor 1 (\"t1\") is not a constant (TFLM requires one)"},
      {"rank 3",
       [&] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 2, 1}, 0.3F, 2), size = b.int32_constant({2}, {4, 4});
         const int32_t out = b.int8({4, 4, 1}, 0.3F, 2);
         b.op(Builtin::ResizeBilinear, {in, size}, {out}, none);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_BILINEAR): tensor 0 (\"t0\") has rank 3, expected 4"},
      {"float32",
       [&] {
         TfliteBuilder b;
         const int32_t in = b.float32({1, 2, 2, 1}), size = b.int32_constant({2}, {4, 4});
         const int32_t out = b.float32({1, 4, 4, 1});
         b.op(Builtin::ResizeBilinear, {in, size}, {out}, none);
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESIZE_BILINEAR): tensor 0 (\"t0\") is float32: int8 is imported (TFLM also takes "
       "float32, the output of the input's type)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
