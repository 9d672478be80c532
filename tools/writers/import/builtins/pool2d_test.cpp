#include "tools/writers/import/import_test_support.h"

#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/registry.h"
#include <tuple>

#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/writers/tflite/tflite_reader.h"

// AVERAGE_POOL_2D and MAX_POOL_2D.
namespace etns::tools::import_test {
namespace {

TEST(TfliteImport, PoolsMatchTflm) {
  struct Case {
    std::vector<int32_t> input;
    int32_t fh, fw, sh, sw;
    Padding padding;
    Activation activation;
    float scale;
    int32_t zp;
  };
  const Case cases[] = {
      {{1, 7, 6, 5}, 3, 3, 2, 2, Padding::Same, Activation::None, 0.1F, -9},
      {{1, 7, 6, 5}, 3, 3, 2, 2, Padding::Same, Activation::Relu, 0.1F, -9},
      {{2, 8, 5, 3}, 2, 3, 2, 1, Padding::Valid, Activation::Relu6, 0.05F, -100},
      {{1, 5, 9, 2}, 4, 2, 3, 3, Padding::Same, Activation::ReluN1To1, 0.02F, 15},
      {{1, 6, 6, 17}, 6, 6, 1, 1, Padding::Valid, Activation::None, 0.3F, 127},
      {{1, 10, 3, 4}, 5, 1, 4, 1, Padding::Same, Activation::Relu, 0.2F, 40},
  };
  Rng rng(106);
  for (const Case& c : cases) {
    for (const bool max : {false, true}) {
      SCOPED_TRACE(std::string(max ? "MAX_POOL_2D " : "AVERAGE_POOL_2D ") + shape_text(c.input) + " filter " +
                   std::to_string(c.fh) + "x" + std::to_string(c.fw) + " stride " + std::to_string(c.sh) + "x" +
                   std::to_string(c.sw) + " " + tfl::to_string(c.activation));
      const ref::Padded ph = ref::compute_padding(c.padding, c.input[1], c.fh, c.sh, 1);
      const ref::Padded pw = ref::compute_padding(c.padding, c.input[2], c.fw, c.sw, 1);
      const std::vector<int32_t> os{c.input[0], ph.out, pw.out, c.input[3]};
      const std::vector<int8_t> x = random_s8(rng, ref::count(c.input));
      TfliteBuilder b;
      const int32_t in = b.int8(c.input, c.scale, c.zp), out = b.int8(os, c.scale, c.zp);
      b.op(max ? Builtin::MaxPool2d : Builtin::AveragePool2d, {in}, {out},
           pool_options(c.padding, c.fh, c.fw, c.sh, c.sw, c.activation));
      ref::Pool p;
      p.input_shape = c.input;
      p.output_shape = os;
      p.filter_h = c.fh;
      p.filter_w = c.fw;
      p.stride_h = c.sh;
      p.stride_w = c.sw;
      p.pad_h = ph.pad;
      p.pad_w = pw.pad;
      p.range = ref::activation_range(c.activation, c.scale, c.zp);
      EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::pool(p, max, x)));
    }
  }
}

// TFLM accepts output scales within 1e-6 of the input's (the codes are
// copied); the clamp uses the output's.
TEST(TfliteImport, PoolAcceptsTflmsScaleTolerance) {
  Rng rng(107);
  const std::vector<int32_t> is{1, 4, 4, 2}, os{1, 2, 2, 2};
  const std::vector<int8_t> x = random_s8(rng, ref::count(is));
  TfliteBuilder b;
  const int32_t in = b.int8(is, 0.01F, 3), out = b.int8(os, 0.0100005F, 3);
  b.op(Builtin::AveragePool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::Relu));
  ref::Pool p;
  p.input_shape = is;
  p.output_shape = os;
  p.filter_h = p.filter_w = p.stride_h = p.stride_w = 2;
  p.range = ref::activation_range(Activation::Relu, 0.0100005F, 3);
  EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(ref::pool(p, false, x)));
}

