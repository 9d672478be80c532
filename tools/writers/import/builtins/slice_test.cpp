#include <cstring>

#include "tools/writers/import/import_test_support.h"

// SLICE: on int8 activations one etns_ops::slice_copy, on constants folded;
// against tflm_reference.h's slice (reference/slice.h's five-axis walk).
namespace etns::tools::import_test {
namespace {

// A constant index tensor of `type` (int32 or int64) holding `values`.
int32_t index_constant(TfliteBuilder& b, tfl::TensorType type, const std::vector<int64_t>& values) {
  const int32_t t = b.int32_constant({static_cast<int32_t>(values.size())}, std::vector<int32_t>(values.size(), 0));
  b.tensor(t).type = type;
  std::vector<uint8_t>& data = b.tensor(t).data;
  data.clear();
  for (const int64_t v : values) {
    const auto v32 = static_cast<int32_t>(v);
    const auto* p = reinterpret_cast<const uint8_t*>(type == tfl::TensorType::Int64 ? static_cast<const void*>(&v)
                                                                                    : static_cast<const void*>(&v32));
    data.insert(data.end(), p, p + (type == tfl::TensorType::Int64 ? 8 : 4));
  }
  return t;
}

// Random windows of model inputs of rank 1 to 5, begin and size int32 or
// int64, sizes of -1 among them.
TEST(TfliteImport, SliceCopiesTheWindowOfAnActivation) {
  Rng rng(65);
  for (int trial = 0; trial < 60; ++trial) {
    const auto rank = static_cast<size_t>(rng.uniform(1, 5));
    std::vector<int32_t> shape(rank), out_shape(rank);
    std::vector<int64_t> begin(rank), size(rank);
    for (size_t a = 0; a < rank; ++a) {
      shape[a] = rng.uniform32(1, 5);
      begin[a] = rng.uniform(0, shape[a] - 1);
      size[a] = rng.uniform(0, 3) == 0 ? -1 : rng.uniform(1, shape[a] - begin[a]);
      out_shape[a] = static_cast<int32_t>(size[a] == -1 ? shape[a] - begin[a] : size[a]);
    }
    const tfl::TensorType type = trial % 2 == 0 ? tfl::TensorType::Int32 : tfl::TensorType::Int64;
    SCOPED_TRACE(shape_text(shape) + " -> " + shape_text(out_shape) + " " + tfl::to_string(type));
    TfliteBuilder b;
    const int32_t x = b.int8(shape, 0.1F, 3), y = b.int8(out_shape, 0.3F, -2);
    b.op(Builtin::Slice, {x, index_constant(b, type, begin), index_constant(b, type, size)}, {y});
    const std::vector<int8_t> values = random_s8(rng, ref::count(shape));
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish({x}, {y}), {as_bytes(values)}, &imported)[0],
              as_bytes(ref::slice(shape, values, begin, size)));
    EXPECT_EQ(imported.operators[0].became, "etns_ops::slice_copy");
    EXPECT_EQ(imported.operators[0].instructions, 1);
  }
}

// A convolution's output is channels_last: the window (channels, rows)
// is read where it lies and written in that form, one instruction.
TEST(TfliteImport, SliceOfAConvolutionOutputReadsItInPlace) {
  Rng rng(66);
  const std::vector<int32_t> nhwc = {1, 3, 4, 5};
  std::vector<int8_t> identity(25, 0);
  for (int32_t i = 0; i < 5; ++i) identity[static_cast<size_t>(i * 5 + i)] = 1;
  const std::vector<std::vector<int64_t>> begins = {{0, 0, 0, 1}, {0, 1, 2, 0}, {0, 2, 1, 3}};
  const std::vector<std::vector<int64_t>> sizes = {{-1, -1, -1, 3}, {1, 2, 2, -1}, {1, 1, -1, 2}};
  for (size_t k = 0; k < begins.size(); ++k) {
    std::vector<int32_t> out_shape(4);
    for (size_t a = 0; a < 4; ++a) {
      out_shape[a] = static_cast<int32_t>(sizes[k][a] == -1 ? nhwc[a] - begins[k][a] : sizes[k][a]);
    }
    SCOPED_TRACE(shape_text(out_shape));
    TfliteBuilder b;
    const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({5, 1, 1, 5}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(nhwc, 0.1F, 2), y = b.int8(out_shape, 0.1F, 2);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    b.op(Builtin::Slice,
         {conv, index_constant(b, tfl::TensorType::Int32, begins[k]), index_constant(b, tfl::TensorType::Int32, sizes[k])},
         {y});
    const std::vector<int8_t> x = random_s8(rng, ref::count(nhwc));
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish({in}, {y}), {as_bytes(x)}, &imported)[0],
              as_bytes(ref::slice(nhwc, x, begins[k], sizes[k])));
    EXPECT_EQ(imported.operators[1].instructions, 1);
  }
}

