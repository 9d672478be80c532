#include "firmware/ports/qemu_mps3_an547/semihosting.h"

#include <cstring>

namespace etns::firmware::semihosting {
namespace {

enum Operation : uint32_t {
  kSysOpen = 0x01,
  kSysClose = 0x02,
  kSysWrite0 = 0x04,
  kSysWrite = 0x05,
  kSysExitExtended = 0x20,
};
constexpr uint32_t kOpenModeWriteBinary = 5;  // fopen's "wb"
constexpr uint32_t kAdpStoppedApplicationExit = 0x20026;

// r0 = operation, r1 = parameter (usually a block of words); r0 returns.
uint32_t call(uint32_t operation, const void* parameter) {
  register uint32_t r0 __asm__("r0") = operation;
  register const void* r1 __asm__("r1") = parameter;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void write0(const char* text) { call(kSysWrite0, text); }

bool write_file(const char* path, const uint8_t* bytes, size_t length) {
  const uint32_t open_block[3] = {reinterpret_cast<uint32_t>(path), kOpenModeWriteBinary,
                                  static_cast<uint32_t>(std::strlen(path))};
  const uint32_t handle = call(kSysOpen, open_block);
  if (handle == UINT32_MAX) return false;
  // SYS_WRITE returns the number of bytes it did not write.
  const uint32_t write_block[3] = {handle, reinterpret_cast<uint32_t>(bytes),
                                   static_cast<uint32_t>(length)};
  const bool written = length == 0 || call(kSysWrite, write_block) == 0;
  const uint32_t close_block[1] = {handle};
  const bool closed = call(kSysClose, close_block) == 0;
  return written && closed;
}

void exit(uint32_t status) {
  const uint32_t block[2] = {kAdpStoppedApplicationExit, status};
  call(kSysExitExtended, block);
  for (;;) {
  }
}

}  // namespace etns::firmware::semihosting
