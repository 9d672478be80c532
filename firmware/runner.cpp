// The firmware runner: reads the job the host placed in memory, loads its
// program with this image's kernel provider (a missing operator fails the
// load, naming it), then runs the passes the job asks for and reports on the
// console (protocol in protocol/job.h). Everything lives in static buffers or
// the port's memory: no heap.

#include <cstdarg>
#include <cstring>

#include "protocol/job.h"
#include "firmware/port.h"
#include "firmware/provider.h"
#include "runtime/core/crc32.h"
#include "runtime/core/format.h"
#include "runtime/exec/budget.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"

namespace etns::firmware {
namespace {

// The host/firmware contract (protocol/job.h): the job, regions, console
// records and exit statuses are named as the protocol names them.
using namespace protocol;  // NOLINT(google-build-using-namespace)
using runtime::Error;

// Arena sizes as the reference profiler's defaults (method 64 KiB, scratch
// 32 KiB), shared with the host through protocol/job.h.
alignas(16) uint8_t g_method_memory[kRunnerMethodArenaBytes];
alignas(16) uint8_t g_temporary_memory[kRunnerTemporaryArenaBytes];

// The budget the host session checks too. The planned memory comes from the
// port, which must hold the runtime's limit (the link checks it).
runtime::MethodBudget runner_budget() {
  // An absolute symbol for the port's linker script to check (an547.ld):
  // directives only, no code.
  __asm__(".globl etns_planned_memory_budget\n\t.set etns_planned_memory_budget, %c0"
          :
          : "i"(runtime::kPlannedMemoryBytes));
  runtime::MethodBudget budget;
  budget.method_arena_bytes = sizeof(g_method_memory);
  budget.temporary_arena_bytes = sizeof(g_temporary_memory);
  budget.planned_memory_bytes = runtime::kPlannedMemoryBytes;
  budget.max_instructions = kMaxInstructions;
  return budget;
}

__attribute__((format(printf, 1, 2))) void print_line(const char* format, ...) {
  char line[256];
  size_t length = runtime::format_text(line, sizeof(line), "%s", kConsolePrefix);
  va_list args;
  va_start(args, format);
  length += runtime::format_text_v(line + length, sizeof(line) - length, format, args);
  va_end(args);
  if (length > sizeof(line) - 2) length = sizeof(line) - 2;
  line[length++] = '\n';
  port::console_write(line, length);
}

[[noreturn]] void fail(ExitStatus status, const char* stage, const char* reason) {
  print_line("%s %s %s", console::kError, stage, reason);
  port::exit(status);
}

// Checks the job's layout before anything reads through its offsets.
const JobHeader& read_job() {
  const uint8_t* base = port::job_address();
  const auto& job = *reinterpret_cast<const JobHeader*>(base);
  if (std::memcmp(job.magic, kJobMagic, sizeof(kJobMagic)) != 0) {
    fail(kExitBadJob, "job", "no job at the port's job address (magic ETNSJOB1 missing)");
  }
  if (job.version != kJobVersion || job.header_bytes != sizeof(JobHeader)) {
    fail(kExitBadJob, "job", "job version or header size differs from this firmware's");
  }
  const size_t capacity = port::job_capacity_bytes();
  if (job.total_bytes > capacity) fail(kExitBadJob, "job", "job larger than the port's job memory");
  auto in_job = [&](uint32_t offset, uint32_t bytes) {
    return offset % kJobAlignment == 0 && offset >= sizeof(JobHeader) && offset <= job.total_bytes &&
           bytes <= job.total_bytes - offset;
  };
  if (!in_job(job.program_offset, job.program_bytes)) fail(kExitBadJob, "job", "program outside the job");
  if (job.input_count > kMaxJobInputs) fail(kExitBadJob, "job", "more inputs than the job format holds");
  for (uint32_t i = 0; i < job.input_count; ++i) {
    if (!in_job(job.input_offset[i], job.input_bytes[i])) fail(kExitBadJob, "job", "input outside the job");
  }
  if (std::memchr(job.output_dir, '\0', sizeof(job.output_dir)) == nullptr) {
    fail(kExitBadJob, "job", "output_dir is not NUL-terminated");
  }
  return job;
}

struct Runner {
  const JobHeader* job = nullptr;
  runtime::Method* method = nullptr;
  bool executed = false;
};

void set_inputs(const Runner& runner) {
  const uint8_t* base = reinterpret_cast<const uint8_t*>(runner.job);
  for (uint32_t i = 0; i < runner.job->input_count; ++i) {
    const runtime::Span<const uint8_t> bytes(base + runner.job->input_offset[i], runner.job->input_bytes[i]);
    // The method's log line says which input and the sizes; the error name
    // ends the host's one line, as for load and execute.
    const Error error = runner.method->set_input(i, bytes);
    if (error != Error::Ok) fail(kExitInputRejected, "input", runtime::to_string(error));
  }
}

uint32_t outputs_crc32(const runtime::Method& method) {
  uint32_t crc = 0;
  for (size_t i = 0; i < method.output_count(); ++i) {
    crc = runtime::crc32_update(crc, method.output(i).data, method.output(i).nbytes);
  }
  return crc;
}

// Every pass the runner makes is the model's first invocation: an operator's
// state (an LSTM's) starts from its initial value each time, so warm-up,
// counted and dumped passes all compute the output one execute() of a fresh
// load gives. The reset runs before a pass's region opens: the counts are
// execute()'s alone.
void start_sequence(const Runner& runner) {
  const Error error = runner.method->reset_state();
  if (error != Error::Ok) fail(kExitExecuteFailed, "execute", runtime::to_string(error));
}

void execute(Runner& runner, const runtime::ExecuteHooks* hooks) {
  const Error error = runner.method->execute(hooks);
  if (error != Error::Ok) fail(kExitExecuteFailed, "execute", runtime::to_string(error));
  runner.executed = true;
}

// Inputs set and state reset, outside any counted region.
void prepare_pass(const Runner& runner) {
  set_inputs(runner);
  start_sequence(runner);
}

// Per-instruction regions: the hooks run right before and after each kernel.
void begin_instruction(void*, size_t index) {
  port::region_begin(kRegionFirstInstruction + static_cast<uint32_t>(index));
}
void end_instruction(void*, size_t index) {
  port::region_end(kRegionFirstInstruction + static_cast<uint32_t>(index));
}

void join_path(char* out, size_t capacity, const char* dir, const char* name) {
  runtime::format_text(out, capacity, "%s/%s", dir, name);
}

void write_or_fail(const char* path, const void* data, size_t bytes) {
  if (!port::write_host_file(path, static_cast<const uint8_t*>(data), bytes)) {
    print_line("%s host_io cannot write %s", console::kError, path);
    port::exit(kExitHostIoFailed);
  }
}

// Writes each instruction's output right after it runs: later instructions
// may reuse its planned bytes.
void dump_instruction(void* user, size_t index) {
  const auto& runner = *static_cast<const Runner*>(user);
  const runtime::Tensor* out = runner.method->instruction_output(index);
  char name[40];
  runtime::format_text(name, sizeof(name), "%s.bin", runner.method->instruction(index).id);
  char path[kJobPathBytes + sizeof(name)];
  join_path(path, sizeof(path), runner.job->output_dir, name);
  write_or_fail(path, out != nullptr ? out->data : nullptr, out != nullptr ? out->nbytes : 0);
}

void run_pass(Runner& runner, const char* name, bool per_instruction) {
  runtime::ExecuteHooks markers;
  markers.before_instruction = &begin_instruction;
  markers.after_instruction = &end_instruction;
  for (uint32_t k = 0; k < runner.job->warmup; ++k) {
    prepare_pass(runner);
    execute(runner, nullptr);
  }
  for (uint32_t k = 0; k < runner.job->iterations; ++k) {
    prepare_pass(runner);
    if (per_instruction) {
      execute(runner, &markers);
    } else {
      port::region_begin(kRegionExecute);
      execute(runner, nullptr);
      port::region_end(kRegionExecute);
    }
    print_line("%s %s %lu %s=%08lx", console::kIteration, name, static_cast<unsigned long>(k), console::kCrc32,
               static_cast<unsigned long>(outputs_crc32(*runner.method)));
  }
}

// An undefined instruction: a UsageFault, escalated to HardFault since the
// configurable fault handlers are not enabled.
__attribute__((noinline)) void provoke_fault() { __builtin_trap(); }

int run() {
  const JobHeader& job = read_job();
  if ((job.flags & kJobSelfTestFault) != 0) provoke_fault();
  const uint8_t* base = reinterpret_cast<const uint8_t*>(&job);
  const runtime::Span<const uint8_t> file(base + job.program_offset, job.program_bytes);

  // Load (runtime/exec/budget.h): verify, place the planned buffers in the
  // port's planned memory, bind every operator to this image's kernels, prepare.
  runtime::Arena method_arena("method", runtime::Span<uint8_t>(g_method_memory, sizeof(g_method_memory)));
  runtime::Arena temporary_arena("temporary",
                                 runtime::Span<uint8_t>(g_temporary_memory, sizeof(g_temporary_memory)));
  runtime::TargetMemory memory;
  memory.method = &method_arena;
  memory.temporary = &temporary_arena;
  memory.planned_region = runtime::Span<uint8_t>(port::planned_memory(), port::planned_memory_bytes());
  port::region_begin(kRegionLoad);
  runtime::Result<runtime::BudgetedMethod> loaded =
      runtime::load_within_budget(file, "forward", &provider_registry(), runner_budget(), memory);
  port::region_end(kRegionLoad);
  if (!loaded.ok()) fail(kExitLoadFailed, "load", runtime::to_string(loaded.error()));
  runtime::Method* method = &loaded->method;
  const runtime::MethodMeta& meta = method->meta();
  // Every input is set before each run (set_inputs), so the job must carry one
  // per method input, in order. The host's `etns run` words it the same way.
  if (method->input_count() != job.input_count) {
    print_line("%s the method has %lu input%s, %lu given", console::kLog,
               static_cast<unsigned long>(method->input_count()), method->input_count() == 1 ? "" : "s",
               static_cast<unsigned long>(job.input_count));
    fail(kExitInputRejected, "input", "one per method input, in order");
  }

  char planned_text[96] = "";
  size_t planned_length = 0;
  for (size_t i = 0; i < meta.planned_buffer_count; ++i) {
    planned_length += runtime::format_text(planned_text + planned_length, sizeof(planned_text) - planned_length,
                                           "%s%lu", i == 0 ? "" : ",",
                                           static_cast<unsigned long>(meta.planned_buffer_bytes[i]));
    if (planned_length >= sizeof(planned_text)) break;
  }
  print_line("%s %s=%lu %s=%lu %s=%lu %s=%s %s=%s %s=%s", console::kLoaded, console::kInstructions,
             static_cast<unsigned long>(method->instruction_count()), console::kMethodArena,
             static_cast<unsigned long>(method_arena.used_bytes()), console::kScratch,
             static_cast<unsigned long>(method->max_scratch_bytes()), console::kPlanned, planned_text,
             console::kProvider, provider_name(), console::kBoard, port::board_name());
  for (size_t i = 0; i < method->instruction_count(); ++i) {
    print_line("%s %lu %s %s", console::kInstruction, static_cast<unsigned long>(i), method->instruction(i).id,
               method->instruction(i).operator_name);
  }

  Runner runner;
  runner.job = &job;
  runner.method = method;
  if ((job.flags & kJobDumpInstructions) != 0) {
    runtime::ExecuteHooks dump;
    dump.user = &runner;
    dump.after_instruction = &dump_instruction;
    prepare_pass(runner);
    execute(runner, &dump);
  }
  if ((job.flags & kJobPerInstructionPass) != 0) run_pass(runner, console::kPassPerInstruction, true);
  if ((job.flags & kJobCleanPass) != 0) run_pass(runner, console::kPassClean, false);
  port::flush_regions();

  // The outputs of the last run, or of one plain run when the job asked for none.
  if (!runner.executed) {
    prepare_pass(runner);
    execute(runner, nullptr);
  }
  for (size_t i = 0; i < method->output_count(); ++i) {
    char name[24];
    runtime::format_text(name, sizeof(name), "output%lu.bin", static_cast<unsigned long>(i));
    char path[kJobPathBytes + sizeof(name)];
    join_path(path, sizeof(path), job.output_dir, name);
    write_or_fail(path, method->output(i).data, method->output(i).nbytes);
  }
  print_line("%s", console::kDone);
  return kExitOk;
}

}  // namespace
}  // namespace etns::firmware

extern "C" int etns_firmware_main() { return etns::firmware::run(); }
