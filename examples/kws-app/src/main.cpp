// kws_app: loads the embedded keyword-spotting program with the etns runtime,
// binds it to the kernels selected for it (etns_select_kernels in
// CMakeLists.txt), runs one inference on the embedded input and prints the
// top class and the outputs' CRC-32:
//   kws-app: class=4 score=0.28125 crc32=2f0e14c9
//   kws-app: ok
// Returns 0 on success, 1 when the program does not load, run or give a
// score vector (the runtime's log line says why).
//
// Its four steps are regions of firmware/regions.h (installed with the
// package), so that `etns time build/kws_app.elf` prints each one's
// executed instructions and estimated Cortex-M55 cycles under QEMU. On a
// board the markers are a call and a return each.

#include <cstddef>
#include <cstdint>

#include "board/board.h"
#include "firmware/regions.h"
#include "kernels/registry_selected.h"
#include "runtime/core/arena.h"
#include "runtime/core/crc32.h"
#include "runtime/exec/budget.h"

extern const uint8_t kws_program[];
extern const size_t kws_program_bytes;
extern const uint8_t kws_input[];
extern const size_t kws_input_bytes;

namespace {

using etns::runtime::Error;

// The regions `etns time` reports, named below. Program::load, the memory
// plan, kernel binding and prepare are one call (load_within_budget), so
// binding has no region of its own.
enum Region : uint32_t { kRegionLoad = 0, kRegionInput = 1, kRegionInference = 2, kRegionCheck = 3 };

}  // namespace

ETNS_REGIONS_DEFINE_TABLE();
ETNS_REGION_NAME(kRegionLoad, "load");
ETNS_REGION_NAME(kRegionInput, "input");
ETNS_REGION_NAME(kRegionInference, "inference");
ETNS_REGION_NAME(kRegionCheck, "output check");

namespace {

// Where the memory goes (board/mps3_an547.ld): the method arena (values,
// instruction table, kernel state) and the temporary arena (kernel scratch)
// in DTCM's .bss; the planned buffers (activations) in SRAM2, not zeroed.
// Their sizes come from CMakeLists.txt (KWS_*_BYTES).
alignas(16) uint8_t g_method_memory[KWS_METHOD_BYTES];
alignas(16) uint8_t g_temporary_memory[KWS_TEMPORARY_BYTES];
alignas(16) __attribute__((section(".planned"))) uint8_t g_planned_memory[KWS_PLANNED_BYTES];

// One console line, built without printf or the runtime's formatter: a
// firmware that prints a few numbers need not link either (docs/porting.md,
// "Speed or size").
class Line {
 public:
  Line& text(const char* s) {
    while (*s != '\0' && used_ + 1 < sizeof(buffer_)) buffer_[used_++] = *s++;
    return *this;
  }
  // 32-bit arithmetic: the numbers are small, and 64-bit division would link
  // the compiler runtime's __udivmoddi4.
  Line& number(int32_t value) {
    if (value < 0) text("-");
    uint32_t magnitude = value < 0 ? 0u - static_cast<uint32_t>(value) : static_cast<uint32_t>(value);
    char digits[11];
    size_t n = sizeof(digits) - 1;
    digits[n] = '\0';
    do {
      digits[--n] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude != 0);
    return text(digits + n);
  }
  Line& hex32(uint32_t value) {
    char digits[9];
    for (int i = 7; i >= 0; --i, value >>= 4) digits[i] = "0123456789abcdef"[value & 0xF];
    digits[8] = '\0';
    return text(digits);
  }
  // A score to five decimals, rounded half away from zero (scores are small:
  // beyond +-20,000 it prints the bound).
  Line& fixed5(float value) {
    const float bounded = value > 20000.0f ? 20000.0f : (value < -20000.0f ? -20000.0f : value);
    const int32_t scaled = static_cast<int32_t>(bounded * 100000.0f + (bounded < 0 ? -0.5f : 0.5f));
    uint32_t magnitude = scaled < 0 ? 0u - static_cast<uint32_t>(scaled) : static_cast<uint32_t>(scaled);
    if (scaled < 0) text("-");
    number(static_cast<int32_t>(magnitude / 100000)).text(".");
    char decimals[6];
    magnitude %= 100000;
    for (int i = 4; i >= 0; --i, magnitude /= 10) decimals[i] = static_cast<char>('0' + magnitude % 10);
    decimals[5] = '\0';
    return text(decimals);
  }
  void print() {
    buffer_[used_] = '\0';
    board_write(buffer_);
  }

