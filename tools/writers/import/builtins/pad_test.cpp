#include "tools/writers/import/import_test_support.h"

// PAD and PADV2.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, PadAndPadV2MatchTflmOnRanks1To4) {
  struct Case {
    std::vector<int32_t> shape, before, after;
    bool v2, after_conv;
  };
  const Case cases[] = {
      {{5}, {2}, {3}, false, false},
      {{6}, {0}, {1}, true, false},
      {{3, 4}, {1, 0}, {2, 3}, false, false},
      {{2, 3, 4}, {0, 1, 2}, {1, 0, 1}, true, false},
      {{1, 2, 3, 2}, {0, 1, 0, 1}, {0, 2, 1, 0}, false, false},
      {{2, 3, 2, 3}, {1, 0, 2, 0}, {0, 1, 0, 2}, true, false},
      // A convolution's channels_last output, its channels padded too.
      {{1, 3, 4, 3}, {0, 1, 1, 2}, {0, 1, 0, 1}, false, true},
      {{1, 3, 4, 3}, {0, 0, 2, 0}, {0, 1, 0, 0}, true, true},
      // Convolution outputs whose two dim orders are the same bytes: 1x1
      // padded to 3x3 (the output needs channels_last's order), and one
      // channel padded spatially (both stay so).
      {{1, 1, 1, 3}, {0, 1, 1, 0}, {0, 1, 1, 0}, false, true},
      {{1, 4, 3, 1}, {0, 1, 2, 0}, {0, 2, 0, 0}, true, true},
  };
  Rng rng(112);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.v2 ? "PADV2 " : "PAD ") + shape_text(c.shape) + " before " + shape_text(c.before) +
                 " after " + shape_text(c.after) + (c.after_conv ? " after a conv" : ""));
    std::vector<int32_t> pads, os;
    for (size_t k = 0; k < c.shape.size(); ++k) {
      pads.push_back(c.before[k]);
      pads.push_back(c.after[k]);
      os.push_back(c.before[k] + c.shape[k] + c.after[k]);
    }
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.shape));
    const float scale = 0.3F;
    const int32_t zp = -9;
    TfliteBuilder b;
    const int32_t in = b.int8(c.shape, scale, zp);
    int32_t source = in;
    if (c.after_conv) {
      const int32_t cin = c.shape[3];
      std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
      for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
      const int32_t w = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
      source = b.int8(c.shape, scale, zp);
      b.op(Builtin::Conv2d, {in, w}, {source}, conv_options(Padding::Valid, 1, 1, Activation::None));
    }
    const int32_t pt = b.int32_constant({static_cast<int32_t>(c.shape.size()), 2}, pads);
    // PAD pads with the output zero point; here the output grid differs from
    // the input's on purpose (TFLM copies the codes).
    const int32_t out = b.int8(os, c.v2 ? scale : 0.5F, c.v2 ? zp : 21);
    int8_t value = 21;
    if (c.v2) {
      value = -77;
      const int32_t vt = b.int8_constant({}, scale, zp, {value});
      b.op(Builtin::PadV2, {source, pt, vt}, {out});
    } else {
      b.op(Builtin::Pad, {source, pt}, {out});
    }
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::pad(x, c.shape, c.before, c.after, value)));
  }
}

TEST(TfliteImport, PadRefusalsAreOneExactLine) {
  expect_refusals({
      {"PAD paddings count",
       [] {
         return one_op(Builtin::Pad, {{4}, {5}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({3}, {0, 1, 0}));
         });
       },
       "m.tflite: operator 0 (PAD): tensor 2 (\"t2\") holds 3 values, expected 2"},
      {"PADV2 value count",
       [] {
         return one_op(Builtin::PadV2, {{4}, {6}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {1, 1}));
           in.push_back(b.int8_constant({2}, 0.1F, 0, {5, 6}));
         });
       },
       "m.tflite: operator 0 (PADV2): tensor 3 (\"t3\") is not one value"},
      {"PAD rank 5",
       [] {
         return one_op(Builtin::Pad, {{1, 1, 1, 1, 2}, {1, 1, 1, 1, 2}}, {},
                       [](TfliteBuilder& b, std::vector<int32_t>& in) {
                         in.push_back(b.int32_constant({5, 2}, std::vector<int32_t>(10, 0)));
                       });
       },
       "m.tflite: operator 0 (PAD): rank 5 (1 to 4 are imported)"},
      {"PAD negative",
       [] {
         return one_op(Builtin::Pad, {{4}, {3}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {0, -1}));
         });
       },
       "m.tflite: operator 0 (PAD): negative padding"},
      {"PAD output size",
       [] {
         return one_op(Builtin::Pad, {{4}, {5}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {1, 1}));
         });
       },
       "m.tflite: operator 0 (PAD): output size is not the padded input's"},
      {"PAD paddings not constant",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({4}, 0.1F, 0), out = b.int8({6}, 0.1F, 0), pads = b.int32_constant({1, 2}, {1, 1});
         b.tensor(pads).data.clear();
         b.tensor(pads).buffer = 0;
         b.op(Builtin::Pad, {in, pads}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (PAD): tensor 2 (\"t2\") is not a constant (its bytes are not in the file)"},
      {"PADV2 value grid",
       [] {
         return one_op(Builtin::PadV2, {{4}, {6}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1, 2}, {1, 1}));
           in.push_back(b.int8_constant({}, 0.2F, 0, {5}));
         });
       },
       "m.tflite: operator 0 (PADV2): tensor 3 (\"t3\") is not quantised as the output (TFLite Micro requires it)"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
