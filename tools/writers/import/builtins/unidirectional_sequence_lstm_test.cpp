#include "kernels/registry.h"
#include "tests/support/shared_data.h"
#include "tests/support/tflm_lstm_reference.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/import/import_test_support.h"

// UNIDIRECTIONAL_SEQUENCE_LSTM: etns_ops::lstm_s8 against an independent
// implementation of TFLM's integer LSTM (tests/support/tflm_lstm_reference.h),
// on synthetic models and on TFLM's micro_speech_lstm example.
namespace etns::tools::import_test {
namespace {

struct Case {
  const char* what;
  int32_t batches, steps, n_input, n_state;
  bool time_major;
  float cell_clip;
  float weight_scale;  // large: the gates saturate
  int32_t zp_in, zp_hidden;
  int32_t cell_power;  // the cell state's scale is 2^cell_power
};

const Case kCases[] = {
    {"one batch, one step", 1, 1, 8, 4, false, 0.0F, 0.01F, -128, -1, -11},
    {"one batch, several steps", 1, 7, 12, 9, false, 0.0F, 0.02F, 3, 5, -11},
    {"batches, batch major", 3, 5, 10, 6, false, 0.0F, 0.02F, -20, -1, -11},
    {"batches, time major", 3, 5, 10, 6, true, 0.0F, 0.02F, -20, -1, -11},
    {"cell clip", 2, 6, 16, 8, false, 0.5F, 0.05F, 0, 0, -11},
    {"cell clip, time major", 2, 6, 16, 8, true, 0.3F, 0.05F, 7, -3, -12},
    {"saturating gates", 2, 4, 16, 8, false, 0.0F, 2.0F, -128, 0, -10},
    {"saturating gates with clip", 1, 5, 20, 12, true, 1.0F, 1.0F, 0, 10, -9},
    {"fine cell grid", 2, 4, 6, 5, false, 0.0F, 0.03F, 1, -2, -15},
};

// A case's LSTM: random weights and biases, the scales it names.
ref::Lstm make(const Case& c, uint64_t seed) {
  Rng rng(seed);
  ref::Lstm m;
  m.batches = c.batches;
  m.steps = c.steps;
  m.n_input = c.n_input;
  m.n_state = c.n_state;
  m.time_major = c.time_major;
  m.s_in = 0.05F;
  m.zp_in = c.zp_in;
  m.s_hidden = 1.0F / 128.0F;
  m.zp_hidden = c.zp_hidden;
  m.s_cell = std::ldexp(1.0F, c.cell_power);
  m.cell_clip = c.cell_clip;
  for (int g = 0; g < 4; ++g) {
    m.s_w[g] = c.weight_scale * (1.0F + 0.1F * static_cast<float>(g));
    m.s_r[g] = c.weight_scale * (1.3F - 0.1F * static_cast<float>(g));
    m.w[g] = random_s8(rng, static_cast<size_t>(c.n_state * c.n_input));
    m.r[g] = random_s8(rng, static_cast<size_t>(c.n_state * c.n_state));
    m.bias[g] = random_bias(rng, c.n_state, 3000);
  }
  return m;
}

// The TFLite model of `m`, as the converter writes it: 24 inputs (the
// optional ones -1), the state in two variable tensors, five intermediates.
tfl::Model lstm_model(const ref::Lstm& m, const std::function<void(TfliteBuilder&, tfl::Operator&)>& edit = nullptr) {
  TfliteBuilder b;
  const std::vector<int32_t> in_shape = m.time_major ? std::vector<int32_t>{m.steps, m.batches, m.n_input}
                                                     : std::vector<int32_t>{m.batches, m.steps, m.n_input};
  const int32_t x = b.int8(in_shape, m.s_in, m.zp_in);
  std::vector<int32_t> inputs(24, -1);
  inputs[0] = x;
  for (int g = 0; g < 4; ++g) inputs[static_cast<size_t>(1 + g)] = b.weights({m.n_state, m.n_input}, {m.s_w[g]}, 0, m.w[g]);
  for (int g = 0; g < 4; ++g) inputs[static_cast<size_t>(5 + g)] = b.weights({m.n_state, m.n_state}, {m.s_r[g]}, 0, m.r[g]);
  for (int g = 0; g < 4; ++g) inputs[static_cast<size_t>(12 + g)] = b.int32_constant({m.n_state}, m.bias[g]);
  const int32_t h = b.int8({m.batches, m.n_state}, m.s_hidden, m.zp_hidden);
  b.tensor(h).is_variable = true;
  const int32_t c = b.int8({m.batches, m.n_state}, m.s_cell, 0);
  b.tensor(c).type = tfl::TensorType::Int16;
  b.tensor(c).is_variable = true;
  inputs[18] = h;
  inputs[19] = c;
  std::vector<int32_t> intermediates;
  for (int i = 0; i < 5; ++i) {
    const int32_t t = b.int8({}, i < 4 ? 1.0F / 4096.0F : m.s_hidden, 0);
    if (i < 4) b.tensor(t).type = tfl::TensorType::Int16;
    intermediates.push_back(t);
  }
  const std::vector<int32_t> out_shape = {in_shape[0], in_shape[1], m.n_state};
  const int32_t y = b.int8(out_shape, m.s_hidden, m.zp_hidden);
  tfl::Options o;
  o.activation = Activation::Tanh;
  o.cell_clip = m.cell_clip;
  o.time_major = m.time_major;
  tfl::Operator& op = b.op(Builtin::UnidirectionalSequenceLstm, inputs, {y}, o);
  op.intermediates = intermediates;
  if (edit) edit(b, op);
  return b.finish({x}, {y});
}

TEST(TfliteImport, UnidirectionalSequenceLstmMatchesTflm) {
  uint64_t seed = 0x6c73746d;  // "lstm"
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    const ref::Lstm m = make(c, ++seed);
    Rng rng(seed * 7);
    const std::vector<int8_t> x =
        random_s8(rng, static_cast<size_t>(c.batches) * static_cast<size_t>(c.steps) * static_cast<size_t>(c.n_input));
    ref::LstmState state = ref::lstm_reset(m);
    const std::vector<int8_t> want = ref::lstm(m, x, state);
    EXPECT_EQ(run_one(lstm_model(m), {as_bytes(x)}), as_bytes(want));
  }
}

// TFLM keeps the state between Invoke calls: one loaded method, executed
// twice, gives the first and the second invoke's outputs. reset_state()
// starts a new sequence, and the runners (HostSession::execute, the firmware)
// start every run there.
TEST(TfliteImport, UnidirectionalSequenceLstmCarriesStateBetweenExecutions) {
  for (const Case& c : {kCases[2], kCases[5]}) {
    SCOPED_TRACE(c.what);
    const ref::Lstm m = make(c, 99);
    Rng rng(5);
    const size_t n = static_cast<size_t>(c.batches) * static_cast<size_t>(c.steps) * static_cast<size_t>(c.n_input);
    const std::vector<int8_t> x1 = random_s8(rng, n), x2 = random_s8(rng, n);
    ref::LstmState state = ref::lstm_reset(m);
    const std::vector<int8_t> want1 = ref::lstm(m, x1, state);
    const std::vector<int8_t> want2 = ref::lstm(m, x2, state);
    ref::LstmState fresh = ref::lstm_reset(m);
    const std::vector<int8_t> first_of_x2 = ref::lstm(m, x2, fresh);
    ASSERT_NE(want2, first_of_x2) << "the case does not show the state";

    const ImportedProgram program = import_program(tfl::write_tflite(lstm_model(m)), "m.tflite");
    const TemporaryDirectory dir("etns-lstm-test");
    const std::string path = dir.path() + "/m.pte";
    write_file_atomic(path, program.pte.data(), program.pte.size());
    HostSession session(path, &kernels::registry_arm());
    session.set_input(0, as_bytes(x1));
    ASSERT_EQ(session.method().execute(), runtime::Error::Ok);
    EXPECT_EQ(session.output_bytes(0), as_bytes(want1));
    session.set_input(0, as_bytes(x2));
    ASSERT_EQ(session.method().execute(), runtime::Error::Ok);
    EXPECT_EQ(session.output_bytes(0), as_bytes(want2));
    ASSERT_EQ(session.method().reset_state(), runtime::Error::Ok);
    session.set_input(0, as_bytes(x2));
    ASSERT_EQ(session.method().execute(), runtime::Error::Ok);
    EXPECT_EQ(session.output_bytes(0), as_bytes(first_of_x2)) << "reset_state starts a new sequence";
    session.set_input(0, as_bytes(x2));
    session.execute();
    session.set_input(0, as_bytes(x2));
    session.execute();
    EXPECT_EQ(session.output_bytes(0), as_bytes(first_of_x2)) << "each run of the runner is a first one";
  }
}

TEST(TfliteImport, UnidirectionalSequenceLstmRefusalsAreOneExactLine) {
  const ref::Lstm m = make(kCases[2], 1);
  const std::string op = "m.tflite: operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): ";
  expect_refusals({
      {"float input",
       [&] {
         return lstm_model(m, [](TfliteBuilder& b, tfl::Operator& o) {
           b.tensor(o.inputs[0]).type = tfl::TensorType::Float32;
           b.tensor(o.inputs[0]).has_quantization = false;
         });
       },
       op + "tensor 0 (\"t0\") is float32: only the int8 LSTM is supported (float, hybrid and 16x8 LSTMs are not)"},
      {"peephole",
       [&] { return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.inputs[10] = o.inputs[13]; }); },
       op + "input 10 (a peephole weight) is given: TFLite Micro's LSTM has no peepholes"},
      {"projection",
       [&] { return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.inputs[16] = o.inputs[5]; }); },
       op + "input 16 (projection) is given: TFLite Micro's LSTM has no projection"},
      {"layer norm",
       [&] { return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.inputs[21] = o.inputs[13]; }); },
       op + "input 21 (layer norm) is given: TFLite Micro's LSTM has no layer norm"},
      {"CIFG",
       [&] { return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.inputs[1] = o.inputs[5] = -1; }); },
       op + "input 1 or 5 (the input gate's weights) is missing: CIFG LSTMs are not supported (nor by TFLite Micro)"},
      {"relu",
       [&] { return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.options.activation = Activation::Relu; }); },
       op + "fused_activation_function RELU: TFLite Micro's LSTM computes the cell gate with TANH only"},
      {"diagonal",
       [&] {
         return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.options.diagonal_recurrent_tensors = true; });
       },
       op + "diagonal_recurrent_tensors is set: TFLite Micro's LSTM has no such path"},
      {"state not variable",
       [&] {
         return lstm_model(m, [](TfliteBuilder& b, tfl::Operator& o) { b.tensor(o.inputs[18]).is_variable = false; });
       },
       op + "tensor 13 (\"t13\") is not a variable tensor (TFLite Micro keeps the LSTM's state in one)"},
      {"cell state int8",
       [&] {
         return lstm_model(m, [](TfliteBuilder& b, tfl::Operator& o) {
           b.tensor(o.inputs[19]).type = tfl::TensorType::Int8;
         });
       },
       op + "tensor 14 (\"t14\") is int8, expected int16"},
      {"cell scale not below 1",
       [&] {
         return lstm_model(m, [](TfliteBuilder& b, tfl::Operator& o) {
           b.tensor(o.inputs[19]).quantization.scales = {4.0F};
         });
       },
       op + "cell state scale 4.000000 is 2^2, expected 2^-30 .. 2^0"},
      {"cell clip below one step",
       [&] { return lstm_model(m, [](TfliteBuilder&, tfl::Operator& o) { o.options.cell_clip = 1.0e-5F; }); },
       op + "cell_clip 0.000010 is below one cell state step (0.000488): TFLite Micro would clip the cell state to 0"},
      {"per-channel weights",
       [&] {
         return lstm_model(m, [](TfliteBuilder& b, tfl::Operator& o) {
           tfl::Tensor& w = b.tensor(o.inputs[2]);
           w.quantization.scales.assign(6, 0.02F);
           w.quantization.zero_points.assign(6, 0);
         });
       },
       op + "tensor 2 (\"t2\") has no per-tensor quantisation (one scale and one zero point)"},
      {"wrong weight shape",
       [&] {
         return lstm_model(m, [](TfliteBuilder& b, tfl::Operator& o) { b.tensor(o.inputs[6]).shape = {3, 12}; });
       },
       op + "tensor 6 (\"t6\") has shape [3,12], expected [6,6]"},
  });
}

