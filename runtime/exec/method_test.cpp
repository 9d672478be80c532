#include "runtime/exec/method.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/registry.h"
#include "tests/support/log_capture.h"
#include "tests/support/shared_data.h"

namespace etns::runtime {
namespace {

using testing::LogCapture;


// One program with host-owned memory of chosen sizes.
struct Fixture {
  std::vector<uint8_t> file;
  std::vector<uint8_t> method_memory;
  std::vector<uint8_t> temporary_memory;
  std::vector<std::vector<uint8_t>> planned_memory;
  std::vector<Span<uint8_t>> planned;

  explicit Fixture(const std::string& path) : file(testing::read_file(path)) {}

  Result<Program> program() const { return Program::load(Span<const uint8_t>(file.data(), file.size())); }

  Result<Method> load(const Program& program, const KernelRegistry* registry,
                      size_t method_bytes = 1 << 16, size_t temporary_bytes = 1 << 12,
                      long planned_delta = 0) {
    Result<MethodMeta> meta = method_meta(program, "forward");
    if (!meta.ok()) return meta.error();
    planned_memory.clear();
    planned.clear();
    for (size_t k = 0; k < meta->planned_buffer_count; ++k) {
      planned_memory.emplace_back(static_cast<size_t>(static_cast<long>(meta->planned_buffer_bytes[k]) + planned_delta));
    }
    for (auto& buffer : planned_memory) planned.emplace_back(buffer.data(), buffer.size());
    method_memory.assign(method_bytes, 0);
    temporary_memory.assign(temporary_bytes, 0);
    method_arena = std::make_unique<Arena>("method", Span<uint8_t>(method_memory.data(), method_memory.size()));
    temporary_arena = std::make_unique<Arena>("temporary", Span<uint8_t>(temporary_memory.data(), temporary_memory.size()));
    MethodMemory memory;
    memory.method = method_arena.get();
    memory.temporary = temporary_arena.get();
    memory.planned = Span<Span<uint8_t>>(planned.data(), planned.size());
    return registry != nullptr ? Method::load(program, "forward", *registry, memory)
                               : Method::load_unbound(program, "forward", memory);
  }

