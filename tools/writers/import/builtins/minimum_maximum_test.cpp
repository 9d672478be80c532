#include "tools/writers/import/import_test_support.h"

// MINIMUM and MAXIMUM.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, MinimumAndMaximumMatchTflmWithBroadcasting) {
  struct Case {
    std::vector<int32_t> a, b;
    bool b_constant;
  };
  const Case cases[] = {
      {{1, 4, 5, 3}, {1, 4, 5, 3}, false},
      {{2, 6}, {1}, true},
      {{1}, {3, 2, 2}, true},
      {{1, 4, 1, 3}, {1, 1, 5, 3}, false},
      {{3, 1}, {1, 4}, false},
      {{5, 4}, {4}, true},
      {{2, 3, 4}, {3, 1}, false},
      // cortex_m::minimum refuses this walk as stored (CMSIS-NN skips rows):
      // the importer merges dims into [3, 1] against [3, 8].
      {{1, 3, 1, 1}, {1, 3, 4, 2}, false},
      {{1, 3, 4, 2}, {3, 1, 1}, true},
      // Rank 5 with a leading dim other than 1: merged into [6, 1] vs [6, 4].
      {{2, 3, 1, 1, 1}, {2, 3, 4, 1, 1}, false},
      {{2, 2, 1, 3, 1}, {1, 1, 1, 3, 4}, false},
  };
  Rng rng(111);
  for (const Case& c : cases) {
    for (const bool maximum : {false, true}) {
      SCOPED_TRACE(std::string(maximum ? "MAXIMUM " : "MINIMUM ") + shape_text(c.a) + " " + shape_text(c.b));
      const size_t rank = std::max(c.a.size(), c.b.size());
      std::vector<int32_t> so(rank);
      for (size_t k = 0; k < rank; ++k) {
        const int32_t da = k + c.a.size() < rank ? 1 : c.a[k + c.a.size() - rank];
        const int32_t db = k + c.b.size() < rank ? 1 : c.b[k + c.b.size() - rank];
        so[k] = da == 1 ? db : da;
      }
      const std::vector<int8_t> x = random_s8(rng, ref::count(c.a)), y = random_s8(rng, ref::count(c.b));
      TfliteBuilder b;
      // Different grids on purpose: TFLM compares the codes.
      const int32_t ta = b.int8(c.a, 0.1F, 3);
      const int32_t tb = c.b_constant ? b.int8_constant(c.b, 0.2F, -1, y) : b.int8(c.b, 0.2F, -1);
      const int32_t out = b.int8(so, 0.3F, 0);
      b.op(maximum ? Builtin::Maximum : Builtin::Minimum, {ta, tb}, {out});
      std::vector<Bytes> inputs{as_bytes(x)};
      if (!c.b_constant) inputs.push_back(as_bytes(y));
      const tfl::Model model = b.finish(c.b_constant ? std::vector<int32_t>{ta} : std::vector<int32_t>{ta, tb}, {out});
      EXPECT_EQ(run_imported(model, inputs), std::vector<Bytes>{as_bytes(ref::min_max(maximum, x, c.a, y, c.b, so))});
    }
  }
}

TEST(TfliteImport, MinimumAndMaximumRefusalsAreOneExactLine) {
  expect_refusals({
      {"MINIMUM shapes",
       [] { return one_op(Builtin::Minimum, {{2, 3}, {2}, {2, 3}}); },
       "m.tflite: operator 0 (MINIMUM): input shapes do not broadcast"},
      {"MAXIMUM output",
       [] { return one_op(Builtin::Maximum, {{2, 3}, {3}, {3, 3}}); },
       "m.tflite: operator 0 (MAXIMUM): output shape is not the inputs' broadcast"},
      {"MAXIMUM over five alternating dims",
       [] { return one_op(Builtin::Maximum, {{2, 1, 2, 1, 2}, {2, 3, 2, 3, 2}, {2, 3, 2, 3, 2}}); },
       "m.tflite: operator 0 (MAXIMUM): the broadcast alternates over 5 dims (4 are imported)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