TEST(TfliteImport, PoolRefusalsAreOneExactLine) {
  expect_refusals({
      {"pool channels",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 2}, 0.1F, 0), out = b.int8({1, 1, 1, 1}, 0.1F, 0);
         b.op(Builtin::MaxPool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (MAX_POOL_2D): batch or channels change"},
      {"pool zero points",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 1, 1, 1}, 0.1F, 1);
         b.op(Builtin::MaxPool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (MAX_POOL_2D): input and output quantisation differ (TFLite Micro's pool needs equal zero "
       "points and scales within 1e-6)"},
      {"pool scales beyond 1e-6",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({1, 2, 2, 1}, 0.1F, 0), out = b.int8({1, 1, 1, 1}, 0.100002F, 0);
         b.op(Builtin::AveragePool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, Activation::None));
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (AVERAGE_POOL_2D): input and output quantisation differ (TFLite Micro's pool needs equal "
       "zero points and scales within 1e-6)"},
  });
}

// Stock cortex_m::quantized_avg_pool2d reads none of zero_point, multiplier
// and shift (it clamps to -128..127): the imported program's bytes must not
// depend on them. Each fused activation narrower than int8 is its own clamp
// step after the pool; any values of the three give the same output.
TEST(TfliteImport, AveragePoolBytesIgnoreTheArgumentsStockIgnores) {
  Rng rng(116);
  for (const Activation activation : {Activation::None, Activation::Relu, Activation::Relu6}) {
    SCOPED_TRACE(tfl::to_string(activation));
    TfliteBuilder b;
    const int32_t in = b.int8({1, 4, 4, 3}, 0.05F, -20), out = b.int8({1, 2, 2, 3}, 0.05F, -20);
    b.op(Builtin::AveragePool2d, {in}, {out}, pool_options(Padding::Valid, 2, 2, 2, 2, activation));
    const tfl::Model model = b.finish({in}, {out});
    ImportedModel imported = import_tflite(tfl::read_tflite(tfl::write_tflite(model), "m.tflite"), "m.tflite");
    // The pool first; clamp steps (common.h clamp()) follow it exactly when
    // the activation narrows int8.
    ASSERT_FALSE(imported.graph.ops.empty());
    EXPECT_EQ(imported.graph.ops.front().op, "cortex_m::quantized_avg_pool2d");
    EXPECT_EQ(imported.graph.ops.size() > 1, activation != Activation::None);
    const std::vector<int8_t> x = random_s8(rng, 48);
    const auto run = [&](const QuantizedGraph& g) {
      const TemporaryDirectory dir("etns-pool-test");
      const std::string path = dir.path() + "/m.pte";
      const std::vector<uint8_t> pte = write_program(graph_to_program(g).model);
      write_file_atomic(path, pte.data(), pte.size());
      HostSession session(path, &kernels::registry_arm());
      session.set_input(0, as_bytes(x));
      session.execute();
      return session.output_bytes(0);
    };
    const Bytes reference = run(imported.graph);
    for (const auto& [zero_point, multiplier, shift] :
         {std::tuple<int64_t, int64_t, int64_t>{0, 0, -31}, {127, INT32_MAX, 30}, {-128, 1, 0}}) {
      QuantizedGraph g = imported.graph;
      GraphOp& pool = g.ops.front();
      pool.arg(cortex_m::kAvgPool2dContract, "zero_point") = GraphArg::integer(zero_point);
      pool.arg(cortex_m::kAvgPool2dContract, "multiplier") = GraphArg::integer(multiplier);
      pool.arg(cortex_m::kAvgPool2dContract, "shift") = GraphArg::integer(shift);
      EXPECT_EQ(run(g), reference) << zero_point << " " << multiplier << " " << shift;
    }
  }
}

}  // namespace
}  // namespace etns::tools::import_test
