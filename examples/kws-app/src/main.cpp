// kws_app: loads the embedded keyword-spotting program with the etns runtime,
// binds it to the kernels selected for it (etns_select_kernels in
// CMakeLists.txt), runs one inference on the embedded input and prints the
// top class and the outputs' CRC-32:
//   kws-app: class=4 score=0.28125 crc32=2f0e14c9
//   kws-app: ok
// Returns 0 on success, 1 when the program does not load, run or give a
// score vector (the runtime's log line says why).

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "board/board.h"
#include "kernels/registry_selected.h"
#include "runtime/core/arena.h"
#include "runtime/core/crc32.h"
#include "runtime/core/format.h"
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

__attribute__((format(printf, 1, 2))) void print(const char* format, ...) {
  char line[160];
  va_list args;
  va_start(args, format);
  etns::runtime::format_text_v(line, sizeof(line), format, args);
  va_end(args);
  board_write(line);
}

int fail(const char* what, Error error) {
  print("kws-app: %s failed: %s\n", what, etns::runtime::to_string(error));
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
    print("kws-app: expected one input and one output, the program has %u and %u\n",
          static_cast<unsigned>(method.input_count()), static_cast<unsigned>(method.output_count()));
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
  char score[32];
  if (scores.dtype == etns::runtime::ScalarType::Char) {
    const auto* values = static_cast<const int8_t*>(scores.data);
    for (size_t i = 1; i < scores.numel; ++i) {
      if (values[i] > values[best]) best = i;
    }
    etns::runtime::format_text(score, sizeof(score), "%d", values[best]);
  } else if (scores.dtype == etns::runtime::ScalarType::Float) {
    const auto* values = static_cast<const float*>(scores.data);
    for (size_t i = 1; i < scores.numel; ++i) {
      if (values[i] > values[best]) best = i;
    }
    etns::runtime::format_text(score, sizeof(score), "%g", static_cast<double>(values[best]));
  } else {
    return fail("output (int8 or float scores expected)", Error::NotSupported);
  }
  print("kws-app: class=%u score=%s crc32=%08lx\n", static_cast<unsigned>(best), score,
        static_cast<unsigned long>(etns::runtime::crc32(scores.data, scores.nbytes)));
  print("kws-app: ok\n");
  return 0;
}

}  // namespace

int main() { return run(); }
