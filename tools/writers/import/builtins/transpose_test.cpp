#include "tools/writers/import/import_test_support.h"

// TRANSPOSE.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, TransposeMatchesTflmOnRanks1To4) {
  struct Case {
    std::vector<int32_t> shape, perm;
  };
  const Case cases[] = {
      {{7}, {0}},           {{3, 5}, {1, 0}},           {{2, 3, 4}, {2, 0, 1}},       {{2, 3, 4}, {0, 2, 1}},
      {{4, 1, 3}, {1, 2, 0}}, {{2, 3, 4, 5}, {0, 3, 1, 2}}, {{2, 3, 4, 5}, {3, 2, 1, 0}}, {{1, 2, 1, 3}, {2, 3, 0, 1}},
  };
  Rng rng(113);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.shape) + " perm " + shape_text(c.perm));
    std::vector<int32_t> os;
    for (const int32_t p : c.perm) os.push_back(c.shape[static_cast<size_t>(p)]);
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, 0.2F, 1);
    const int32_t perm = b.int32_constant({static_cast<int32_t>(c.perm.size())}, c.perm), out = b.int8(os, 0.2F, 1);
    b.op(Builtin::Transpose, {in, perm}, {out});
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::transpose(x, c.shape, c.perm)));
  }
}

TEST(TfliteImport, TransposeRefusalsAreOneExactLine) {
  expect_refusals({
      {"TRANSPOSE perm",
       [] {
         return one_op(Builtin::Transpose, {{2, 3}, {3, 2}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({2}, {-1, 0}));
         });
       },
       "m.tflite: operator 0 (TRANSPOSE): tensor 2 (\"t2\") is not a permutation of 0 to 1"},
      {"TRANSPOSE output",
       [] {
         return one_op(Builtin::Transpose, {{2, 3}, {2, 3}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({2}, {1, 0}));
         });
       },
       "m.tflite: operator 0 (TRANSPOSE): output shape is not the input's permuted"},
      {"TRANSPOSE rank 5",
       [] {
         return one_op(Builtin::Transpose, {{1, 1, 1, 2, 3}, {1, 1, 1, 3, 2}}, {},
                       [](TfliteBuilder& b, std::vector<int32_t>& in) {
                         in.push_back(b.int32_constant({5}, {0, 1, 2, 4, 3}));
                       });
       },
       "m.tflite: operator 0 (TRANSPOSE): rank 5 (1 to 4 are imported)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