// TFLM's micro_speech_lstm example: both recorded runs, every operator.
TEST(TfliteImport, MicroSpeechLstmIsBitExact) {
  ETNS_REQUIRE_SHARED(shared);
  const std::string base = shared + "/models/real-tflite/micro_speech_lstm";
  const ImportedProgram program = import_program(read_file(base + ".tflite"), "micro_speech_lstm.tflite");
  const TemporaryDirectory dir("etns-lstm-test");
  const std::string path = dir.path() + "/m.pte";
  write_file_atomic(path, program.pte.data(), program.pte.size());
  for (const char* run : {"A", "B"}) {
    SCOPED_TRACE(run);
    HostSession session(path, &kernels::registry_arm());
    session.set_input(0, read_file(base + "." + run + ".input.bin"));
    std::vector<uint8_t> lstm_out;
    runtime::ExecuteHooks hooks;
    struct Capture {
      HostSession* session;
      std::vector<uint8_t>* bytes;
    } capture{&session, &lstm_out};
    hooks.user = &capture;
    hooks.after_instruction = [](void* user, size_t i) {
      auto* c = static_cast<Capture*>(user);
      if (i != 0) return;
      const runtime::Tensor* t = c->session->method().instruction_output(0);
      const auto* bytes = static_cast<const uint8_t*>(t->data);
      c->bytes->assign(bytes, bytes + t->nbytes);
    };
    session.execute(&hooks);
    EXPECT_EQ(lstm_out, read_file(base + "." + run + ".tensors/op000_t23.bin"));
    EXPECT_EQ(session.output_bytes(0), read_file(base + "." + run + ".out.bin"));
  }
}

}  // namespace
}  // namespace etns::tools::import_test
