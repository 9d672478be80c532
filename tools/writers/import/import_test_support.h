#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tests/support/rng.h"
#include "tests/support/tflite_cases.h"
#include "tests/support/tflm_reference.h"
#include "tools/writers/import/tflite_import.h"
#include "tools/writers/tflite/tflite_test_writer.h"

// What the importer's tests share (tflite_import_test.cpp and
// builtins/<builtin>_test.cpp): each operator `etns import` maps, on small
// synthetic models written with the test writer; the imported program, run on
// the host, must give TFLite Micro's bytes, computed by
// tests/support/tflm_reference.h (TFLM's int8 reference kernels and Prepare
// arithmetic, written from the public sources). Every refusal is one exact line.
namespace etns::tools::import_test {

namespace tfl = tflite;
namespace ref = testing::tflm;
using testing::as_bytes;
using testing::conv_options;
using testing::pool_options;
using testing::random_s8;
using testing::Rng;
using testing::TfliteBuilder;
using tfl::Activation;
using tfl::Builtin;
using tfl::Padding;
using tfl::shape_text;

using Bytes = std::vector<uint8_t>;

// The model written, imported as `etns import` does (for `provider`) and run
// once on the host with that provider's kernels.
std::vector<Bytes> run_imported(const tfl::Model& model, const std::vector<Bytes>& inputs,
                                ImportedModel* imported_out = nullptr,
                                protocol::Provider provider = protocol::Provider::Arm);
Bytes run_one(const tfl::Model& model, const std::vector<Bytes>& inputs);

std::vector<int32_t> random_bias(Rng& rng, int32_t n, int32_t magnitude);

// A convolution case (CONV_2D, DEPTHWISE_CONV_2D).
struct ConvCase {
  std::vector<int32_t> input;  // NHWC
  int32_t kh, kw, cout;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  Padding padding;
  Activation activation;
  int32_t zp_in, zp_out;
  bool per_channel, bias;
  int32_t groups;
};
std::string describe(const ConvCase& c);

// ---- Refusals: one line each ----

struct Refusal {
  std::string name;
  std::function<tfl::Model()> model;
  std::string line;
};

// The one line import_tflite throws for the model, or "imported".
std::string refusal(const tfl::Model& model);
// Each refusal's model gives exactly its line.
void expect_refusals(const std::vector<Refusal>& refusals);

// A CONV_2D model: input t0 [1, 4, 4, 2], weights t1 [3, 3, 3, 2] per
// channel, output t2 [1, 2, 2, 3] (VALID, stride 1).
tfl::Model conv_model(const std::function<void(TfliteBuilder&, tfl::Options&)>& edit = nullptr);

// A one-operator model on int8 tensors of the given shapes (inputs first,
// then the output) and the given constant tensors appended as inputs.
tfl::Model one_op(Builtin builtin, const std::vector<std::vector<int32_t>>& shapes, tfl::Options options = {},
                  const std::function<void(TfliteBuilder&, std::vector<int32_t>&)>& constants = nullptr);

}  // namespace etns::tools::import_test
