#include <algorithm>
#include <cstring>

#include "tools/common/failure.h"
#include "tools/writers/import/import_test_support.h"

// GATHER: constant positions checked at import, folded with constant params,
// else one etns_ops::gather (computed positions checked on every run);
// against tflm_reference.h's gather.
namespace etns::tools::import_test {
namespace {

std::vector<int32_t> random_positions(Rng& rng, size_t n, int32_t limit) {
  std::vector<int32_t> v(n);
  for (int32_t& e : v) e = rng.uniform32(0, limit - 1);
  return v;
}

// TFLM's output shape rule.
std::vector<int32_t> gather_shape(const std::vector<int32_t>& ps, const std::vector<int32_t>& is, int32_t axis,
                                  int32_t batch_dims) {
  std::vector<int32_t> s(ps.begin(), ps.begin() + axis);
  s.insert(s.end(), is.begin() + batch_dims, is.end());
  s.insert(s.end(), ps.begin() + axis + 1, ps.end());
  return s;
}

tfl::Options gather_options(int32_t axis, int32_t batch_dims) {
  tfl::Options o;
  o.axis = axis;
  o.batch_dims = batch_dims;
  return o;
}

// Int8 model inputs of rank 1 to 4 gathered on every axis (negative ones
// too), batch_dims 0 up to the axis, positions of rank batch_dims to
// batch_dims + 2, repeated and in any order.
TEST(TfliteImport, GatherOfAnActivationOnEveryAxisAndBatchDims) {
  Rng rng(361);
  for (int trial = 0; trial < 80; ++trial) {
    const auto rank = static_cast<int32_t>(rng.uniform(1, 4));
    std::vector<int32_t> ps(static_cast<size_t>(rank));
    for (int32_t& d : ps) d = rng.uniform32(1, 5);
    const int32_t axis = rng.uniform32(0, rank - 1);
    const int32_t batch_dims = rng.uniform32(0, axis);
    std::vector<int32_t> is(ps.begin(), ps.begin() + batch_dims);
    const auto extra = static_cast<int32_t>(rng.uniform(batch_dims == 0 ? 1 : 0, 2));
    for (int32_t k = 0; k < extra; ++k) is.push_back(rng.uniform32(1, 4));
    const int32_t axis_option = rng.coin() ? axis - rank : axis;
    const auto index_rank = static_cast<int32_t>(is.size());
    const int32_t batch_option = batch_dims < index_rank && rng.coin() ? batch_dims - index_rank : batch_dims;
    const std::vector<int32_t> positions = random_positions(rng, ref::count(is), ps[static_cast<size_t>(axis)]);
    const std::vector<int32_t> ys = gather_shape(ps, is, axis, batch_dims);
    SCOPED_TRACE(shape_text(ps) + " by " + shape_text(is) + " axis " + std::to_string(axis_option) + " batch_dims " +
                 std::to_string(batch_option));
    TfliteBuilder b;
    const int32_t x = b.int8(ps, 0.1F, 3), idx = b.int32_constant(is, positions), y = b.int8(ys, 0.1F, 3);
    b.op(Builtin::Gather, {x, idx}, {y}, gather_options(axis_option, batch_option));
    const std::vector<int8_t> v = random_s8(rng, ref::count(ps));
    ImportedModel imported;
    EXPECT_EQ(run_imported(b.finish({x}, {y}), {as_bytes(v)}, &imported)[0],
              as_bytes(ref::gather(v, ps, positions, is, axis_option, batch_option)));
    EXPECT_EQ(imported.operators[0].became, "etns_ops::gather");
    EXPECT_EQ(imported.operators[0].instructions, 1);
  }
}

TEST(TfliteImport, GatherHandWorkedRowsReversedAndRepeated) {
  TfliteBuilder b;
  const int32_t x = b.int8({4, 3}, 0.5F, 0), idx = b.int32_constant({5}, {3, 2, 1, 0, 3}), y = b.int8({5, 3}, 0.5F, 0);
  b.op(Builtin::Gather, {x, idx}, {y}, gather_options(0, 0));
  const std::vector<int8_t> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, -128, 0, 127};
  EXPECT_EQ(run_one(b.finish({x}, {y}), {as_bytes(v)}),
            as_bytes(std::vector<int8_t>{-128, 0, 127, 7, 8, 9, 4, 5, 6, 1, 2, 3, -128, 0, 127}));
}

// A convolution's channels_last output gathered on each NHWC axis (batch_dims
// 0 and 1), read where it lies: one instruction, no copy between forms
// (but for one gathered channel).
TEST(TfliteImport, GatherAfterAConvolutionReadsChannelsLast) {
  Rng rng(362);
  const std::vector<int32_t> nhwc = {2, 3, 4, 5};
  std::vector<int8_t> identity(25, 0);
  for (int32_t i = 0; i < 5; ++i) identity[static_cast<size_t>(i * 5 + i)] = 1;
  for (int32_t axis = -4; axis < 4; ++axis) {
    for (int32_t batch_dims = 0; batch_dims <= 1; ++batch_dims) {
      const int32_t a = axis < 0 ? axis + 4 : axis;
      if (batch_dims > a) continue;
      SCOPED_TRACE("axis " + std::to_string(axis) + " batch_dims " + std::to_string(batch_dims));
      const auto n = static_cast<int32_t>(rng.uniform(1, 6));
      std::vector<int32_t> is = batch_dims == 1 ? std::vector<int32_t>{2, n} : std::vector<int32_t>{n};
      const std::vector<int32_t> positions = random_positions(rng, ref::count(is), nhwc[static_cast<size_t>(a)]);
      const std::vector<int32_t> ys = gather_shape(nhwc, is, a, batch_dims);
      TfliteBuilder b;
      const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({5, 1, 1, 5}, {1.0F}, 0, identity);
      const int32_t conv = b.int8(nhwc, 0.1F, 2), idx = b.int32_constant(is, positions);
      const int32_t y = b.int8(ys, 0.1F, 2), z = b.int8(ys, 0.1F, 2);
      b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
      b.op(Builtin::Gather, {conv, idx}, {y}, gather_options(axis, batch_dims));
      b.op(Builtin::Relu, {y}, {z});
      const std::vector<int8_t> v = random_s8(rng, ref::count(nhwc));
      ImportedModel imported;
      std::vector<int8_t> want = ref::gather(v, nhwc, positions, is, axis, batch_dims);
      for (int8_t& e : want) e = std::max<int8_t>(e, 2);
      EXPECT_EQ(run_imported(b.finish({in}, {z}), {as_bytes(v)}, &imported)[0], as_bytes(want));
      EXPECT_EQ(imported.operators[1].became, "etns_ops::gather");
      // One gathered channel ([N, H, W, 1]) has one dim order in both
      // forms, the input another: then it goes through the stored form.
      const bool one_channel = a == 3 && n == 1;
      if (!one_channel) {
        EXPECT_EQ(imported.operators[1].instructions, 1);
      }
    }
  }
  // Two position dims (rank 5 out) and batch_dims 2: through the stored form.
  TfliteBuilder b;
  const int32_t in = b.int8(nhwc, 0.1F, 2), w = b.weights({5, 1, 1, 5}, {1.0F}, 0, identity);
  const int32_t conv = b.int8(nhwc, 0.1F, 2);
  const std::vector<int32_t> is = {2, 3, 2};
  const std::vector<int32_t> positions = {0, 3, 1, 1, 2, 0, 3, 3, 0, 1, 2, 2};
  const int32_t idx = b.int32_constant(is, positions), y = b.int8({2, 3, 2, 5}, 0.1F, 2);
  b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
  b.op(Builtin::Gather, {conv, idx}, {y}, gather_options(2, 2));
  const std::vector<int8_t> v = random_s8(rng, ref::count(nhwc));
  EXPECT_EQ(run_one(b.finish({in}, {y}), {as_bytes(v)}), as_bytes(ref::gather(v, nhwc, positions, is, 2, 2)));
}

// A convolution's output gathered straight into a model output, and float32
// params (TFLM's other params type) gathered as they are.
TEST(TfliteImport, GatherIntoAModelOutputAndOfFloat32) {
  Rng rng(365);
  {
    const std::vector<int32_t> nhwc = {1, 4, 3, 6};
    std::vector<int8_t> identity(36, 0);
    for (int32_t i = 0; i < 6; ++i) identity[static_cast<size_t>(i * 6 + i)] = 1;
    TfliteBuilder b;
    const int32_t in = b.int8(nhwc, 0.1F, -1), w = b.weights({6, 1, 1, 6}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(nhwc, 0.1F, -1), idx = b.int32_constant({3}, {3, 0, 3});
    const int32_t y = b.int8({1, 3, 3, 6}, 0.1F, -1);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    b.op(Builtin::Gather, {conv, idx}, {y}, gather_options(1, 0));
    const std::vector<int8_t> v = random_s8(rng, ref::count(nhwc));
    EXPECT_EQ(run_one(b.finish({in}, {y}), {as_bytes(v)}),
              as_bytes(ref::gather(v, nhwc, std::vector<int32_t>{3, 0, 3}, {3}, 1, 0)));
  }
  {
    TfliteBuilder b;
    const int32_t x = b.float32({2, 3}), idx = b.int32_constant({2}, {2, 1}), y = b.float32({2, 2});
    b.op(Builtin::Gather, {x, idx}, {y}, gather_options(-1, 0));
    const std::vector<float> v = {1.5F, -2.0F, 3.25F, 0.0F, -0.5F, 1e20F};
    EXPECT_EQ(run_one(b.finish({x}, {y}), {as_bytes(v)}),
              as_bytes(ref::gather(v, {2, 3}, std::vector<int32_t>{2, 1}, {2}, -1, 0)));
  }
}

// Positions as a model input (an embedding lookup): right bytes in range, and
// a run that fails naming the position and the bound, as TFLM's Invoke fails.
TEST(TfliteImport, GatherOfComputedPositionsIsCheckedOnEveryRun) {
  Rng rng(363);
  TfliteBuilder b;
  const std::vector<int32_t> ps = {6, 20}, is = {2, 3};
  const int32_t table = b.int8_constant(ps, 0.05F, -4, random_s8(rng, 120));
  const int32_t idx = b.int8(is, 1.0F, 0), y = b.int8({2, 3, 20}, 0.05F, -4);
  b.tensor(idx).type = tfl::TensorType::Int32;
  b.tensor(idx).quantization = {};
  b.op(Builtin::Gather, {table, idx}, {y}, gather_options(0, 0));
  const tfl::Model model = b.finish({idx}, {y});
  const std::vector<int32_t> positions = {5, 0, 0, 3, 2, 5};
  std::vector<int8_t> params(b.tensor(table).data.size());
  std::memcpy(params.data(), b.tensor(table).data.data(), params.size());
  ImportedModel imported;
  EXPECT_EQ(run_imported(model, {as_bytes(positions)}, &imported)[0],
            as_bytes(ref::gather(params, ps, positions, is, 0, 0)));
  EXPECT_EQ(imported.operators[0].became, "etns_ops::gather");
  bool ok = true;
  ref::gather(params, ps, std::vector<int32_t>{5, 6, 0, 0, 0, 0}, is, 0, 0, &ok);
  EXPECT_FALSE(ok);
  std::string message;
  try {
    run_imported(model, {as_bytes(std::vector<int32_t>{5, 6, 0, 0, 0, 0})});
  } catch (const Failure& failure) {
    message = failure.what();
  }
  EXPECT_NE(message.find("etns_ops::gather.out: indices[1] = 6 is outside self's gathered dim, [0, 6)"),
            std::string::npos)
      << message;
}

TEST(TfliteImport, GatherOfConstantsIsFolded) {
  Rng rng(364);
  const std::vector<int32_t> ps = {3, 4, 2}, is = {3, 2};
  const std::vector<int8_t> v = random_s8(rng, 24);
  const std::vector<int32_t> positions = {3, 0, 0, 3, 2, 2};
  TfliteBuilder b;
  const int32_t table = b.int8_constant(ps, 0.1F, 0, v), idx = b.int32_constant(is, positions);
  const int32_t g = b.int8({3, 2, 2}, 0.1F, 0);
  const int32_t x = b.int8({3, 2, 2}, 0.1F, 0), y = b.int8({3, 2, 2}, 0.1F, 0);
  b.op(Builtin::Gather, {table, idx}, {g}, gather_options(1, 1));
  b.op(Builtin::Add, {x, g}, {y});
  ImportedModel imported;
  run_imported(b.finish({x}, {y}), {Bytes(12, 0)}, &imported);
  EXPECT_TRUE(imported.operators[0].folded);
  EXPECT_EQ(imported.operators[0].folded_value, as_bytes(ref::gather(v, ps, positions, is, 1, 1)));
}

TEST(TfliteImport, GatherRefusalsAreOneExactLine) {
  using Edit = std::function<void(TfliteBuilder&, int32_t&, int32_t&, int32_t&, tfl::Options&)>;
  const auto gather = [](const Edit& edit) {
    TfliteBuilder b;
    int32_t x = b.int8({3, 4}, 0.1F, 0), idx = b.int32_constant({2}, {2, 0}), y = b.int8({3, 2}, 0.1F, 0);
    tfl::Options o = gather_options(1, 0);
    edit(b, x, idx, y, o);
    b.op(Builtin::Gather, {x, idx}, {y}, o);
    return b.finish({x}, {y});
  };
  expect_refusals({
      {"int64 positions",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t& idx, int32_t&, tfl::Options&) {
           b.tensor(idx).type = tfl::TensorType::Int64;
           b.tensor(idx).data = Bytes(16, 0);
         });
       },
       "m.tflite: operator 0 (GATHER): tensor 1 (\"t1\") is int64: TFLM's GATHER takes int32 positions only"},
      {"int32 params",
       [&] {
         return gather([](TfliteBuilder& b, int32_t& x, int32_t&, int32_t& y, tfl::Options&) {
           b.tensor(x).type = tfl::TensorType::Int32;
           b.tensor(y).type = tfl::TensorType::Int32;
         });
       },
       "m.tflite: operator 0 (GATHER): tensor 0 (\"t0\") is int32: TFLM's GATHER takes int8 and float32 params"},
      {"output type",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t&, int32_t& y, tfl::Options&) {
           b.tensor(y).type = tfl::TensorType::Float32;
         });
       },
       "m.tflite: operator 0 (GATHER): input and output types differ"},
      {"axis", [&] { return gather([](TfliteBuilder&, int32_t&, int32_t&, int32_t&, tfl::Options& o) { o.axis = -3; }); },
       "m.tflite: operator 0 (GATHER): axis -3 outside [-2, 2)"},
      {"batch_dims past the positions",
       [&] { return gather([](TfliteBuilder&, int32_t&, int32_t&, int32_t&, tfl::Options& o) { o.batch_dims = 2; }); },
       "m.tflite: operator 0 (GATHER): batch_dims 2 outside [-1, 1] (the positions' rank)"},
      {"batch_dims above axis",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t& idx, int32_t& y, tfl::Options& o) {
           idx = b.int32_constant({3, 1}, {0, 0, 0});
           y = b.int8({3, 1, 4}, 0.1F, 0);
           o.axis = 0;
           o.batch_dims = 1;
         });
       },
       "m.tflite: operator 0 (GATHER): batch_dims 1 exceeds axis 0"},
      {"batch dims differ",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t& idx, int32_t& y, tfl::Options& o) {
           idx = b.int32_constant({2, 1}, {0, 0});
           y = b.int8({3, 1}, 0.1F, 0);
           o.batch_dims = 1;
         });
       },
       "m.tflite: operator 0 (GATHER): tensor 3 (\"t3\") has shape [2,1], its batch dim 0 differs from tensor 0 "
       "(\"t0\")'s [3,4]"},
      {"output shape",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t&, int32_t& y, tfl::Options&) {
           b.tensor(y).shape = {2, 3};
         });
       },
       "m.tflite: operator 0 (GATHER): tensor 2 (\"t2\") has shape [2,3], expected [3,2]"},
      {"position past the axis",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t& idx, int32_t&, tfl::Options&) {
           idx = b.int32_constant({2}, {1, 4});
         });
       },
       "m.tflite: operator 0 (GATHER): tensor 3 (\"t3\") holds 4 at position 1, outside [0, 4) (axis 1 of tensor 0 "
       "(\"t0\")): TFLM's GATHER fails Invoke on it"},
      {"negative position",
       [&] {
         return gather([](TfliteBuilder& b, int32_t&, int32_t& idx, int32_t& y, tfl::Options& o) {
           idx = b.int32_constant({2}, {-1, 0});
           y = b.int8({2, 4}, 0.1F, 0);
           o.axis = -2;
         });
       },
       "m.tflite: operator 0 (GATHER): tensor 3 (\"t3\") holds -1 at position 0, outside [0, 3) (axis 0 of tensor 0 "
       "(\"t0\")): TFLM's GATHER fails Invoke on it"},
  });
}

}  // namespace
}  // namespace etns::tools::import_test
