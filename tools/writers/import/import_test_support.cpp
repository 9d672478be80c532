#include "tools/writers/import/import_test_support.h"

#include "kernels/registry.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/writers/import/import_program.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/tflite/tflite_reader.h"

namespace etns::tools::import_test {

std::vector<Bytes> run_imported(const tfl::Model& model, const std::vector<Bytes>& inputs,
                                ImportedModel* imported_out, protocol::Provider provider) {
  const ImportedProgram program = import_program(tfl::write_tflite(model), "m.tflite", provider);
  if (imported_out != nullptr) *imported_out = program.imported;
  const TemporaryDirectory dir("etns-import-test");
  const std::string path = dir.path() + "/m.pte";
  write_file_atomic(path, program.pte.data(), program.pte.size());
  HostSession session(path, provider == protocol::Provider::Ns ? &kernels::registry_ns() : &kernels::registry_arm());
  for (size_t i = 0; i < inputs.size(); ++i) session.set_input(i, inputs[i]);
  session.execute();
  std::vector<Bytes> outputs;
  for (size_t i = 0; i < session.method().output_count(); ++i) outputs.push_back(session.output_bytes(i));
  return outputs;
}

Bytes run_one(const tfl::Model& model, const std::vector<Bytes>& inputs) {
  const std::vector<Bytes> outputs = run_imported(model, inputs);
  EXPECT_EQ(outputs.size(), 1U);
  return outputs.empty() ? Bytes{} : outputs[0];
}

std::vector<int32_t> random_bias(Rng& rng, int32_t n, int32_t magnitude) {
  std::vector<int32_t> b(static_cast<size_t>(n));
  for (auto& v : b) v = rng.uniform32(-magnitude, magnitude);
  return b;
}

std::string describe(const ConvCase& c) {
  return "input " + shape_text(c.input) + " kernel " + std::to_string(c.kh) + "x" + std::to_string(c.kw) + " stride " +
         std::to_string(c.stride_h) + "x" + std::to_string(c.stride_w) + " dilation " + std::to_string(c.dilation_h) +
         "x" + std::to_string(c.dilation_w) + (c.padding == Padding::Same ? " SAME " : " VALID ") +
         tfl::to_string(c.activation);
}

std::string refusal(const tfl::Model& model) {
  try {
    import_tflite(tfl::read_tflite(tfl::write_tflite(model), "m.tflite"), "m.tflite");
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "imported";
}

void expect_refusals(const std::vector<Refusal>& refusals) {
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(refusal(r.model()), r.line);
  }
}

tfl::Model conv_model(const std::function<void(TfliteBuilder&, tfl::Options&)>& edit) {
  TfliteBuilder b;
  const int32_t in = b.int8({1, 4, 4, 2}, 0.1F, 0);
  const int32_t w = b.weights({3, 3, 3, 2}, {0.01F, 0.02F, 0.03F}, 0, std::vector<int8_t>(54, 1));
  const int32_t out = b.int8({1, 2, 2, 3}, 0.1F, 0);
  tfl::Options o = conv_options(Padding::Valid, 1, 1, Activation::None);
  if (edit) edit(b, o);
  b.op(Builtin::Conv2d, {in, w}, {out}, o);
  return b.finish({in}, {out});
}

tfl::Model one_op(Builtin builtin, const std::vector<std::vector<int32_t>>& shapes, tfl::Options options,
                  const std::function<void(TfliteBuilder&, std::vector<int32_t>&)>& constants) {
  TfliteBuilder b;
  std::vector<int32_t> ins;
  for (size_t i = 0; i + 1 < shapes.size(); ++i) ins.push_back(b.int8(shapes[i], 0.1F, 0));
  const int32_t out = b.int8(shapes.back(), 0.1F, 0);
  std::vector<int32_t> op_inputs = ins;
  if (constants) constants(b, op_inputs);
  b.op(builtin, op_inputs, {out}, options);
  return b.finish(ins, {out});
}

}  // namespace etns::tools::import_test
