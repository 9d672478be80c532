#include "tools/writers/program/pte_writer.h"

#include <gtest/gtest.h>

#include <cstring>

#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "runtime/pte/program_generated.h"
#include "tests/support/shared_data.h"
#include "tools/common/failure.h"
#include "tools/writers/program/program_test_util.h"
#include "tools/writers/program/memory_planner.h"

namespace etns::tools {
namespace {

using runtime::ScalarType;

uint64_t read_le(const std::vector<uint8_t>& bytes, size_t at, size_t n) {
  uint64_t value = 0;
  for (size_t i = 0; i < n; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

ModelTensor tensor(ScalarType dtype, std::vector<int32_t> sizes) {
  ModelTensor t;
  t.dtype = dtype;
  t.dim_order.resize(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) t.dim_order[d] = static_cast<uint8_t>(d);
  t.sizes = std::move(sizes);
  return t;
}

// Written from scratch: x -> quantize (scale 0.5, zero point 0) -> minimum
// with the int8 constant 50 -> dequantize, on [1,2,2,2].
ProgramModel minimum_program() {
  ProgramModel m;
  const int32_t x = m.add_value(ModelValue::tensor_value(tensor(ScalarType::Float, {1, 2, 2, 2})));
  const int32_t scale = m.add_value(ModelValue::real(0.5));
  const int32_t zero_point = m.add_value(ModelValue::integer(0));
  const int32_t qmin = m.add_value(ModelValue::integer(-128));
  const int32_t qmax = m.add_value(ModelValue::integer(127));
  const int32_t dtype = m.add_value(ModelValue::integer(static_cast<int64_t>(ScalarType::Char)));
  const int32_t q = m.add_value(ModelValue::tensor_value(tensor(ScalarType::Char, {1, 2, 2, 2})));
  ModelTensor fifty = tensor(ScalarType::Char, {});
  fifty.storage = TensorStorage::Constant;
  fifty.data = {50};
  const int32_t limit = m.add_value(ModelValue::tensor_value(fifty));
  const int32_t low = m.add_value(ModelValue::tensor_value(tensor(ScalarType::Char, {1, 2, 2, 2})));
  const int32_t y = m.add_value(ModelValue::tensor_value(tensor(ScalarType::Float, {1, 2, 2, 2})));
  m.inputs = {x};
  m.outputs = {y};
  const auto per_tensor = [&](const runtime::OperatorContract& contract, int32_t in, int32_t out) {
    return m.call(contract, {{"input", in},
                             {"scale", scale},
                             {"zero_point", zero_point},
                             {"quant_min", qmin},
                             {"quant_max", qmax},
                             {"dtype", dtype},
                             {"out", out}});
  };
  m.instructions.push_back(per_tensor(cortex_m::kQuantizeContract, x, q));
  m.instructions.push_back(
      m.call(cortex_m::kMinimumContract, {{"self", q}, {"other", limit}, {"out", low}}));
  m.instructions.push_back(per_tensor(cortex_m::kDequantizeContract, low, y));
  replan_memory(m);
  return m;
}

std::vector<uint8_t> floats_as_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(WriteProgram, AHandBuiltProgramLoadsAndRuns) {
  const ProgramModel model = minimum_program();
  // Lifetimes: x [-1,0] 32 B, q [0,1] 8 B, low [1,2] 8 B, y [2,3] 32 B. In
  // program order: x at 0, q at 32 (clear of x), low at 0 (x is dead), y at
  // 16 (clear of low; 16-byte alignment): 48 bytes, where largest first needs 64.
  EXPECT_EQ(model.non_const_buffer_sizes, (std::vector<int64_t>{0, 48}));
  EXPECT_EQ(model.values[6].tensor.offset, 32u);
  EXPECT_EQ(model.values[8].tensor.offset, 0u);
  EXPECT_EQ(model.values[9].tensor.offset, 16u);
  const std::vector<uint8_t> bytes = write_program(model);
  TemporaryDirectory dir("etns-export");
  const std::string path = export_test::write_temp(dir, "minimum.pte", bytes);

  const std::vector<float> x = {1.0f, 30.0f, -3.0f, 100.0f, 0.0f, 25.0f, 24.5f, -70.0f};
  // quantize: 2, 60, -6, 127 (saturated), 0, 50, 49, -128; min with 50; dequantize (x 0.5).
  const std::vector<float> want = {1.0f, 25.0f, -3.0f, 25.0f, 0.0f, 25.0f, 24.5f, -64.0f};
  for (const char* provider : {"arm", "ns"}) {
    EXPECT_EQ(export_test::run_once(path, provider, floats_as_bytes(x)), floats_as_bytes(want))
        << provider;
  }
  EXPECT_EQ(read_program(bytes), model);
}

TEST(WriteProgram, LaysOutHeaderAndConstantSegmentAsExecuTorchDoes) {
  ProgramModel model = minimum_program();
  // Three more constants: one a copy of the first (shared), two new ones.
  ModelTensor fifty = tensor(ScalarType::Char, {});
  fifty.storage = TensorStorage::Constant;
  fifty.data = {50};
  model.add_value(ModelValue::tensor_value(fifty));
  ModelTensor ints = tensor(ScalarType::Int, {5});
  ints.storage = TensorStorage::Constant;
  ints.data.assign(20, 7);
  model.add_value(ModelValue::tensor_value(ints));
  ModelTensor last = tensor(ScalarType::Char, {3});
  last.storage = TensorStorage::Constant;
  last.data = {1, 2, 3};
  model.add_value(ModelValue::tensor_value(last));

  const std::vector<uint8_t> file = write_program(model);
  ASSERT_GE(file.size(), 40u);
  EXPECT_EQ(std::memcmp(file.data() + 4, "ET12", 4), 0);
  EXPECT_EQ(std::memcmp(file.data() + 8, "eh00", 4), 0);
  EXPECT_EQ(read_le(file, 12, 4), 32u);
  const uint64_t program_size = read_le(file, 16, 8);
  const uint64_t segment_base = read_le(file, 24, 8);
  const uint64_t segment_size = read_le(file, 32, 8);
  EXPECT_EQ(segment_base % 128, 0u);
  EXPECT_GE(segment_base, program_size);
  EXPECT_LT(segment_base - program_size, 128u);
  EXPECT_EQ(file.size(), segment_base + segment_size);
  for (uint64_t i = program_size; i < segment_base; ++i) ASSERT_EQ(file[i], 0) << "padding at " << i;
  // Buffers: [0] placeholder, [1] 50 at 0, [2] twenty 7s at 16, [3] 1 2 3 at 48 (unpadded end).
  EXPECT_EQ(segment_size, 51u);
  const std::vector<uint8_t> segment(file.begin() + static_cast<ptrdiff_t>(segment_base), file.end());
  EXPECT_EQ(segment[0], 50);
  EXPECT_EQ(segment[16], 7);
  EXPECT_EQ(segment[35], 7);
  EXPECT_EQ(segment[48], 1);
  EXPECT_EQ(segment[50], 3);

  const auto* program = executorch_flatbuffer::GetProgram(file.data());
  const auto* offsets = program->constant_segment()->offsets();
  ASSERT_EQ(offsets->size(), 4u);
  EXPECT_EQ(offsets->Get(0), 0u);
  EXPECT_EQ(offsets->Get(1), 0u);
  EXPECT_EQ(offsets->Get(2), 16u);
  EXPECT_EQ(offsets->Get(3), 48u);
  const auto* values = program->execution_plan()->Get(0)->values();
  EXPECT_EQ(values->Get(7)->val_as_Tensor()->data_buffer_idx(), 1u);
  EXPECT_EQ(values->Get(10)->val_as_Tensor()->data_buffer_idx(), 1u);  // the copy shares buffer 1
  EXPECT_EQ(values->Get(11)->val_as_Tensor()->data_buffer_idx(), 2u);
  EXPECT_EQ(values->Get(12)->val_as_Tensor()->data_buffer_idx(), 3u);
  EXPECT_EQ(program->segments()->size(), 1u);
  EXPECT_EQ(program->segments()->Get(0)->size(), 51u);
  // The header is spliced in: the flatbuffer alone starts after it, and the root skips it.
  EXPECT_GE(read_le(file, 0, 4), 40u);
  EXPECT_EQ(read_program(file), model);
}

TEST(WriteProgram, WithoutConstantsWritesNoHeader) {
  ProgramModel model = minimum_program();
  // Replace the constant by a planned tensor filled... it cannot be filled, so
  // drop the minimum: quantize -> dequantize.
  model.instructions.erase(model.instructions.begin() + 1);
  // The dequantize (now instruction 1) reads the quantize's out.
  model.instructions[1].args[cortex_m::kDequantizeContract.arg("input").index] =
      model.instructions[0].args[cortex_m::kQuantizeContract.out().index];
  replan_memory(model);  // drops the constant and the minimum's output
  const std::vector<uint8_t> file = write_program(model);
  EXPECT_EQ(std::memcmp(file.data() + 4, "ET12", 4), 0);
  EXPECT_NE(std::memcmp(file.data() + 8, "eh00", 4), 0);
  const auto* program = executorch_flatbuffer::GetProgram(file.data());
  ASSERT_EQ(program->segments()->size(), 1u);
  EXPECT_EQ(program->segments()->Get(0)->size(), 0u);
  ASSERT_EQ(program->constant_segment()->offsets()->size(), 1u);
  EXPECT_EQ(program->execution_plan()->Get(0)->delegates()->size(), 0u);

  TemporaryDirectory dir("etns-export");
  const std::string path = export_test::write_temp(dir, "roundtrip.pte", file);
  const std::vector<float> x = {1.0f, 30.0f, -3.0f, 100.0f, 0.0f, 25.0f, 24.5f, -70.0f};
  const std::vector<float> want = {1.0f, 30.0f, -3.0f, 63.5f, 0.0f, 25.0f, 24.5f, -64.0f};
  EXPECT_EQ(export_test::run_once(path, "arm", floats_as_bytes(x)), floats_as_bytes(want));
}

TEST(WriteProgram, IsDeterministic) {
  const ProgramModel model = minimum_program();
  const std::vector<uint8_t> first = write_program(model);
  EXPECT_EQ(write_program(model), first);
  EXPECT_EQ(write_program(minimum_program()), first);  // an equal model built again
  EXPECT_EQ(write_program(read_program(first)), first);  // a fixed point of read + write
}

TEST(WriteProgram, SharedProgramsAreWrittenDeterministically) {
  ETNS_REQUIRE_SHARED(shared);
  for (const export_test::SharedProgram& p : export_test::kSharedPrograms) {
    SCOPED_TRACE(p.name);
    const ProgramModel model = read_program(testing::read_file(export_test::pte_path(shared, p)));
    const std::vector<uint8_t> first = write_program(model);
    EXPECT_EQ(write_program(model), first);
    EXPECT_EQ(write_program(read_program(first)), first);
  }
}

TEST(WriteProgram, RefusesAModelTheFormatCannotExpress) {
  ProgramModel model = minimum_program();
  model.values[7].tensor.data = {50, 51};  // a 0-dim int8 holds one byte
  EXPECT_THROW(
      {
        try {
          write_program(model);
        } catch (const Failure& failure) {
          EXPECT_STREQ(failure.what(), "value 7: constant tensor of 1 bytes holds 2 bytes of data");
          throw;
        }
      },
      Failure);
  model = minimum_program();
  model.values[6].tensor.offset = 60;  // bytes [60, 68) pass the 64-byte arena
  EXPECT_THROW(write_program(model), Failure);
  model = minimum_program();
  model.values[1].kind = runtime::ValueKind::None;
  EXPECT_THROW(write_program(model), Failure);
}

}  // namespace
}  // namespace etns::tools