  std::unique_ptr<Arena> method_arena;
  std::unique_ptr<Arena> temporary_arena;
};

struct ProgramFacts {
  const char* file;
  const char* provider;
  size_t instructions;
  size_t arena_bytes;
};

constexpr ProgramFacts kFacts[] = {
    {"tier1_arm.pte", "arm", 12, 196608},
    {"tier1_ns.pte", "ns", 8, 98304},
    {"tier1mean_arm.pte", "arm", 5, 81920},
    {"tier1mean_ns.pte", "ns", 3, 81920},
};

TEST(Method, LoadsEveryTier1ProgramOnItsProvider) {
  ETNS_REQUIRE_SHARED(shared);
  for (const ProgramFacts& facts : kFacts) {
    SCOPED_TRACE(facts.file);
    Fixture fixture(shared + "/models/tier1/" + facts.file);
    Result<Program> program = fixture.program();
    ASSERT_TRUE(program.ok());
    Result<Method> method = fixture.load(*program, kernels::find_registry(facts.provider));
    ASSERT_TRUE(method.ok()) << to_string(method.error());
    EXPECT_EQ(method->instruction_count(), facts.instructions);
    ASSERT_EQ(method->meta().planned_buffer_count, 1u);
    EXPECT_EQ(method->meta().planned_buffer_bytes[0], facts.arena_bytes);
    EXPECT_EQ(method->input_count(), 1u);
    EXPECT_EQ(method->output_count(), 1u);
    EXPECT_STREQ(method->instruction(0).id, "c0i0");
    EXPECT_STREQ(method->instruction(0).operator_name, "cortex_m::quantize_per_tensor.out");
  }
}

TEST(Method, NsProgramsOnArmFailNamingExactlyTheNsOperators) {
  ETNS_REQUIRE_SHARED(shared);
  struct Case {
    const char* file;
    const char* missing;
  };
  const Case cases[] = {
      {"tier1_ns.pte",
       "missing operator [2] cortex_m_ns::quantized_hardswish.out\n"
       "missing operator [3] cortex_m_ns::quantized_leaky_relu.out\n"
       "missing operator [4] cortex_m_ns::quantized_sub.out\n"
       "missing operator [5] cortex_m_ns::quantized_relu.out\n"},
      {"tier1mean_ns.pte", "missing operator [1] cortex_m_ns::quantized_mean.out\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    Fixture fixture(shared + "/models/tier1/" + c.file);
    Result<Program> program = fixture.program();
    ASSERT_TRUE(program.ok());
    LogCapture log;
    Result<Method> method = fixture.load(*program, &kernels::registry_arm());
    ASSERT_FALSE(method.ok());
    EXPECT_EQ(method.error(), Error::OperatorMissing);
    EXPECT_EQ(log.text().substr(0, std::string(c.missing).size()), c.missing);
    EXPECT_NE(log.text().find("missing from provider 'arm'; nothing was prepared"), std::string::npos);
  }
}

// Grows each arena a few bytes at a time until load succeeds, so every
// out-of-memory path in load runs and fails cleanly.
TEST(Method, EveryArenaShortfallFailsWithOutOfMemory) {
  ETNS_REQUIRE_SHARED(shared);
  for (const ProgramFacts& facts : kFacts) {
    SCOPED_TRACE(facts.file);
    Fixture fixture(shared + "/models/tier1/" + facts.file);
    Result<Program> program = fixture.program();
    ASSERT_TRUE(program.ok());
    const KernelRegistry* registry = kernels::find_registry(facts.provider);
    LogCapture log;
    size_t method_bytes = 0;
    int failures = 0;
    for (;; method_bytes += 8, ++failures) {
      Result<Method> method = fixture.load(*program, registry, method_bytes);
      if (method.ok()) break;
      ASSERT_EQ(method.error(), Error::OutOfMemory) << "at " << method_bytes << " bytes";
      ASSERT_LT(method_bytes, size_t{1} << 16);
    }
    EXPECT_GT(failures, 10);
    EXPECT_NE(log.text().find("arena 'method': need"), std::string::npos);

    // A temporary arena too small for the largest scratch request.
    Result<Method> bound = fixture.load(*program, registry, method_bytes);
    ASSERT_TRUE(bound.ok());
    if (bound->max_scratch_bytes() > 0) {
      Result<Method> starved = fixture.load(*program, registry, method_bytes, bound->max_scratch_bytes() - 1);
      EXPECT_EQ(starved.error(), Error::OutOfMemory);
      // The temporary arena temporary_arena_bytes() gives (what inspect
      // reports) loads, and one byte less does not.
      EXPECT_TRUE(fixture.load(*program, registry, method_bytes, bound->temporary_arena_bytes()).ok());
      EXPECT_EQ(fixture.load(*program, registry, method_bytes, bound->temporary_arena_bytes() - 1).error(),
                Error::OutOfMemory);
    }
    // A planned buffer one byte short.
    Result<Method> short_plan = fixture.load(*program, registry, 1 << 16, 1 << 12, -1);
    EXPECT_EQ(short_plan.error(), Error::OutOfMemory);
    EXPECT_NE(log.text().find("planned buffer 1: need"), std::string::npos);
  }
}

TEST(Method, SetInputChecksIndexAndSize) {
  ETNS_REQUIRE_SHARED(shared);
  Fixture fixture(shared + "/models/tier1/tier1mean_arm.pte");
  Result<Program> program = fixture.program();
  ASSERT_TRUE(program.ok());
  Result<Method> method = fixture.load(*program, &kernels::registry_arm());
  ASSERT_TRUE(method.ok());
  LogCapture log;
  std::vector<uint8_t> wrong(100);
  EXPECT_EQ(method->set_input(0, Span<const uint8_t>(wrong.data(), wrong.size())), Error::InvalidArgument);
  EXPECT_NE(log.text().find("input 0: 100 bytes given, expected 65536 (float32, 16384 elements)"),
            std::string::npos)
      << log.text();
  EXPECT_EQ(method->set_input(1, Span<const uint8_t>(wrong.data(), wrong.size())), Error::InvalidArgument);
}

TEST(Method, RunsAndCallsHooksAroundEveryInstruction) {
  ETNS_REQUIRE_SHARED(shared);
  Fixture fixture(shared + "/models/tier1/tier1mean_ns.pte");
  Result<Program> program = fixture.program();
  ASSERT_TRUE(program.ok());
  Result<Method> method = fixture.load(*program, &kernels::registry_ns());
  ASSERT_TRUE(method.ok());
  // Every channel constant 1.0 / 32: quantizes to q = 2 (scale 0.0306, zp 1),
  // whose mean gives 49 (operators.md §3.5) and dequantizes to (49 - 4) * s_out.
  std::vector<float> input(16 * 32 * 32, 0.03125f);
  ASSERT_EQ(method->set_input(0, Span<const uint8_t>(reinterpret_cast<const uint8_t*>(input.data()),
                                                     input.size() * sizeof(float))),
            Error::Ok);
  std::vector<size_t> order;
  ExecuteHooks hooks;
  hooks.user = &order;
  hooks.before_instruction = [](void* user, size_t i) { static_cast<std::vector<size_t>*>(user)->push_back(i); };
  hooks.after_instruction = [](void* user, size_t i) { static_cast<std::vector<size_t>*>(user)->push_back(100 + i); };
  ASSERT_EQ(method->execute(&hooks), Error::Ok);
  EXPECT_EQ(order, (std::vector<size_t>{0, 100, 1, 101, 2, 102}));
  const float* out = method->output(0).data_as<float>();
  const float expected = static_cast<float>(49 - 4) * 0.0006877929554320872f;
  for (int c = 0; c < 16; ++c) EXPECT_EQ(out[c], expected) << "channel " << c;
}

TEST(Method, UnboundMethodDescribesButRefusesToExecute) {
  ETNS_REQUIRE_SHARED(shared);
  Fixture fixture(shared + "/models/tier1/tier1_ns.pte");
  Result<Program> program = fixture.program();
  ASSERT_TRUE(program.ok());
  Result<Method> method = fixture.load(*program, nullptr);
  ASSERT_TRUE(method.ok());
  EXPECT_EQ(method->instruction_count(), 8u);
  EXPECT_EQ(method->operator_count(), 7u);
  LogCapture log;
  EXPECT_EQ(method->execute(), Error::NotSupported);
}

}  // namespace
}  // namespace etns::runtime
