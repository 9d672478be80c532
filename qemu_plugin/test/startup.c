// Vector table, reset and exit for the counter test image on mps3-an547.
// The image reports its result as QEMU's exit status through semihosting
// (QEMU runs with -semihosting-config enable=on,target=native).

#include <stdint.h>

extern uint32_t __stack_top[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];

int main(void);
void etns_reset_handler(void);

enum {
  kSysExitExtended = 0x20,               // semihosting operation
  kAdpStoppedApplicationExit = 0x20026,  // "the application exited", with a status
  kCpacrAddress = 0xE000ED88,            // Coprocessor Access Control Register
  kCpacrCp10Cp11Full = 0xFu << 20,       // CP10 and CP11 (FP and MVE) full access
};

__attribute__((noreturn)) void etns_exit(uint32_t status) {
  const uint32_t block[2] = {kAdpStoppedApplicationExit, status};
  register uint32_t operation __asm__("r0") = kSysExitExtended;
  register const uint32_t* argument __asm__("r1") = block;
  __asm__ volatile("bkpt 0xab" : : "r"(operation), "r"(argument) : "memory");
  for (;;) {
  }
}

// Any fault ends the run with 128 + the exception number (HardFault = 3,
// UsageFault = 6), so a decoding mistake in the image cannot hang the test.
static void fault_handler(void) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  etns_exit(128 + (ipsr & 0x1FF));
}

typedef void (*VectorEntry)(void);

__attribute__((section(".vectors"), used)) static const VectorEntry kVectors[16] = {
    (VectorEntry)(uintptr_t)__stack_top,
    etns_reset_handler,
    fault_handler,  // NMI
    fault_handler,  // HardFault
    fault_handler,  // MemManage
    fault_handler,  // BusFault
    fault_handler,  // UsageFault
    fault_handler,  // SecureFault
    0,
    0,
    0,
    fault_handler,  // SVCall
    fault_handler,  // DebugMonitor
    0,
    fault_handler,  // PendSV
    fault_handler,  // SysTick
};

void etns_reset_handler(void) {
  // FP and MVE first: the compiler may use either from here on.
  volatile uint32_t* cpacr = (volatile uint32_t*)kCpacrAddress;
  *cpacr |= kCpacrCp10Cp11Full;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  for (uint32_t* word = __bss_start; word < __bss_end; ++word) *word = 0;
  etns_exit((uint32_t)main());
}