 private:
  char buffer_[160];
  size_t used_ = 0;
};

// The top class of a score vector and the CRC-32 of its bytes.
struct TopClass {
  size_t index = 0;
  bool is_float = false;
  int32_t int8_score = 0;
  float float_score = 0.0f;
  uint32_t crc32 = 0;
};

// The keyword scores: int8 (a quantized softmax) or float (dequantized).
// Returns false for any other type.
bool top_class(const etns::runtime::Tensor& scores, TopClass* top) {
  size_t best = 0;
  if (scores.dtype == etns::runtime::ScalarType::Char) {
    const auto* values = static_cast<const int8_t*>(scores.data);
    for (size_t i = 1; i < scores.numel; ++i) {
      if (values[i] > values[best]) best = i;
    }
    top->int8_score = values[best];
  } else if (scores.dtype == etns::runtime::ScalarType::Float) {
    const auto* values = static_cast<const float*>(scores.data);
    for (size_t i = 1; i < scores.numel; ++i) {
      if (values[i] > values[best]) best = i;
    }
    top->float_score = values[best];
    top->is_float = true;
  } else {
    return false;
  }
  top->index = best;
  top->crc32 = etns::runtime::crc32(scores.data, scores.nbytes);
  return true;
}

int fail(const char* what, Error error) {
  Line().text("kws-app: ").text(what).text(" failed: ").text(etns::runtime::to_string(error)).text("\n").print();
  return 1;
}

int run() {
  etns::runtime::Arena method_arena("method",
                                    etns::runtime::Span<uint8_t>(g_method_memory, sizeof(g_method_memory)));
  etns::runtime::Arena temporary_arena(
      "temporary", etns::runtime::Span<uint8_t>(g_temporary_memory, sizeof(g_temporary_memory)));
  etns::runtime::TargetMemory memory;
  memory.method = &method_arena;
  memory.temporary = &temporary_arena;
  memory.planned_region = etns::runtime::Span<uint8_t>(g_planned_memory, sizeof(g_planned_memory));

  etns::runtime::MethodBudget budget;
  budget.method_arena_bytes = sizeof(g_method_memory);
  budget.temporary_arena_bytes = sizeof(g_temporary_memory);
  budget.planned_memory_bytes = sizeof(g_planned_memory);
  budget.max_instructions = 1024;

  // Verify the program, lay out its planned buffers, bind every operator to
  // the selected kernels and prepare them: a missing operator or an arena
  // too small fails here, naming it.
  const etns::runtime::Span<const uint8_t> file(kws_program, kws_program_bytes);
  etns_region_begin(kRegionLoad);
  etns::runtime::Result<etns::runtime::BudgetedMethod> loaded =
      etns::runtime::load_within_budget(file, "forward", &etns::kernels::registry_selected(), budget, memory);
  etns_region_end(kRegionLoad);
  if (!loaded.ok()) return fail("load", loaded.error());
  etns::runtime::Method& method = loaded->method;
  if (method.input_count() != 1 || method.output_count() != 1) {
    Line()
        .text("kws-app: expected one input and one output, the program has ")
        .number(static_cast<int32_t>(method.input_count()))
        .text(" and ")
        .number(static_cast<int32_t>(method.output_count()))
        .text("\n")
        .print();
    return 1;
  }

  etns_region_begin(kRegionInput);
  Error error = method.set_input(0, etns::runtime::Span<const uint8_t>(kws_input, kws_input_bytes));
  etns_region_end(kRegionInput);
  if (error != Error::Ok) return fail("input", error);
  etns_region_begin(kRegionInference);
  error = method.execute();
  etns_region_end(kRegionInference);
  if (error != Error::Ok) return fail("execute", error);

  const etns::runtime::Tensor& scores = method.output(0);
  if (scores.numel == 0) return fail("output", Error::InvalidProgram);
  TopClass top;
  etns_region_begin(kRegionCheck);
  const bool known_type = top_class(scores, &top);
  etns_region_end(kRegionCheck);
  if (!known_type) return fail("output (int8 or float scores expected)", Error::NotSupported);
  Line line;
  line.text("kws-app: class=").number(static_cast<int32_t>(top.index)).text(" score=");
  if (top.is_float) {
    line.fixed5(top.float_score);
  } else {
    line.number(top.int8_score);
  }
  line.text(" crc32=").hex32(top.crc32).text("\n").print();
  Line().text("kws-app: ok\n").print();
  return 0;
}

}  // namespace

int main() { return run(); }
