#include "tools/writers/import/import_test_support.h"

// The importer as a whole: the end-to-end set, models with several inputs
// and outputs, and the refusals of the walk and the context (unknown
// builtins, tensors read before written or written twice, empty tensors).
namespace etns::tools::import_test {
namespace {

// ---- The end-to-end set, in process ----

TEST(TfliteImport, EveryEndToEndCaseMatchesTflmOnTheHost) {
  for (const testing::ImportCase& c : testing::tflite_import_cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(run_imported(c.model, c.inputs), c.outputs);
  }
}

// ---- Models with several inputs and outputs ----

TEST(TfliteImport, InputsAndOutputsKeepTheModelsOrder) {
  Rng rng(117);
  const std::vector<int32_t> s{1, 2, 3, 4};
  const std::vector<int8_t> x = random_s8(rng, 24), y = random_s8(rng, 24);
  TfliteBuilder b;
  const int32_t a = b.int8(s, 0.1F, 0), c = b.int8(s, 0.1F, 0);
  const int32_t lo = b.int8(s, 0.1F, 0), hi = b.int8(s, 0.1F, 0);
  b.op(Builtin::Minimum, {a, c}, {lo});
  b.op(Builtin::Maximum, {a, c}, {hi});
  // The model lists its inputs and outputs in the other order than they are
  // made: the method follows the model.
  const tfl::Model model = b.finish({c, a}, {hi, lo});
  EXPECT_EQ(run_imported(model, {as_bytes(y), as_bytes(x)}),
            (std::vector<Bytes>{as_bytes(ref::min_max(true, x, s, y, s, s)), as_bytes(ref::min_max(false, x, s, y, s, s))}));
}

TEST(TfliteImport, EachRefusalIsOneExactLine) {
  const std::string c0 = "m.tflite: operator 0 (CONV_2D): ";
  expect_refusals({
      {"unsupported operator",
       [] { return one_op(static_cast<Builtin>(200), {{4}, {4}, {4}}); },
       "m.tflite: operator 0 (BUILTIN_200): no cortex_m:: operator computes it like TFLite Micro"},
      {"custom operator",
       [] {
         tfl::Model m = one_op(Builtin::Sub, {{4}, {4}});
         m.operators[0].builtin = static_cast<int32_t>(Builtin::Custom);
         m.operators[0].custom_code = "MyOp";
         m.operators[0].builtin_options_type = 0;
         m.operators[0].options = {};
         return m;
       },
       "m.tflite: operator 0 (CUSTOM): custom operator \"MyOp\" has no cortex_m:: equivalent"},
      {"uint8 tensors",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 3}, 0.1F, 0), out = b.int8({6}, 0.1F, 0);
         b.tensor(in).type = tfl::TensorType::UInt8;
         b.tensor(out).type = tfl::TensorType::UInt8;
         b.op(Builtin::Reshape, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESHAPE): tensor 0 (\"t0\") is uint8: only int8, int32 and float32 tensors are imported"},
      {"BATCH_MATMUL empty",
       [] { return one_op(Builtin::BatchMatmul, {{2, 0, 4}, {2, 4, 6}, {2, 0, 6}}); },
       "m.tflite: operator 0 (BATCH_MATMUL): tensor 0 (\"t0\"), input 0, has no elements (shape [2,0,4])"},
      {"convolution input without channels",
       [] { return conv_model([](TfliteBuilder& b, tfl::Options&) { b.tensor(0).shape = {1, 4, 4, 0}; }); },
       c0 + "tensor 0 (\"t0\"), input 0, has no elements (shape [1,4,4,0])"},
      {"empty output",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 3}, 0.1F, 0), out = b.int8({6, 0}, 0.1F, 0);
         b.op(Builtin::Reshape, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESHAPE): tensor 1 (\"t1\"), the output, has no elements (shape [6,0])"},
      {"two outputs",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.operators[0].outputs.push_back(1);
         return m;
       },
       "m.tflite: operator 0 (ADD): 2 outputs, expected 1"},
      {"missing input",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.operators[0].inputs[1] = -1;
         return m;
       },
       "m.tflite: operator 0 (ADD): input 1 is missing"},
      {"read before written",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.inputs = {0};
         return m;
       },
       "m.tflite: operator 0 (ADD): tensor 1 (\"t1\") is read before any operator writes it"},
      {"written twice",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.operators.push_back(m.operators[0]);
         return m;
       },
       "m.tflite: operator 1 (ADD): tensor 2 (\"t2\") is written twice (or is a model input or a constant)"},
      {"an input that is an output",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.outputs = {2, 0};
         return m;
       },
       "m.tflite: tensor 0 is both a model input and a model output"},
      {"no output",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}});
         m.outputs.clear();
         return m;
       },
       "m.tflite: the model has no input or no output"},
      {"unread input",
       [] {
         tfl::Model m = one_op(Builtin::Add, {{4}, {4}, {4}, {4}});
         m.operators[0].inputs = {0, 1};
         m.operators[0].outputs = {3};
         m.inputs = {0, 1, 2};
         m.outputs = {3};
         return m;
       },
       "m.tflite: model input tensor 2 (\"t2\") is read by no operator"},
  });
}

// A model with several problems gets them all at once: an unsupported
// builtin once with its count and first index, every other refusal on its
// own line; an operator reading a refused output is not guessed at.
TEST(TfliteImport, RefusalsNameEveryProblemAtOnce) {
  const auto unknown = static_cast<Builtin>(200);
  TfliteBuilder b;
  const std::vector<int32_t> s{4};
  const int32_t in = b.int8(s, 0.1F, 0), t1 = b.int8(s, 0.1F, 0), t2 = b.int8(s, 0.1F, 0);
  const int32_t t3 = b.int8(s, 0.1F, 0), t4 = b.int8(s, 0.1F, 0), t5 = b.int8(s, 0.1F, 0);
  b.op(Builtin::Add, {in, in}, {t1});
  b.op(unknown, {t1}, {t2});
  b.op(Builtin::Add, {t2, t2}, {t3});  // reads a refused output
  b.op(unknown, {t3}, {t4});
  tfl::Options tanh;
  tanh.present = true;
  tanh.activation = tfl::Activation::Tanh;
  b.op(Builtin::Add, {t1, t1}, {t5}, tanh);
  const tfl::Model m = b.finish({in}, {t4, t5});
  EXPECT_EQ(refusal(m),
            "m.tflite: operator 1 (BUILTIN_200): no cortex_m:: operator computes it like TFLite Micro "
            "(2 BUILTIN_200 operators; this is the first)\n"
            "m.tflite: operator 4 (ADD): fused activation TANH has no clamp form (only NONE, RELU, RELU6 and RELU_N1_TO_1 "
            "are imported)");
}

}  // namespace
}  // namespace etns::tools::import_test
