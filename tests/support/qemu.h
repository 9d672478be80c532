#pragma once

#include <optional>
#include <string>

// Tests of the Cortex-M55 target need the firmware images (cross-built with
// arm-none-eabi-gcc) and qemu-system-arm; they skip, saying which is missing,
// without them.
namespace etns::testing {

// Why the QEMU target cannot run here, or nullopt when it can.
std::optional<std::string> qemu_unavailable_reason();
// Why the firmware images are not there to read, or nullopt when both are.
std::optional<std::string> firmware_unavailable_reason();
// build/firmware/etns_m55_<provider>.elf
std::string firmware_image(const std::string& provider);

}  // namespace etns::testing

#define ETNS_REQUIRE_FIRMWARE()                                                                      \
  do {                                                                                               \
    if (const std::optional<std::string> reason = ::etns::testing::firmware_unavailable_reason()) { \
      GTEST_SKIP() << *reason;                                                                       \
    }                                                                                                \
  } while (0)

#define ETNS_REQUIRE_QEMU()                                                                      \
  do {                                                                                           \
    if (const std::optional<std::string> reason = ::etns::testing::qemu_unavailable_reason()) { \
      GTEST_SKIP() << *reason;                                                                   \
    }                                                                                            \
  } while (0)
