#pragma once

// Arm semihosting as QEMU implements it for M-profile (`bkpt 0xab`; QEMU runs
// with -semihosting-config enable=on,target=native). Only the calls the port
// uses.

#include <cstddef>
#include <cstdint>

namespace etns::firmware::semihosting {

// SYS_WRITE0: a NUL-terminated string to QEMU's console (its stdout).
void write0(const char* text);
// SYS_OPEN ("wb"), SYS_WRITE, SYS_CLOSE. False when the host refused any.
bool write_file(const char* path, const uint8_t* bytes, size_t length);
// SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit: QEMU exits with `status`.
[[noreturn]] void exit(uint32_t status);

}  // namespace etns::firmware::semihosting
