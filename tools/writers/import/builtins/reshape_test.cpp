#include "tools/writers/import/import_test_support.h"

#include <cstring>

#include "kernels/portable/clone/clone.h"
#include "kernels/portable/permute_copy/permute_copy.h"
#include "kernels/portable/to_dim_order_copy/to_dim_order_copy.h"
#include "kernels/portable/view_copy/view_copy.h"
#include "tests/support/shared_data.h"
#include "tools/common/files.h"
#include "tools/writers/tflite/tflite_reader.h"

// RESHAPE and SQUEEZE.
namespace etns::tools::import_test {
namespace {

// RESHAPE and SQUEEZE of a convolution's [1, H, W, C] output with H, W, C > 1:
// its bytes are NHWC, so the stored form is the channels_last one through the
// contiguous [N, C, H, W] (a _to_dim_order_copy, then a permute_copy), then a
// view. Identity 1x1 convolutions keep the codes.
TEST(TfliteImport, ReshapeAndSqueezeOfAConvolutionOutputKeepTheNhwcBytes) {
  struct Case {
    std::vector<int32_t> conv, reshaped;
    bool squeeze;
  };
  const Case cases[] = {
      {{1, 3, 2, 4}, {1, 24}, false}, {{1, 3, 2, 4}, {6, 4}, false}, {{1, 2, 5, 3}, {2, 15}, false},
      {{1, 1, 5, 3}, {5, 3}, true},   {{1, 4, 1, 1}, {4}, true},     {{1, 2, 3, 2}, {12}, false},
      {{1, 1, 1, 1}, {}, false},  // a scalar: RESHAPE's new_shape has no elements
  };
  Rng rng(114);
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_text(c.conv) + " -> " + shape_text(c.reshaped) + (c.squeeze ? " SQUEEZE" : " RESHAPE"));
    const int32_t cin = c.conv[3];
    std::vector<int8_t> identity(static_cast<size_t>(cin * cin), 0);
    for (int32_t i = 0; i < cin; ++i) identity[static_cast<size_t>(i * cin + i)] = 1;
    const std::vector<int8_t> x = random_s8(rng, ref::count(c.conv));
    TfliteBuilder b;
    const int32_t in = b.int8(c.conv, 0.1F, 2), w = b.weights({cin, 1, 1, cin}, {1.0F}, 0, identity);
    const int32_t conv = b.int8(c.conv, 0.1F, 2);
    b.op(Builtin::Conv2d, {in, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
    // TFLM copies the bytes whatever the output's quantisation says.
    const int32_t out = b.int8(c.reshaped, 0.4F, -3);
    if (c.squeeze) {
      b.op(Builtin::Squeeze, {conv}, {out});
    } else {
      const int32_t shape = b.int32_constant({static_cast<int32_t>(c.reshaped.size())}, c.reshaped);
      b.op(Builtin::Reshape, {conv, shape}, {out});
    }
    EXPECT_EQ(run_one(b.finish({in}, {out}), {as_bytes(x)}), as_bytes(x));
  }
}

TEST(TfliteImport, ReshapeRefusalsAreOneExactLine) {
  expect_refusals({
      {"RESHAPE element count",
       [] {
         return one_op(Builtin::Reshape, {{2, 3}, {7}}, {}, [](TfliteBuilder& b, std::vector<int32_t>& in) {
           in.push_back(b.int32_constant({1}, {7}));
         });
       },
       "m.tflite: operator 0 (RESHAPE): reshapes 6 elements into 7"},
      {"RESHAPE types",
       [] {
         TfliteBuilder b;
         const int32_t in = b.int8({2, 3}, 0.1F, 0), out = b.float32({6});
         b.op(Builtin::Reshape, {in}, {out});
         return b.finish({in}, {out});
       },
       "m.tflite: operator 0 (RESHAPE): input and output types differ"},
  });
}

// What stock ExecuTorch's portable data-movement kernels accept of a call's
// dim orders (kernels/portable/cpu/op_view_copy.cpp, op_permute_copy.cpp,
// op_clone.cpp, op__to_dim_order_copy.cpp): "" or why not.
bool is_default(const GraphTensor& t) {
  for (size_t i = 0; i < t.dim_order.size(); ++i) {
    if (t.dim_order[i] != i) return false;
  }
  return true;
}
bool is_channels_last(const GraphTensor& t) {
  return t.dim_order == std::vector<uint8_t>{0, 2, 3, 1} || t.dim_order == std::vector<uint8_t>{0, 2, 3, 4, 1};
}
std::string stock_refusal(const QuantizedGraph& g, const GraphOp& op) {
  const auto tensor = [&](const runtime::OperatorContract& contract, const char* name) -> const GraphTensor& {
    return g.tensors.at(static_cast<size_t>(op.arg(contract, name).tensor));
  };
  const auto same_family = [](const GraphTensor& a, const GraphTensor& b) {
    return (is_default(a) && is_default(b)) || (is_channels_last(a) && is_channels_last(b));
  };
  const std::string name = op.full_name();
  if (name == portable::kViewCopyContract.name) {
    const GraphTensor& self = tensor(portable::kViewCopyContract, "self");
    const GraphTensor& out = tensor(portable::kViewCopyContract, "out");
    if (!is_default(self) || !is_default(out)) return "view_copy " + self.name + " -> " + out.name + " not in the default dim order";
  } else if (name == portable::kPermuteCopyContract.name) {
    const GraphTensor& self = tensor(portable::kPermuteCopyContract, "self");
    const GraphTensor& out = tensor(portable::kPermuteCopyContract, "out");
    if (!same_family(self, out)) return "permute_copy " + self.name + " -> " + out.name + " mixes dim orders";
  } else if (name == portable::kCloneContract.name) {
    if (!same_family(tensor(portable::kCloneContract, "self"), tensor(portable::kCloneContract, "out"))) return "clone mixes dim orders";
  } else if (name == portable::kToDimOrderCopyContract.name) {
    const GraphTensor& self = tensor(portable::kToDimOrderCopyContract, "self");
    const GraphTensor& out = tensor(portable::kToDimOrderCopyContract, "out");
    const GraphArg& order = op.arg(portable::kToDimOrderCopyContract, "dim_order");
    if (self.sizes != out.sizes) return "_to_dim_order_copy changes sizes";
    if (order.kind == runtime::ValueKind::Null ? out.dim_order != self.dim_order
                                               : std::vector<int64_t>(out.dim_order.begin(), out.dim_order.end()) != order.int_list ||
                                                     !(is_default(out) || is_channels_last(out))) {
      return "_to_dim_order_copy's dim_order is not out's";
    }
  }
  return "";
}

// Every portable data-movement call the importer writes for the MLPerf Tiny
// and real-tflite models is one stock ExecuTorch's portable kernels accept;
// kws, vww and ic flatten their global pool with one view_copy of a tensor in
// the default dim order (no permute, no extra copy).
TEST(TfliteImport, ImportedModelsMoveDataAsStockExecuTorchAccepts) {
  ETNS_REQUIRE_SHARED(shared);
  struct Model {
    const char* folder;
    const char* name;
    int view_copies;  // -1: not pinned
  };
  const Model models[] = {{"mlperf-tiny", "kws", 1},
                          {"mlperf-tiny", "vww", 1},
                          {"mlperf-tiny", "ic", 1},
                          {"mlperf-tiny", "ad", -1},
                          {"real-tflite", "micro_speech", -1},
                          {"real-tflite", "ds_cnn_s", -1},
                          {"real-tflite", "person_detect", -1},
                          {"real-tflite", "anomaly_detection_mltk", -1}};
  for (const Model& m : models) {
    SCOPED_TRACE(m.name);
    const std::string path = shared + "/models/" + m.folder + "/" + m.name + ".tflite";
    const ImportedModel imported = import_tflite(tfl::read_tflite(read_file(path), path), path);
    int view_copies = 0, other_copies = 0;
    for (const GraphOp& op : imported.graph.ops) {
      EXPECT_EQ(stock_refusal(imported.graph, op), "");
      if (op.full_name() == portable::kViewCopyContract.name) {
        ++view_copies;
      } else if (op.op.rfind("aten::", 0) == 0 || op.op.rfind("dim_order_ops::", 0) == 0) {
        ++other_copies;
      }
    }
    if (m.view_copies >= 0) {
      EXPECT_EQ(view_copies, m.view_copies);
      EXPECT_EQ(other_copies, 0);
    }
  }
}

// A flat input reshaped to [1, H, W, 1] for a convolution (micro_speech,
// ds_cnn_s, kws): both forms are the same bytes, so the RESHAPE writes the
// convolution's input itself, one view_copy, with no permute.
TEST(TfliteImport, ReshapeToOneChannelFeedsTheConvolutionWithOneViewCopy) {
  Rng rng(115);
  const std::vector<int8_t> x = random_s8(rng, 24);
  TfliteBuilder b;
  const int32_t in = b.int8({1, 24}, 0.1F, 2);
  const int32_t shape = b.int32_constant({4}, {1, 4, 6, 1});
  const int32_t r = b.int8({1, 4, 6, 1}, 0.1F, 2);
  b.op(Builtin::Reshape, {in, shape}, {r});
  const int32_t w = b.weights({1, 1, 1, 1}, {1.0F}, 0, {1});
  const int32_t conv = b.int8({1, 4, 6, 1}, 0.1F, 2);
  b.op(Builtin::Conv2d, {r, w}, {conv}, conv_options(Padding::Valid, 1, 1, Activation::None));
  ImportedModel imported;
  const std::vector<Bytes> out = run_imported(b.finish({in}, {conv}), {as_bytes(x)}, &imported);
  EXPECT_EQ(out.at(0), as_bytes(x));
  std::vector<std::string> ops;
  for (const GraphOp& op : imported.graph.ops) ops.push_back(op.op);
  EXPECT_EQ(ops, (std::vector<std::string>{"aten::view_copy", "cortex_m::quantized_conv2d"}));
}

}  // namespace
}  // namespace etns::tools::import_test
