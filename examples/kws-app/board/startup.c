/* Reset and exception vectors for kws_app on mps3-an547 (Cortex-M55).
 * Reset enables the FPU and Helium, copies .data from its load image, zeroes
 * .bss, runs the static constructors and calls main(); main's return value
 * becomes the exit status. Every other exception is unexpected (no interrupt
 * is enabled) and ends the program with status 128 + its number. */

#include <stdint.h>

#include "board/board.h"

extern uint32_t __stack_top[];
extern uint32_t __data_load[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
typedef void (*Handler)(void);
extern Handler __init_array_start[];
extern Handler __init_array_end[];

int main(void);
void reset_handler(void) __attribute__((noreturn));
void unexpected_exception(void) __attribute__((noreturn));

#define CPACR (*(volatile uint32_t*)0xE000ED88u) /* Coprocessor Access Control */
#define CPACR_CP10_CP11_FULL (0xFu << 20)        /* FP and MVE: full access */

__attribute__((section(".vectors"), used)) const Handler vector_table[16] = {
    (Handler)__stack_top,  /* initial main stack pointer */
    reset_handler,
    unexpected_exception,  /* NMI */
    unexpected_exception,  /* HardFault */
    unexpected_exception,  /* MemManage */
    unexpected_exception,  /* BusFault */
    unexpected_exception,  /* UsageFault */
    unexpected_exception,  /* SecureFault */
    0, 0, 0,
    unexpected_exception,  /* SVCall */
    unexpected_exception,  /* DebugMonitor */
    0,
    unexpected_exception,  /* PendSV */
    unexpected_exception,  /* SysTick */
};

void reset_handler(void) {
  /* Before any compiled code that may use FP or MVE registers. */
  CPACR |= CPACR_CP10_CP11_FULL;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  const uint32_t* from = __data_load;
  for (uint32_t* to = __data_start; to < __data_end;) *to++ = *from++;
  for (uint32_t* word = __bss_start; word < __bss_end;) *word++ = 0;
  for (Handler* init = __init_array_start; init < __init_array_end; ++init) (*init)();
  board_exit(main());
}

void unexpected_exception(void) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  board_write("kws-app: unexpected exception\n");
  board_exit(128 + (int)(ipsr & 0x1FFu));
}
