// kws_app: loads the embedded keyword-spotting program with the etns runtime,
// binds it to the kernels selected for it (etns_select_kernels in
// CMakeLists.txt), runs one inference on the embedded input and prints the
// top class and the outputs' CRC-32:
//   kws-app: class=4 score=0.28125 crc32=2f0e14c9
//   kws-app: ok
// Returns 0 on success, 1 when the program does not load, run or give a
// score vector (the runtime's log line says why).

#include <cstddef>
#include <cstdint>

#include "board/board.h"
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
  etns::runtime::Result<etns::runtime::BudgetedMethod> loaded =
      etns::runtime::load_within_budget(file, "forward", &etns::kernels::registry_selected(), budget, memory);
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

  Error error = method.set_input(0, etns::runtime::Span<const uint8_t>(kws_input, kws_input_bytes));
  if (error != Error::Ok) return fail("input", error);
  error = method.execute();
  if (error != Error::Ok) return fail("execute", error);

  // The keyword scores: int8 (a quantized softmax) or float (dequantized).
  const etns::runtime::Tensor& scores = method.output(0);
  if (scores.numel == 0) return fail("output", Error::InvalidProgram);
  size_t best = 0;
  Line line;
  line.text("kws-app: class=");
  if (scores.dtype == etns::runtime::ScalarType::Char) {
    const auto* values = static_cast<const int8_t*>(scores.data);
    for (size_t i = 1; i < scores.numel; ++i) {
      if (values[i] > values[best]) best = i;
    }
    line.number(static_cast<int32_t>(best)).text(" score=").number(values[best]);
  } else if (scores.dtype == etns::runtime::ScalarType::Float) {
    const auto* values = static_cast<const float*>(scores.data);
    for (size_t i = 1; i < scores.numel; ++i) {
      if (values[i] > values[best]) best = i;
    }
    line.number(static_cast<int32_t>(best)).text(" score=").fixed5(values[best]);
  } else {
    return fail("output (int8 or float scores expected)", Error::NotSupported);
  }
  line.text(" crc32=").hex32(etns::runtime::crc32(scores.data, scores.nbytes)).text("\n").print();
  Line().text("kws-app: ok\n").print();
  return 0;
}

}  // namespace

int main() { return run(); }
