#include <cstring>

#include "tools/writers/import/import_test_support.h"

// STRIDED_SLICE, folded at import: against tflm_reference.h's Prepare shape
// and five-axis Eval walk, on random shapes, indices, strides and masks.
namespace etns::tools::import_test {
namespace {

// A model whose one output is a RESHAPE of its int8 input (so the program
// has an instruction) and whose STRIDED_SLICE of `values` (a constant of
// `type`) is folded; the slice's output has shape `out_shape`.
tfl::Model slice_model(tfl::TensorType type, const std::vector<int32_t>& in_shape, const Bytes& values,
                       const ref::StridedSlice& p, const std::vector<int32_t>& out_shape) {
  TfliteBuilder b;
  const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({6}, 0.1F, 0);
  const auto rank = static_cast<int32_t>(in_shape.size());
  int32_t c = 0;
  if (type == tfl::TensorType::Int32) {
    std::vector<int32_t> v(values.size() / 4);
    std::memcpy(v.data(), values.data(), values.size());
    c = b.int32_constant(in_shape, v);
  } else {
    c = b.int8_constant(in_shape, 0.5F, 3, std::vector<int8_t>(values.begin(), values.end()));
  }
  const int32_t begin = b.int32_constant({rank}, p.begin), end = b.int32_constant({rank}, p.end);
  const int32_t strides = b.int32_constant({rank}, p.strides);
  const int32_t sliced = b.int8(out_shape, 0.5F, 3);
  b.tensor(sliced).type = type;  // TFLM copies the elements, whatever their type
  tfl::Options o;
  o.begin_mask = p.begin_mask;
  o.end_mask = p.end_mask;
  o.shrink_axis_mask = p.shrink_axis_mask;
  b.op(Builtin::StridedSlice, {c, begin, end, strides}, {sliced}, o);
  b.op(Builtin::Reshape, {x}, {y});
  return b.finish({x}, {y});
}

TEST(TfliteImport, StridedSliceFoldsAsTflmWalksOnRandomMasksAndStrides) {
  Rng rng(45);
  int folded = 0, refused = 0, empty = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const auto rank = static_cast<size_t>(rng.uniform(1, 4));
    std::vector<int32_t> shape(rank);
    for (int32_t& d : shape) d = rng.uniform32(1, 5);
    ref::StridedSlice p;
    for (size_t i = 0; i < rank; ++i) {
      p.begin.push_back(rng.uniform32(-7, 7));
      p.end.push_back(rng.uniform32(-7, 7));
      int32_t s = rng.uniform32(-3, 3);
      p.strides.push_back(s == 0 ? 1 : s);
    }
    const auto mask = [&] { return rng.uniform32(0, 3) == 0 ? rng.uniform32(0, (1 << rank) - 1) : 0; };
    p.begin_mask = mask();
    p.end_mask = mask();
    p.shrink_axis_mask = mask();
    const bool int32 = trial % 2 == 0;
    const size_t n = ref::count(shape);
    std::vector<int32_t> v32(n);
    for (int32_t& v : v32) v = rng.uniform32(-100000, 100000);
    const std::vector<int8_t> v8 = random_s8(rng, n);
    const Bytes values = int32 ? as_bytes(v32) : as_bytes(v8);
    const std::vector<int32_t> out_shape = ref::strided_slice_shape(shape, p);
    const Bytes want = int32 ? as_bytes(ref::strided_slice(shape, v32, p)) : as_bytes(ref::strided_slice(shape, v8, p));
    const size_t want_elements = want.size() / (int32 ? 4 : 1);
    const tfl::Model m = slice_model(int32 ? tfl::TensorType::Int32 : tfl::TensorType::Int8, shape, values, p, out_shape);
    SCOPED_TRACE("trial " + std::to_string(trial) + " shape " + shape_text(shape) + " out " + shape_text(out_shape));
    if (want_elements != ref::count(out_shape)) {
      // TFLM's Eval leaves output bytes unwritten: refused.
      EXPECT_NE(refusal(m).find("leaves output bytes unwritten"), std::string::npos) << refusal(m);
      ++refused;
      continue;
    }
    if (want_elements == 0) {  // an empty output is refused before the slice (no elements)
      ++empty;
      continue;
    }
    ImportedModel imported;
    run_imported(m, {Bytes(6, 1)}, &imported);
    ASSERT_TRUE(imported.operators[0].folded);
    EXPECT_EQ(imported.operators[0].became, kFoldedAtImport);
    EXPECT_EQ(imported.operators[0].instruction, -1);
    EXPECT_EQ(imported.operators[0].folded_value, want);
    ++folded;
  }
  // Every kind of case occurs.
  EXPECT_GT(folded, 50) << refused << " refused, " << empty << " empty";
  EXPECT_GT(refused, 5);
}

TEST(TfliteImport, StridedSliceHandWorkedMasks) {
  // [[0,1,2,3],[4,5,6,7],[8,9,10,11]]: row 1 reversed with begin masked
  // from the end, then column 2 shrunk from a negative index.
  std::vector<int32_t> v(12);
  for (int32_t i = 0; i < 12; ++i) v[static_cast<size_t>(i)] = i;
  ref::StridedSlice reversed{{1, 99}, {2, 0}, {1, -1}, 2, 0, 1};
  ImportedModel imported;
  run_imported(slice_model(tfl::TensorType::Int32, {3, 4}, as_bytes(v), reversed, {3}), {Bytes(6, 1)}, &imported);
  EXPECT_EQ(imported.operators[0].folded_value, as_bytes(std::vector<int32_t>{7, 6, 5}));
  ref::StridedSlice column{{0, -2}, {3, 0}, {2, 1}, 0, 0, 2};
  run_imported(slice_model(tfl::TensorType::Int32, {3, 4}, as_bytes(v), column, {2}), {Bytes(6, 1)}, &imported);
  EXPECT_EQ(imported.operators[0].folded_value, as_bytes(std::vector<int32_t>{2, 10}));
}

// On an int8 activation: one etns_ops::slice_copy (and a view when axes
// are shrunk), the bytes of TFLM's walk, on random masks and strides.
TEST(TfliteImport, StridedSliceOfAnActivationCopiesTflmsWalk) {
  Rng rng(46);
  int imported_count = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto rank = static_cast<size_t>(rng.uniform(1, 4));
    std::vector<int32_t> shape(rank);
    for (int32_t& d : shape) d = rng.uniform32(1, 5);
    ref::StridedSlice p;
    for (size_t i = 0; i < rank; ++i) {
      p.begin.push_back(rng.uniform32(-7, 7));
      p.end.push_back(rng.uniform32(-7, 7));
      const int32_t s = rng.uniform32(-3, 3);
      p.strides.push_back(s == 0 ? 1 : s);
    }
    const auto mask = [&] { return rng.uniform32(0, 3) == 0 ? rng.uniform32(0, (1 << rank) - 1) : 0; };
    p.begin_mask = mask();
    p.end_mask = mask();
    p.shrink_axis_mask = mask();
    const std::vector<int32_t> out_shape = ref::strided_slice_shape(shape, p);
    const std::vector<int8_t> x = random_s8(rng, ref::count(shape));
    const std::vector<int8_t> want = ref::strided_slice(shape, x, p);
    // TFLM leaves bytes unwritten (the import refuses it) or writes none.
    if (want.size() != ref::count(out_shape) || want.empty()) continue;
    SCOPED_TRACE(shape_text(shape) + " -> " + shape_text(out_shape));
    TfliteBuilder b;
    const auto r = static_cast<int32_t>(rank);
    const int32_t in = b.int8(shape, 0.1F, 1), y = b.int8(out_shape, 0.2F, -1);
    b.op(Builtin::StridedSlice,
         {in, b.int32_constant({r}, p.begin), b.int32_constant({r}, p.end), b.int32_constant({r}, p.strides)}, {y},
         [&] {
           tfl::Options o;
           o.begin_mask = p.begin_mask;
           o.end_mask = p.end_mask;
           o.shrink_axis_mask = p.shrink_axis_mask;
           return o;
         }());
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish({in}, {y}), {as_bytes(x)}, &imported)[0], as_bytes(want));
    EXPECT_EQ(imported.operators[0].became, "etns_ops::slice_copy");
    ++imported_count;
  }
  EXPECT_GT(imported_count, 40);
}

