/* kws_app's port to mps3-an547 under QEMU: console and exit through Arm
 * semihosting (QEMU runs with -semihosting). A real board replaces these two
 * with its UART and a reset or a breakpoint. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Writes NUL-terminated text to the console; no newline is added. */
void board_write(const char* text);
/* Ends the program; QEMU exits with `status`. */
void board_exit(int status) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif
