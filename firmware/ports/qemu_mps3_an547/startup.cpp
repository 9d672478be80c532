// Reset, vector table and fault reporting for mps3-an547 (SSE-300, Cortex-M55).
// QEMU starts the core in Secure state with VTOR = 0 (ITCM) and loads every
// loadable ELF segment itself (-kernel), so reset only zeroes .bss; a board
// port that boots from flash also copies .data.

#include <cstddef>
#include <cstdint>

#include "protocol/job.h"
#include "firmware/port.h"
#include "runtime/core/format.h"

extern "C" {
extern uint32_t __stack_top[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
using InitFunction = void (*)();
extern InitFunction __init_array_start[];
extern InitFunction __init_array_end[];

int etns_firmware_main();
[[noreturn]] void etns_reset_handler();
[[noreturn]] void etns_fault_entry();
[[noreturn]] void etns_fault_report(const uint32_t* frame, uint32_t exc_return);
}

namespace {

constexpr uintptr_t kCpacr = 0xE000ED88;             // Coprocessor Access Control
constexpr uint32_t kCpacrCp10Cp11Full = 0xFu << 20;  // FP and MVE, full access
constexpr uintptr_t kCfsr = 0xE000ED28;              // Configurable Fault Status
constexpr uintptr_t kHfsr = 0xE000ED2C;              // HardFault Status
constexpr uintptr_t kMmfar = 0xE000ED34;             // MemManage Fault Address
constexpr uintptr_t kBfar = 0xE000ED38;              // BusFault Address

uint32_t read_register(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }

const char* exception_name(uint32_t number) {
  switch (number) {
    case 2: return "NMI";
    case 3: return "HardFault";
    case 4: return "MemManage";
    case 5: return "BusFault";
    case 6: return "UsageFault";
    case 7: return "SecureFault";
    case 11: return "SVCall";
    case 12: return "DebugMonitor";
    case 14: return "PendSV";
    case 15: return "SysTick";
    default: return "Interrupt";
  }
}

}  // namespace

// Every exception but reset is unexpected: no interrupt is enabled.
using Vector = void (*)();
__attribute__((section(".vectors"), used)) const Vector kVectorTable[16] = {
    reinterpret_cast<Vector>(__stack_top),
    etns_reset_handler,
    etns_fault_entry,  // NMI
    etns_fault_entry,  // HardFault
    etns_fault_entry,  // MemManage
    etns_fault_entry,  // BusFault
    etns_fault_entry,  // UsageFault
    etns_fault_entry,  // SecureFault
    nullptr,
    nullptr,
    nullptr,
    etns_fault_entry,  // SVCall
    etns_fault_entry,  // DebugMonitor
    nullptr,
    etns_fault_entry,  // PendSV
    etns_fault_entry,  // SysTick
};

void etns_reset_handler() {
  // FP and MVE first: compiled code may use either from here on.
  *reinterpret_cast<volatile uint32_t*>(kCpacr) |= kCpacrCp10Cp11Full;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  for (uint32_t* word = __bss_start; word < __bss_end; ++word) *word = 0;
  for (InitFunction* init = __init_array_start; init < __init_array_end; ++init) (*init)();
  etns::firmware::port::exit(etns_firmware_main());
}

// The stacked frame (r0-r3, r12, lr, pc, xpsr) is on whichever stack was in
// use; EXC_RETURN bit 2 says which.
__attribute__((naked)) void etns_fault_entry() {
  __asm__ volatile(
      "tst lr, #4\n\t"
      "ite eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "mov r1, lr\n\t"
      "b etns_fault_report\n\t");
}

void etns_fault_report(const uint32_t* frame, uint32_t /*exc_return*/) {
  uint32_t ipsr = 0;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  const uint32_t number = ipsr & 0x1FF;
  char line[200];
  const size_t length = etns::runtime::format_text(
      line, sizeof(line),
      "%s%s %s pc=0x%08lx lr=0x%08lx cfsr=0x%08lx hfsr=0x%08lx mmfar=0x%08lx bfar=0x%08lx\n",
      etns::protocol::kConsolePrefix, etns::protocol::console::kFault, exception_name(number), static_cast<unsigned long>(frame[6]),
      static_cast<unsigned long>(frame[5]), static_cast<unsigned long>(read_register(kCfsr)),
      static_cast<unsigned long>(read_register(kHfsr)), static_cast<unsigned long>(read_register(kMmfar)),
      static_cast<unsigned long>(read_register(kBfar)));
  etns::firmware::port::console_write(line, length < sizeof(line) ? length : sizeof(line) - 1);
  etns::firmware::port::exit(etns::protocol::kExitFaultBase + static_cast<int>(number));
}
