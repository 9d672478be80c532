#include <filesystem>

#include "kernels/registry.h"
#include "tests/support/shared_data.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/import_test_support.h"
#include "tools/writers/import/tensor_compare.h"

// SHAPE, folded at import; the shape arithmetic after it (STRIDED_SLICE,
// PACK) feeding a RESHAPE, as converters write a Flatten's inverse; and the
// real model that needs it.
namespace etns::tools::import_test {
namespace {

// x [1, 5, 8, 1] through FULLY_CONNECTED-free arithmetic: SHAPE(x) ->
// STRIDED_SLICE(begin 0, end 1, stride 1, shrink 1) -> PACK(with 5, 8, 1) ->
// the shape input of RESHAPE(x', ...), x' a [1, 40] view of x.
tfl::Model shape_chain(int32_t pack_axis_extra) {
  TfliteBuilder b;
  const int32_t x = b.int8({1, 5, 8, 1}, 0.1F, 1), flat = b.int8({1, 40}, 0.1F, 1);
  const int32_t shape = b.int8({2}, 0.1F, 0), batch = b.int8({}, 0.1F, 0), packed = b.int8({4}, 0.1F, 0);
  for (int32_t t : {shape, batch, packed}) b.tensor(t).type = tfl::TensorType::Int32;
  const int32_t y = b.int8({1, 5, 8, 1}, 0.1F, 1);
  b.op(Builtin::Reshape, {x, b.int32_constant({2}, {1, 40})}, {flat});
  b.op(Builtin::Shape, {flat}, {shape});
  tfl::Options ss;
  ss.shrink_axis_mask = 1;
  b.op(Builtin::StridedSlice, {shape, b.int32_constant({1}, {0}), b.int32_constant({1}, {1}), b.int32_constant({1}, {1})},
       {batch}, ss);
  tfl::Options pack;
  pack.values_count = 4;
  pack.axis = pack_axis_extra;
  b.op(Builtin::Pack, {batch, b.int32_constant({}, {5}), b.int32_constant({}, {8}), b.int32_constant({}, {1})}, {packed},
       pack);
  b.op(Builtin::Reshape, {flat, packed}, {y});
  return b.finish({x}, {y});
}

TEST(TfliteImport, ShapeStridedSliceAndPackFoldIntoAReshapesShape) {
  Rng rng(77);
  const std::vector<int8_t> x = random_s8(rng, 40);
  for (int32_t axis : {0, -1}) {
    SCOPED_TRACE("pack axis " + std::to_string(axis));
    ImportedModel imported;
    const std::vector<Bytes> out = run_imported(shape_chain(axis), {as_bytes(x)}, &imported);
    EXPECT_EQ(out.at(0), as_bytes(x));
    ASSERT_EQ(imported.operators.size(), 5U);
    EXPECT_EQ(imported.operators[1].folded_value, as_bytes(std::vector<int32_t>{1, 40}));  // the input's dims
    EXPECT_EQ(imported.operators[2].folded_value, as_bytes(std::vector<int32_t>{1}));
    EXPECT_EQ(imported.operators[3].folded_value, as_bytes(std::vector<int32_t>{1, 5, 8, 1}));
    for (size_t k = 1; k <= 3; ++k) {
      EXPECT_TRUE(imported.operators[k].folded);
      EXPECT_EQ(imported.operators[k].instructions, 0);
      EXPECT_EQ(imported.operators[k].instruction, -1);
      EXPECT_EQ(imported.operators[k].became, kFoldedAtImport);
    }
    EXPECT_FALSE(imported.operators[4].folded);
    EXPECT_EQ(imported.operators[4].instruction, 1);  // the RESHAPEs are the only instructions
  }
}

TEST(TfliteImport, ShapeOfAConstant) {
  TfliteBuilder b;
  const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({6}, 0.1F, 0);
  const int32_t weights = b.int8_constant({3, 1, 2}, 0.1F, 0, {1, 2, 3, 4, 5, 6});
  const int32_t s1 = b.int8({3}, 0.1F, 0);
  b.tensor(s1).type = tfl::TensorType::Int32;
  b.op(Builtin::Shape, {weights}, {s1});
  b.op(Builtin::Reshape, {x}, {y});
  ImportedModel imported;
  run_imported(b.finish({x}, {y}), {Bytes(6, 1)}, &imported);
  EXPECT_EQ(imported.operators[0].folded_value, as_bytes(std::vector<int32_t>{3, 1, 2}));
}

// A folded value compared with a reference file, as compare-tensors does.
TEST(TfliteImport, CompareTensorsComparesAFoldedValueWithItsReference) {
  ImportedModel imported;
  Rng rng(3);
  run_imported(shape_chain(0), {as_bytes(random_s8(rng, 40))}, &imported);
  const TemporaryDirectory dir("etns-fold-compare");
  const Bytes shape = as_bytes(std::vector<int32_t>{1, 40}), packed = as_bytes(std::vector<int32_t>{1, 5, 9, 1});
  write_file_atomic(dir.path() + "/" + reference_file_name(1, 2), shape.data(), shape.size());
  write_file_atomic(dir.path() + "/" + reference_file_name(3, 4), packed.data(), packed.size());
  const std::vector<TensorComparison> rows = compare_tensors(imported, dir.path(), dir.path());
  EXPECT_TRUE(rows[1].exact);
  EXPECT_EQ(format_comparison(rows[1]), "op   1 SHAPE              t2: bit-exact (2 elements, folded at import)");
  EXPECT_FALSE(rows[3].exact);
  EXPECT_EQ(format_comparison(rows[3]),
            "op   3 PACK               t4: max |diff| 1, first at element 2 of 4, folded at import");
}

TEST(TfliteImport, ShapeRefusalsAreOneExactLine) {
  expect_refusals({
      {"int64 output",
       [] {
         TfliteBuilder b;
         const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({2}, 0.1F, 0);
         b.tensor(y).type = tfl::TensorType::Int64;
         b.op(Builtin::Shape, {x}, {y});
         return b.finish({x}, {y});
       },
       "m.tflite: operator 0 (SHAPE): tensor 1 (\"t1\") is int64: TFLM's SHAPE writes int32 only"},
      {"wrong length",
       [] {
         TfliteBuilder b;
         const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({3}, 0.1F, 0), z = b.int8({6}, 0.1F, 0);
         b.tensor(y).type = tfl::TensorType::Int32;
         b.op(Builtin::Shape, {x}, {y});
         b.op(Builtin::Reshape, {x}, {z});
         return b.finish({x}, {z});
       },
       "m.tflite: operator 0 (SHAPE): tensor 1 (\"t1\") has shape [3], expected [2] (the input's rank)"},
      {"a model output",
       [] {
         TfliteBuilder b;
         const int32_t x = b.int8({2, 3}, 0.1F, 0), y = b.int8({2}, 0.1F, 0);
         b.tensor(y).type = tfl::TensorType::Int32;
         b.op(Builtin::Shape, {x}, {y});
         return b.finish({x}, {y});
       },
       "m.tflite: operator 0 (SHAPE): tensor 1 (\"t1\") is a model output: its value is known at import, and a "
       "program cannot return a constant as an output"},
  });
}

// The MLTK anomaly-detection autoencoder ends in SHAPE -> STRIDED_SLICE ->
// PACK -> RESHAPE: imported, run on the host on both reference inputs, every
// operator's output (the three folded ones included) equals TFLM's.
TEST(TfliteImport, AnomalyDetectionMltkIsBitExactOnBothRuns) {
  ETNS_REQUIRE_SHARED(shared);
  const std::string base = shared + "/models/real-tflite/anomaly_detection_mltk";
  if (!std::filesystem::is_regular_file(base + ".tflite")) GTEST_SKIP() << base << ".tflite is absent";
  const ImportedProgram p = import_program(read_file(base + ".tflite"), "anomaly_detection_mltk.tflite");
  const TemporaryDirectory dir("etns-anomaly");
  write_file_atomic(dir.path() + "/m.pte", p.pte.data(), p.pte.size());
  for (const char* run : {"A", "B"}) {
    SCOPED_TRACE(std::string("run ") + run);
    HostSession session(dir.path() + "/m.pte", &kernels::registry_arm());
    session.set_input(0, read_file(base + "." + run + ".input.bin"));
    struct Capture {
      const runtime::Method* method;
      std::string dir;
      static void after(void* user, size_t index) {
        auto* self = static_cast<Capture*>(user);
        const std::vector<uint8_t> bytes = tensor_bytes(*self->method->instruction_output(index));
        write_file_atomic(self->dir + "/c0i" + std::to_string(index) + ".bin", bytes.data(), bytes.size());
      }
    } capture{&session.method(), dir.path()};
    runtime::ExecuteHooks hooks;
    hooks.user = &capture;
    hooks.after_instruction = &Capture::after;
    session.execute(&hooks);
    EXPECT_EQ(session.output_bytes(0), read_file(base + "." + run + ".out.bin"));
    size_t exact = 0, folded = 0;
    for (const TensorComparison& row : compare_tensors(p.imported, dir.path(), base + "." + run + ".tensors")) {
      EXPECT_TRUE(row.exact) << format_comparison(row);
      exact += row.exact ? 1 : 0;
      folded += row.folded ? 1 : 0;
    }
    EXPECT_EQ(exact, 17U);
    EXPECT_EQ(folded, 3U);
  }
}

}  // namespace
}  // namespace etns::tools::import_test