TEST(TfliteImport, SliceOfAConstantIsFolded) {
  TfliteBuilder b;
  const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({6}, 0.1F, 0);
  const int32_t c = b.int32_constant({2, 3}, {1, 2, 3, 4, 5, 6});
  const int32_t sliced = b.int8({2, 2}, 0.1F, 0);
  b.tensor(sliced).type = tfl::TensorType::Int32;  // TFLM copies the elements, whatever their type
  b.op(Builtin::Slice, {c, index_constant(b, tfl::TensorType::Int32, {0, 1}),
                        index_constant(b, tfl::TensorType::Int32, {-1, 2})},
       {sliced});
  b.op(Builtin::Reshape, {x}, {y});
  ImportedModel imported;
  run_imported(b.finish({x}, {y}), {Bytes(6, 1)}, &imported);
  EXPECT_TRUE(imported.operators[0].folded);
  EXPECT_EQ(imported.operators[0].folded_value, as_bytes(std::vector<int32_t>{2, 3, 5, 6}));
}

TEST(TfliteImport, SliceRefusalsAreOneExactLine) {
  using Edit = std::function<void(TfliteBuilder&, std::vector<int32_t>&)>;
  const auto model = [](const Edit& edit) {
    return [=] {
      TfliteBuilder b;
      const int32_t x = b.int8({2, 4}, 0.1F, 0), y = b.int8({1, 3}, 0.1F, 0);
      std::vector<int32_t> in = {x, index_constant(b, tfl::TensorType::Int32, {1, 1}),
                                 index_constant(b, tfl::TensorType::Int32, {1, -1})};
      edit(b, in);
      b.op(Builtin::Slice, in, {y});
      return b.finish({x}, {y});
    };
  };
  EXPECT_EQ(refusal(model([](TfliteBuilder&, std::vector<int32_t>&) {})()), "imported");
  expect_refusals({
      {"begin past the axis",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) { in[1] = index_constant(b, tfl::TensorType::Int32, {3, 1}); }),
       "m.tflite: operator 0 (SLICE): begin 3 on axis 0 is outside [0, 2]"},
      {"size past the axis",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) { in[2] = index_constant(b, tfl::TensorType::Int32, {1, 4}); }),
       "m.tflite: operator 0 (SLICE): size 4 on axis 1 from begin 1: expected -1 or [0, 3] (the axis has 4)"},
      {"size -2",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) { in[2] = index_constant(b, tfl::TensorType::Int32, {-2, 3}); }),
       "m.tflite: operator 0 (SLICE): size -2 on axis 0 from begin 1: expected -1 or [0, 1] (the axis has 2)"},
      {"mixed index types",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) { in[2] = index_constant(b, tfl::TensorType::Int64, {1, -1}); }),
       "m.tflite: operator 0 (SLICE): begin is int32 and size int64: TFLM takes both int32 or both int64"},
      {"short begin",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) { in[1] = index_constant(b, tfl::TensorType::Int32, {1}); }),
       "m.tflite: operator 0 (SLICE): tensor 4 (\"t4\") has shape [1], expected [2] (one value per input axis)"},
      {"output shape",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) { in[2] = index_constant(b, tfl::TensorType::Int32, {1, 2}); }),
       "m.tflite: operator 0 (SLICE): tensor 1 (\"t1\") has shape [1,3], the slice is [1,2]"},
      {"float activation",
       model([](TfliteBuilder& b, std::vector<int32_t>& in) {
         b.tensor(in[0]).type = tfl::TensorType::Float32;
         b.tensor(in[0]).has_quantization = false;
         b.tensor(1).type = tfl::TensorType::Float32;
         b.tensor(1).has_quantization = false;
       }),
       "m.tflite: operator 0 (SLICE): tensor 0 (\"t0\") is float32: SLICE of an activation is imported on int8 tensors "
       "(etns_ops::slice_copy)"},
      {"two inputs", model([](TfliteBuilder&, std::vector<int32_t>& in) { in.pop_back(); }),
       "m.tflite: operator 0 (SLICE): 2 inputs; TFLite Micro's SLICE takes 3"},
  });
  expect_refusals({{"rank 6",
                    [] {
                      TfliteBuilder b;
                      const int32_t x = b.int8({1, 1, 1, 1, 2, 3}, 0.1F, 0), y = b.int8({1, 1, 1, 1, 1, 3}, 0.1F, 0);
                      b.op(Builtin::Slice,
                           {x, index_constant(b, tfl::TensorType::Int32, {0, 0, 0, 0, 0, 0}),
                            index_constant(b, tfl::TensorType::Int32, {1, 1, 1, 1, 1, 3})},
                           {y});
                      return b.finish({x}, {y});
                    },
                    "m.tflite: operator 0 (SLICE): tensor 0 (\"t0\") has rank 6, TFLM's SLICE takes at most 5"}});
}

}  // namespace
}  // namespace etns::tools::import_test
