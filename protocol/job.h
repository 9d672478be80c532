#pragma once

// The contract between the host driver and the firmware runner: the job the
// host places in target memory, the region ids the counters see, the console
// lines the firmware prints and its exit statuses. Included by both sides, so
// it uses only fixed-width types and no library.

#include <cstddef>
#include <cstdint>

namespace etns::protocol {

// ---- The job ------------------------------------------------------------
// One blob: a JobHeader, then the program and the inputs at the offsets it
// gives (each 16-byte aligned, offsets from the header's first byte). On QEMU
// the host loads it with `-device loader` at the port's job address.

constexpr char kJobMagic[8] = {'E', 'T', 'N', 'S', 'J', 'O', 'B', '1'};
constexpr uint32_t kJobVersion = 1;
constexpr size_t kMaxJobInputs = 8;
constexpr size_t kJobAlignment = 16;
constexpr size_t kJobPathBytes = 256;

enum JobFlags : uint32_t {
  kJobDumpInstructions = 1u << 0,  // write each instruction's output to the host, once
  kJobPerInstructionPass = 1u << 1,  // warm-up, then iterations with one region per instruction
  kJobCleanPass = 1u << 2,           // warm-up, then iterations with one region per execute()
  kJobSelfTestFault = 1u << 3,       // execute an undefined instruction first: tests fault reports
};

struct JobHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;  // sizeof(JobHeader)
  uint32_t total_bytes;   // header, program and inputs
  uint32_t flags;         // JobFlags
  uint32_t warmup;        // uninstrumented runs before each pass
  uint32_t iterations;    // measured runs per pass
  uint32_t program_offset;
  uint32_t program_bytes;
  uint32_t input_count;
  uint32_t input_offset[kMaxJobInputs];
  uint32_t input_bytes[kMaxJobInputs];
  // Host folder the firmware writes output files into (semihosting on QEMU);
  // NUL-terminated.
  char output_dir[kJobPathBytes];
};
static_assert(sizeof(JobHeader) == 44 + 8 * kMaxJobInputs + kJobPathBytes,
              "JobHeader's layout is part of the host/firmware contract: no padding");

// ---- The runner's memory ------------------------------------------------
// What the runner gives one job's method: the host session checks programs
// against the same numbers (runtime/exec/budget.h), so host and firmware
// refuse the same programs with the same lines. Both arenas sit in DTCM. The
// planned memory, the an547 port's SRAM2, is the runtime's own limit
// (runtime::kPlannedMemoryBytes, 4 MiB), which the firmware link checks
// against the port's linker script (an547.ld).
constexpr uint32_t kRunnerMethodArenaBytes = 64 * 1024;
constexpr uint32_t kRunnerTemporaryArenaBytes = 32 * 1024;

// ---- Regions -------------------------------------------------------------
// Marker 2r begins region r and 2r+1 ends it (see qemu_plugin/etns_counter.c).
// The firmware's marker table holds 2 * (kRegionFirstInstruction +
// kMaxInstructions) markers, kMarkerStride bytes apart.

constexpr uint32_t kRegionLoad = 0;     // Program::load + Method::load (verify, bind, prepare)
constexpr uint32_t kRegionExecute = 1;  // one clean execute(), no per-instruction markers
constexpr uint32_t kRegionFirstInstruction = 2;  // region 2 + i: instruction i, kernel and dispatch
constexpr uint32_t kMaxInstructions = 1022;
constexpr uint32_t kMarkerStride = 4;
constexpr uint32_t kMarkerCount = 2 * (kRegionFirstInstruction + kMaxInstructions);

// ---- Console lines ---------------------------------------------------------
// Every line the runner prints starts with kConsolePrefix:
//   etns-fw log <runtime error line>
//   etns-fw loaded instructions=<n> method_arena=<bytes> scratch=<bytes> planned=<b1>[,<b2>...]
//   etns-fw instruction <i> <id> <operator>
//   etns-fw iteration <per_instruction|clean> <k> crc32=<8 hex digits of all outputs>
//   etns-fw error <job|load|input|execute|host_io> <Error name or reason>
//   etns-fw fault <HardFault|MemManage|BusFault|UsageFault|...> pc=0x.. lr=0x.. cfsr=0x..
//                 hfsr=0x.. mmfar=0x.. bfar=0x..
//   etns-fw done
constexpr char kConsolePrefix[] = "etns-fw ";

// The record names (the first word after the prefix) and the fields the host
// reads, printed by firmware/ and parsed by tools/evidence/runner/ from these names.
namespace console {
constexpr char kLog[] = "log";
constexpr char kLoaded[] = "loaded";
constexpr char kInstruction[] = "instruction";
constexpr char kIteration[] = "iteration";
constexpr char kError[] = "error";
constexpr char kFault[] = "fault";
constexpr char kDone[] = "done";
// iteration passes
constexpr char kPassPerInstruction[] = "per_instruction";
constexpr char kPassClean[] = "clean";
// fields of `loaded`
constexpr char kInstructions[] = "instructions";
constexpr char kMethodArena[] = "method_arena";
constexpr char kScratch[] = "scratch";
constexpr char kPlanned[] = "planned";
constexpr char kProvider[] = "provider";
constexpr char kBoard[] = "board";
// field of `iteration`
constexpr char kCrc32[] = "crc32";
}  // namespace console

// Output files, in JobHeader::output_dir: output<i>.bin after the run, and
// <instruction id>.bin (e.g. c0i3.bin) with kJobDumpInstructions.

// ---- Exit statuses ---------------------------------------------------------
// Statuses start at 10: QEMU itself exits with 1 when it cannot start.
enum ExitStatus : int {
  kExitOk = 0,
  kExitBadJob = 10,
  kExitLoadFailed = 11,
  kExitInputRejected = 12,
  kExitExecuteFailed = 13,
  kExitHostIoFailed = 14,
  kExitAborted = 15,     // a broken invariant (ETNS_DCHECK) stopped the runner
  kExitFaultBase = 128,  // + the exception number (3 HardFault ... 6 UsageFault)
};

}  // namespace etns::protocol
