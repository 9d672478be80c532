#include "tests/support/qemu.h"

#include <filesystem>

#include "tools/common/process.h"

namespace etns::testing {

std::string firmware_image(const std::string& provider) {
  return std::string(ETNS_FIRMWARE_DIR) + "/etns_m55_" + provider + ".elf";
}

std::optional<std::string> firmware_unavailable_reason() {
  for (const char* provider : {"arm", "ns"}) {
    if (!std::filesystem::exists(firmware_image(provider))) {
      return "no firmware image " + firmware_image(provider) +
             " (configure with arm-none-eabi-gcc installed and ETNS_BUILD_FIRMWARE=ON)";
    }
  }
  return std::nullopt;
}

std::optional<std::string> qemu_unavailable_reason() {
  if (std::optional<std::string> reason = firmware_unavailable_reason()) return reason;
  if (tools::find_executable("qemu-system-arm").empty()) return std::string("qemu-system-arm is not installed");
  return std::nullopt;
}

}  // namespace etns::testing