// A convolution's channels_last output: reversed channels and every other
// row, read in place (one instruction); with W shrunk the slice reads the
// stored form (two copies into it: a view_copy takes the default dim order
// only), then a view drops the axis.
TEST(TfliteImport, StridedSliceOfAConvolutionOutput) {
  Rng rng(47);
  const std::vector<int32_t> nhwc = {1, 4, 3, 5};
  std::vector<int8_t> identity(25, 0);
  for (int32_t i = 0; i < 5; ++i) identity[static_cast<size_t>(i * 5 + i)] = 1;
  const ref::StridedSlice kept{{0, 0, 0, -1}, {1, 4, 3, 0}, {1, 2, 1, -1}, 0, 0, 0};
  const ref::StridedSlice shrunk{{0, 1, 2, 0}, {1, 4, 3, 5}, {1, 1, 1, 2}, 0, 0, 4};
  for (const ref::StridedSlice& p : {kept, shrunk}) {
    const std::vector<int32_t> out_shape = ref::strided_slice_shape(nhwc, p);
    SCOPED_TRACE(shape_text(out_shape));
    TfliteBuilder b;
    const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({5, 1, 1, 5}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(nhwc, 0.1F, 2), y = b.int8(out_shape, 0.1F, 2);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    tfl::Options o;
    o.shrink_axis_mask = p.shrink_axis_mask;
    b.op(Builtin::StridedSlice,
         {conv, b.int32_constant({4}, p.begin), b.int32_constant({4}, p.end), b.int32_constant({4}, p.strides)}, {y},
         o);
    const std::vector<int8_t> x = random_s8(rng, ref::count(nhwc));
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish({in}, {y}), {as_bytes(x)}, &imported)[0],
              as_bytes(ref::strided_slice(nhwc, x, p)));
    EXPECT_EQ(imported.operators[1].instructions, p.shrink_axis_mask == 0 ? 1 : 4);
  }
}

