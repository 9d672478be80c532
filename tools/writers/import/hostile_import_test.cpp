#include "tools/writers/import/import_test_support.h"

#include "tools/common/failure.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/program_check.h"

// `etns import` on hostile models: whatever the runtime (its loader, the
// kernels' prepare, the planned-memory budget) or TFLite Micro's Prepare
// would refuse, the import refuses first, in one line naming the file, the
// operator's index and builtin, and the tensor at fault.
namespace etns::tools::import_test {
namespace {

// The line import_program throws (the import, then the program loaded as
// the firmware loads it), or "imported".

std::string program_line(const tfl::Model& model) {
  try {
    (void)import_program(tfl::write_tflite(model), "m.tflite");
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "imported";
}

tfl::Model transpose_conv_stride(int32_t stride) {
  TfliteBuilder b;
  const int32_t shape = b.int32_constant({4}, {1, 2, 2, 1});
  const int32_t w = b.weights({1, 1, 1, 1}, {0.01F}, 0, {1});
  const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 2, 2, 1}, 0.1F, 0);
  b.op(Builtin::TransposeConv, {shape, w, in}, {out}, conv_options(Padding::Same, stride, stride, Activation::None));
  return b.finish({in}, {out});
}

// Each hostile model, named.
std::vector<std::pair<std::string, tfl::Model>> hostile_models() {
  std::vector<std::pair<std::string, tfl::Model>> cases;
  cases.push_back({"transpose_conv_stride_2p30", transpose_conv_stride(1 << 30)});
  cases.push_back({"conv_dilation_2p31", conv_model([](TfliteBuilder& b, tfl::Options& o) {
                     o.padding = Padding::Same;
                     o.dilation_h = 0x7fffffff;
                     b.tensor(2).shape = {1, 4, 4, 3};
                   })});
  cases.push_back({"average_pool_filter_2p31", one_op(Builtin::AveragePool2d, {{1, 4, 4, 2}, {1, 4, 4, 2}},
                                                      pool_options(Padding::Same, 0x7fffffff, 1, 1, 1, Activation::None))});
  cases.push_back({"max_pool_filter_2p31",
                   one_op(Builtin::MaxPool2d, {{1, 4, 4, 2}, {1, 4, 4, 2}},
                          pool_options(Padding::Same, 0x7fffffff, 0x7fffffff, 1, 1, Activation::None))});
  {
    TfliteBuilder b;
    const int32_t in = b.float32({1, 4}), out = b.int8({1, 4}, 1e-40F, 0);
    b.op(Builtin::Quantize, {in}, {out});
    cases.push_back({"quantize_denormal_scale", b.finish({in}, {out})});
  }
  cases.push_back({"conv_five_inputs", conv_model()});
  cases.back().second.operators[0].inputs = {0, 1, -1, 0, 0};
  {
    TfliteBuilder b;
    const int32_t in = b.int8({1, 4, 1, 2}, 0.1F, 0), out = b.int8({4, 2}, 0.1F, 0);
    tfl::Options o;
    o.squeeze_dims = {0, 7};
    b.op(Builtin::Squeeze, {in}, {out}, o);
    cases.push_back({"squeeze_dim_out_of_range", b.finish({in}, {out})});
  }
  {
    TfliteBuilder b;
    const int32_t in = b.int8({1, 4, 1, 2}, 0.1F, 0), out = b.int8({4, 2}, 0.1F, 0);
    tfl::Options o;
    o.squeeze_dims = {-3};
    b.op(Builtin::Squeeze, {in}, {out}, o);
    cases.push_back({"squeeze_dim_not_1", b.finish({in}, {out})});
  }
  {
    TfliteBuilder b;
    const int32_t in = b.int8(std::vector<int32_t>(10000, 1), 0.1F, 0), out = b.int8({1}, 0.1F, 0);
    b.op(Builtin::Relu, {in}, {out});
    cases.push_back({"rank_10000", b.finish({in}, {out})});
  }
  {
    TfliteBuilder b;
    const int32_t in = b.int8_constant({4}, 0.1F, 0, {1, 2, 3, 4}), out = b.int8({4}, 0.1F, 0);
    b.op(Builtin::Relu, {in}, {out});
    cases.push_back({"constant_model_input", b.finish({in}, {out})});
  }
  {
    TfliteBuilder b;
    const int32_t in = b.int8({4}, 0.1F, 0), out = b.int8({4}, 0.1F, 0);
    b.op(Builtin::Add, {in, out}, {out});
    cases.push_back({"add_reads_its_output", b.finish({in}, {out})});
  }
  cases.push_back({"conv_reads_its_output", conv_model([](TfliteBuilder& b, tfl::Options&) {
                     b.tensor(2).shape = {1, 4, 4, 2};
                   })});
  cases.back().second.operators[0].inputs = {2, 1};
  cases.push_back({"negative_weight_scale", conv_model([](TfliteBuilder& b, tfl::Options&) {
                     b.tensor(1).quantization.scales = {0.01F, -0.02F, 0.03F};
                   })});
  {
    TfliteBuilder b;
    const int32_t in = b.int8({1, 4}, 0.1F, 0), out = b.int8({1, 3}, 0.1F, 0);
    const int32_t w = b.weights({3, 4}, {-0.01F}, 0, std::vector<int8_t>(12, 1));
    b.op(Builtin::FullyConnected, {in, w, -1}, {out});
    cases.push_back({"fully_connected_negative_weight_scale", b.finish({in}, {out})});
  }
  {
    TfliteBuilder b;
    const int32_t in = b.int8({1, 4, 4, 2}, 0.1F, 0), out = b.int8({1, 2, 2, 2}, 0.1F, 0);
    const int32_t w = b.weights({1, 3, 3, 2}, {0.01F, -0.02F}, 3, std::vector<int8_t>(18, 1));
    tfl::Options o = conv_options(Padding::Valid, 1, 1, Activation::None);
    o.depth_multiplier = 1;
    b.op(Builtin::DepthwiseConv2d, {in, w}, {out}, o);
    cases.push_back({"depthwise_negative_weight_scale", b.finish({in}, {out})});
  }
  return cases;
}

// Every hostile model is refused by `etns import` with one line naming the
// file, the operator, its builtin and (where one is at fault) the tensor.
TEST(HostileImport, EachIsRefusedWithOneLineNamingTheOperator) {
  const std::string lines[] = {
      "m.tflite: operator 0 (TRANSPOSE_CONV): tensor \"op0_uncropped\" [1,1,1073741825,1073741825] needs "
      "1152921506754330625 bytes, more than the target's 4194304 bytes of planned memory",
      "m.tflite: operator 0 (CONV_2D): the runtime refuses its program: c0i0 cortex_m::quantized_conv2d.out: out "
      "height 4 with kernel 3, stride 1 and dilation 2147483647 reaches input index 4294967300, beyond int32",
      "m.tflite: operator 0 (AVERAGE_POOL_2D): the runtime refuses its program: c0i0 "
      "cortex_m::quantized_avg_pool2d.out: height: out 4 with stride 1 leaves int32",
      "m.tflite: operator 0 (MAX_POOL_2D): the runtime refuses its program: c0i0 cortex_m::quantized_max_pool2d.out: "
      "height: out 4 with stride 1 leaves int32",
      "m.tflite: operator 0 (QUANTIZE): the runtime refuses its program: c0i0 cortex_m::quantize_per_tensor.out: "
      "scale = 9.99995e-41, expected finite and > 0 with a finite float32 inverse",
      "m.tflite: operator 0 (CONV_2D): 5 inputs; TFLite Micro's CONV_2D takes 2 or 3",
      "m.tflite: operator 0 (SQUEEZE): squeeze_dims[1] = 7 is outside [-4, 4) for tensor 0 (\"t0\") of shape "
      "[1,4,1,2]",
      "m.tflite: operator 0 (SQUEEZE): squeeze_dims[0] = -3 names dimension 1 of tensor 0 (\"t0\") (shape "
      "[1,4,1,2]), which is not 1",
      "m.tflite: operator 0 (RELU): tensor 0 (\"t0\"), input 0, has rank 10000; a program's tensors have at most 16 "
      "dimensions",
      "m.tflite: operator 0 (RELU): tensor 0 (\"t0\"), input 0, is a model input with constant data: a caller "
      "cannot supply it",
      "m.tflite: operator 0 (ADD): tensor 1 (\"t1\"), input 1, is also its output: an operator cannot read what it "
      "writes",
      "m.tflite: operator 0 (CONV_2D): tensor 2 (\"t2\"), input 0, is also its output: an operator cannot read what "
      "it writes",
      "m.tflite: operator 0 (CONV_2D): tensor 1 (\"t1\"): weight scale -0.020000 is not positive",
      "m.tflite: operator 0 (FULLY_CONNECTED): tensor 2 (\"t2\"): weight scale -0.010000 is not positive",
      "m.tflite: operator 0 (DEPTHWISE_CONV_2D): tensor 2 (\"t2\"): weight scale -0.020000 is not positive",
  };
  const auto cases = hostile_models();
  ASSERT_EQ(cases.size(), std::size(lines));
  for (size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE(cases[k].first);
    EXPECT_EQ(program_line(cases[k].second), lines[k]);
  }
}

// The same models, each with one operator the import accepts before them:
// the refusal names the hostile operator's index, not the first one.
TEST(HostileImport, TheRefusalNamesTheOperatorsIndex) {
  TfliteBuilder b;
  const int32_t in = b.int8({1, 4, 4, 2}, 0.1F, 0), mid = b.int8({1, 4, 4, 2}, 0.1F, 0);
  const int32_t out = b.int8({1, 4, 4, 2}, 0.1F, 0);
  b.op(Builtin::Relu, {in}, {mid});
  b.op(Builtin::AveragePool2d, {mid}, {out}, pool_options(Padding::Same, 0x7fffffff, 1, 1, 1, Activation::None));
  EXPECT_EQ(program_line(b.finish({in}, {out})),
            "m.tflite: operator 1 (AVERAGE_POOL_2D): the runtime refuses its program: c0i3 "
            "cortex_m::quantized_avg_pool2d.out: height: out 4 with stride 1 leaves int32");
}

// FULLY_CONNECTED's int32 accumulator wraps as TFLM's does (and as CONV_2D's
// and DEPTHWISE_CONV_2D's): a bias near INT32_MAX plus 4 x 127 x 255 leaves
// int32, and the program gives TFLM's bytes rather than a refusal.
TEST(HostileImport, FullyConnectedAccumulatorWrapsAsTflm) {
  const std::vector<int8_t> x{127, 127, 127, 127}, weights(8, 127);
  const std::vector<int32_t> bias{2147483000, 0};
  TfliteBuilder b;
  const int32_t in = b.int8({1, 4}, 0.1F, -128);
  const int32_t w = b.weights({2, 4}, {0.01F}, 0, weights);
  const int32_t bt = b.int32_constant({2}, bias), out = b.int8({1, 2}, 0.5F, 3);
  b.op(Builtin::FullyConnected, {in, w, bt}, {out});
  const tfl::Model model = b.finish({in}, {out});
  const ref::Multiplier m = ref::product_multiplier(0.1F, 0.01F, 0.5F);
  const std::vector<int8_t> want = ref::fully_connected(x, 1, 4, weights, 2, bias, 128, 3, m, {-128, 127});
  // Unit 0 wraps to a large negative accumulator (-128; unwrapped it would
  // saturate at 127, as unit 1 does).
  EXPECT_EQ(want, (std::vector<int8_t>{-128, 127}));
  EXPECT_EQ(run_one(model, {as_bytes(x)}), as_bytes(want));
}

TEST(HostileImport, InstructionIdsAreReadFromTheRuntimesLine) {
  EXPECT_EQ(instruction_named("c0i12 cortex_m::add.out: x"), 12);
  EXPECT_EQ(instruction_named("value 3: rank 20"), -1);
  EXPECT_EQ(instruction_named("abc0i1 c1i7: y"), 7);
  EXPECT_EQ(instruction_named("c0i: no index"), -1);
}

}  // namespace
}  // namespace etns::tools::import_test
