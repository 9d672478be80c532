#include "tools/writers/program/program_model.h"

#include <gtest/gtest.h>

#include "tests/support/shared_data.h"
#include "tools/common/failure.h"
#include "tools/writers/program/program_test_util.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/inspect/describe.h"

namespace etns::tools {
namespace {

using export_test::kSharedPrograms;
using runtime::ValueKind;

uint64_t read_u64(const std::vector<uint8_t>& bytes, size_t at) {
  uint64_t value = 0;
  for (size_t i = 0; i < 8; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

// What `etns inspect --json` says, minus what legitimately differs between
// two serializations of one program: the path, hash, file size and where the
// flatbuffer ends.
nlohmann::json inspect_facts(const std::string& path) {
  HostSession session(path, nullptr);
  nlohmann::json facts = describe_program(session);
  for (const char* key : {"path", "sha256", "size_bytes", "extended_header"}) facts.erase(key);
  return facts;
}

// The constant segment's bytes (empty without an extended header).
std::vector<uint8_t> constant_segment(const std::vector<uint8_t>& file) {
  if (file.size() < 40 || std::memcmp(file.data() + 8, "eh00", 4) != 0) return {};
  const uint64_t base = read_u64(file, 24);
  const uint64_t size = read_u64(file, 32);
  return std::vector<uint8_t>(file.begin() + static_cast<ptrdiff_t>(base),
                              file.begin() + static_cast<ptrdiff_t>(base + size));
}

TEST(ReadProgram, ReadsTheSharedProgramsAsTheSpecDescribesThem) {
  ETNS_REQUIRE_SHARED(shared);
  const ProgramModel arm = read_program(testing::read_file(shared + "/models/tier1/tier1_arm.pte"));
  EXPECT_EQ(arm.method_name, "forward");
  EXPECT_EQ(arm.values.size(), 92u);
  EXPECT_EQ(arm.instructions.size(), 12u);
  EXPECT_EQ(arm.inputs, std::vector<int32_t>{19});
  EXPECT_EQ(arm.outputs, std::vector<int32_t>{86});
  EXPECT_EQ(arm.non_const_buffer_sizes, (std::vector<int64_t>{0, 196608}));
  ASSERT_EQ(arm.operators.size(), 8u);
  EXPECT_EQ(arm.operators[1].name, "cortex_m::quantized_conv2d");
  EXPECT_EQ(arm.operators[1].overload, "out");
  // c0i2: minimum(v26, v18) -> v40, with the duplicate return slot.
  EXPECT_EQ(arm.instructions[2].op_index, 2u);
  EXPECT_EQ(arm.instructions[2].args, (std::vector<int32_t>{26, 18, 40, 40}));
  // v18: the 0-dim int8 constant 50.
  const ModelValue& v18 = arm.values[18];
  ASSERT_EQ(v18.kind, ValueKind::Tensor);
  EXPECT_EQ(v18.tensor.storage, TensorStorage::Constant);
  EXPECT_EQ(v18.tensor.dtype, runtime::ScalarType::Char);
  EXPECT_TRUE(v18.tensor.sizes.empty());
  EXPECT_EQ(v18.tensor.data, std::vector<uint8_t>{50});
  // v47: FLOAT [1,16,32,32] channels_last, planned at 131072.
  const ModelTensor& v47 = arm.values[47].tensor;
  EXPECT_EQ(v47.storage, TensorStorage::Planned);
  EXPECT_EQ(v47.dim_order, (std::vector<uint8_t>{0, 2, 3, 1}));
  EXPECT_EQ(v47.memory_id, 1u);
  EXPECT_EQ(v47.offset, 131072u);
  EXPECT_EQ(v47.nbytes(), 65536u);
  // v74: the leaky_relu slope, a Double; v85: clamp's max, a Null; v29: an IntList of indices.
  EXPECT_EQ(arm.values[74].kind, ValueKind::Double);
  EXPECT_EQ(arm.values[74].double_value, 0.125);
  EXPECT_EQ(arm.values[85].kind, ValueKind::Null);
  EXPECT_EQ(arm.values[29].kind, ValueKind::IntList);
  EXPECT_EQ(arm.values[29].items, (std::vector<int64_t>{27, 28}));
  EXPECT_FALSE(arm.encoded_inp_str.empty());

  const ProgramModel mean = read_program(testing::read_file(shared + "/models/tier1/tier1mean_ns.pte"));
  EXPECT_EQ(mean.values.size(), 24u);
  EXPECT_EQ(mean.values[9].int_value, 0);  // field absent in the file: the default
  EXPECT_EQ(mean.values[14].kind, ValueKind::Bool);
  EXPECT_TRUE(mean.values[14].bool_value);
  EXPECT_EQ(mean.values[13].items, (std::vector<int64_t>{9, 10, 11, 12}));
}

// read -> write -> our loader: the same program, the same facts, the same outputs.
TEST(ProgramRoundTrip, SharedProgramsSurviveReadAndWrite) {
  ETNS_REQUIRE_SHARED(shared);
  TemporaryDirectory dir("etns-export");
  for (const export_test::SharedProgram& p : kSharedPrograms) {
    SCOPED_TRACE(p.name);
    const std::string original_path = export_test::pte_path(shared, p);
    const std::vector<uint8_t> original = testing::read_file(original_path);
    const ProgramModel model = read_program(original);
    const std::vector<uint8_t> written = write_program(model);
    const std::string written_path = export_test::write_temp(dir, std::string(p.name) + ".pte", written);

    // The model of the written file is the model we wrote: every value
    // (kinds, numbers, shapes, dim orders, constant bytes, planned offsets),
    // operator, instruction, input, output and the plan sizes.
    EXPECT_EQ(read_program(written), model);
    EXPECT_EQ(inspect_facts(written_path), inspect_facts(original_path));
    // Constants are laid out as ExecuTorch lays them out: the segment is byte-identical.
    EXPECT_EQ(constant_segment(written), constant_segment(original));
    EXPECT_EQ(written.size() > 8 && std::memcmp(written.data() + 8, "eh00", 4) == 0,
              std::memcmp(original.data() + 8, "eh00", 4) == 0);

    const std::vector<uint8_t> input = testing::read_file(export_test::input_path(shared, p));
    const std::vector<uint8_t> want = export_test::run_once(original_path, p.provider, input);
    const std::vector<uint8_t> got = export_test::run_once(written_path, p.provider, input);
    ASSERT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want) << "outputs differ";
  }
}

std::string failure_message(const std::vector<uint8_t>& bytes) {
  try {
    read_program(bytes, "bad.pte");
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "(no failure)";
}

TEST(ReadProgram, RefusesWhatTheLoaderRefusesWithItsMessage) {
  EXPECT_NE(failure_message({}).find("bad.pte: "), std::string::npos);
  EXPECT_NE(failure_message({}).find("a .pte has at least 8"), std::string::npos);

  std::vector<uint8_t> wrong_id = {16, 0, 0, 0, 'E', 'T', '1', '1', 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(failure_message(wrong_id).find("another schema version"), std::string::npos)
      << failure_message(wrong_id);
  std::vector<uint8_t> not_pte = {16, 0, 0, 0, 'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(failure_message(not_pte).find("not an ExecuTorch program"), std::string::npos);
}

TEST(ReadProgram, RefusesCorruptedSharedPrograms) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> good = testing::read_file(shared + "/models/tier1/tier1_arm.pte");

  std::vector<uint8_t> truncated(good.begin(), good.begin() + 9000);  // segments cut off
  EXPECT_NE(failure_message(truncated).find("past the file"), std::string::npos)
      << failure_message(truncated);

  std::vector<uint8_t> bad_root = good;
  bad_root[0] = 0xff;
  bad_root[1] = 0xff;
  EXPECT_NE(failure_message(bad_root).find("root table offset"), std::string::npos)
      << failure_message(bad_root);

  std::vector<uint8_t> short_header = good;
  short_header[12] = 16;  // extended header length below 24
  EXPECT_NE(failure_message(short_header).find("extended header length 16"), std::string::npos)
      << failure_message(short_header);

  // The flatbuffer verifier: a vector length pointing past the program.
  // The flatbuffer verifier: the Program table's vtable offset sent far away.
  std::vector<uint8_t> corrupt = good;
  const uint32_t root = uint32_t{corrupt[0]} | uint32_t{corrupt[1]} << 8 |
                        uint32_t{corrupt[2]} << 16 | uint32_t{corrupt[3]} << 24;
  corrupt[root + 3] = 0x7f;
  EXPECT_NE(failure_message(corrupt).find("bad.pte: flatbuffer verification failed"),
            std::string::npos)
      << failure_message(corrupt);
}

TEST(ReadProgram, RefusesAMethodTheLoaderRefuses) {
  // The format allows a tensor with neither constant data nor a plan (its data
  // is supplied at run time); our loader does not, and read_program says so.
  ProgramModel model;
  ModelTensor t;
  t.dtype = runtime::ScalarType::Float;
  t.sizes = {4};
  t.dim_order = {0};
  t.storage = TensorStorage::Unplanned;
  model.inputs = {model.add_value(ModelValue::tensor_value(t))};
  model.outputs = model.inputs;
  const std::string message = failure_message(write_program(model));
  EXPECT_NE(message.find("bad.pte: "), std::string::npos) << message;
  EXPECT_NE(message.find("value 0: tensor has neither constant data nor a memory plan"),
            std::string::npos)
      << message;
}

TEST(CheckModel, NamesWhatIsWrong) {
  ProgramModel model;
  model.non_const_buffer_sizes = {0, 64};
  ModelTensor t;
  t.dtype = runtime::ScalarType::Char;
  t.sizes = {2, 2};
  t.dim_order = {0, 1};
  t.storage = TensorStorage::Constant;
  t.data = {1, 2, 3};  // 4 bytes expected
  model.add_value(ModelValue::tensor_value(t));
  auto message = [&]() -> std::string {
    try {
      check_model(model);
    } catch (const Failure& failure) {
      return failure.what();
    }
    return "(no failure)";
  };
  EXPECT_EQ(message(), "value 0: constant tensor of 4 bytes holds 3 bytes of data");
  model.values[0].tensor.data.push_back(4);
  EXPECT_EQ(message(), "(no failure)");
  model.values[0].tensor.dim_order = {1, 1};
  EXPECT_EQ(message(), "value 0: dim_order is not a permutation of 0..1");
  model.values[0].tensor.dim_order = {1, 0};
  model.values[0].tensor.storage = TensorStorage::Planned;
  model.values[0].tensor.memory_id = 1;
  model.values[0].tensor.offset = 62;
  EXPECT_EQ(message(), "value 0: bytes [62, 66) exceed planned arena 1 of 64 bytes");
  model.values[0].tensor.offset = 60;
  model.add_value(ModelValue::int_list({0}));
  EXPECT_EQ(message(), "value 1 item 0: names value 0 of kind Tensor, expected Int");
  model.values[1] = ModelValue::integer(3);
  model.operators.push_back({"cortex_m::minimum", "out"});
  model.instructions.push_back({1, {0, 0}});
  EXPECT_EQ(message(), "instruction c0i0: op_index 1, expected < 1");
  model.instructions[0] = {0, {0, 2}};
  EXPECT_EQ(message(), "instruction c0i0 argument 1: value index 2, expected < 2");
  model.instructions[0] = {0, {0, 0}};
  model.outputs = {1};
  EXPECT_EQ(message(), "output 0: value 1 is not a non-constant tensor");
}

}  // namespace
}  // namespace etns::tools