TEST(TfliteImport, StridedSliceRefusalsAreOneExactLine) {
  const auto slice = [](const std::function<void(TfliteBuilder&, std::vector<int32_t>&, tfl::Options&)>& edit) {
    TfliteBuilder b;
    const int32_t x = b.int8({2, 4}, 0.1F, 0), y = b.int8({1, 4}, 0.1F, 0);
    std::vector<int32_t> in = {x, b.int32_constant({2}, {0, 0}), b.int32_constant({2}, {1, 4}),
                               b.int32_constant({2}, {1, 1})};
    tfl::Options o;
    edit(b, in, o);
    b.op(Builtin::StridedSlice, in, {y}, o);
    return b.finish({x}, {y});
  };
  expect_refusals({
      {"a float activation",
       [&] {
         return slice([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) {
           for (const int32_t t : {in[0], 1}) {
             b.tensor(t).type = tfl::TensorType::Float32;
             b.tensor(t).has_quantization = false;
           }
         });
       },
       "m.tflite: operator 0 (STRIDED_SLICE): tensor 0 (\"t0\") is float32: STRIDED_SLICE of an activation is "
       "imported on int8 tensors (etns_ops::slice_copy)"},
      {"begin not constant",
       [&] {
         TfliteBuilder b;
         const int32_t x = b.int8({2, 4}, 0.1F, 0), begin = b.int32_constant({2}, {0, 0});
         b.tensor(begin).data.clear();
         b.tensor(begin).buffer = 0;
         const int32_t y = b.int8({1, 4}, 0.1F, 0);
         b.op(Builtin::StridedSlice, {x, begin, b.int32_constant({2}, {1, 4}), b.int32_constant({2}, {1, 1})}, {y});
         return b.finish({x, begin}, {y});
       },
       "m.tflite: operator 0 (STRIDED_SLICE): tensor 1 (\"t1\") is not a constant (its bytes are not in the file)"},
      {"stride 0",
       [&] {
         return slice([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) {
           in[3] = b.int32_constant({2}, {1, 0});
         });
       },
       "m.tflite: operator 0 (STRIDED_SLICE): stride 0 on axis 1 (TFLM refuses it)"},
      {"short begin",
       [&] {
         return slice([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) { in[1] = b.int32_constant({1}, {0}); });
       },
       "m.tflite: operator 0 (STRIDED_SLICE): tensor 5 (\"t5\") holds 1 values, expected 2"},
      {"output shape",
       [&] {
         return slice([](TfliteBuilder& b, std::vector<int32_t>& in, tfl::Options&) {
           in[2] = b.int32_constant({2}, {2, 4});
         });
       },
       "m.tflite: operator 0 (STRIDED_SLICE): tensor 1 (\"t1\") has shape [1,4], TFLM's Prepare computes [2,4]"},
      {"three inputs",
       [&] { return slice([](TfliteBuilder&, std::vector<int32_t>& in, tfl::Options&) { in.pop_back(); }); },
       "m.tflite: operator 0 (STRIDED_SLICE): 3 inputs; TFLite Micro's STRIDED_SLICE takes 4"},
      {"rank 5",
       [] {
         TfliteBuilder b;
         const int32_t x = b.int8({1, 1, 1, 2, 4}, 0.1F, 0), y = b.int8({1, 1, 1, 2, 4}, 0.1F, 0);
         const int32_t k = b.int32_constant({5}, {0, 0, 0, 0, 0});
         b.op(Builtin::StridedSlice, {x, k, k, k}, {y});
         return b.finish({x}, {y});
       },
       "m.tflite: operator 0 (STRIDED_SLICE): input rank 5, TFLM's STRIDED_SLICE takes at most 4"},
      {"shrink with a negative stride",
       [] {
         TfliteBuilder b;
         const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({6}, 0.1F, 0);
         const int32_t c = b.int32_constant({3}, {1, 2, 3});
         const int32_t s = b.int8({}, 0.1F, 0);
         b.tensor(s).type = tfl::TensorType::Int32;
         tfl::Options o;
         o.shrink_axis_mask = 1;
         b.op(Builtin::StridedSlice, {c, b.int32_constant({1}, {1}), b.int32_constant({1}, {2}), b.int32_constant({1}, {-1})},
              {s}, o);
         b.op(Builtin::Reshape, {x}, {y});
         return b.finish({x}, {y});
       },
       "m.tflite: operator 0 (STRIDED_SLICE): TFLM's walk visits 0 elements for an output of 1 (a shrunk axis with a "
       "negative stride or past its end): TFLM leaves output bytes unwritten"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
