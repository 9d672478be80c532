# Cross-compiles for Cortex-M55 (Armv8.1-M with Helium/MVE and the FPU) with
# Debian's arm-none-eabi-gcc and newlib-nano. Used for the firmware images:
#   cmake -S . -B build-m55 --toolchain cmake/toolchains/arm-none-eabi-cortex-m55.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortex-m55)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "objcopy for the target")
set(CMAKE_NM arm-none-eabi-nm CACHE FILEPATH "nm for the target")

# No OS to link a test program against: try_compile builds a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(etns_m55_flags "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${etns_m55_flags}")
set(CMAKE_CXX_FLAGS_INIT "${etns_m55_flags} -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit")
set(CMAKE_ASM_FLAGS_INIT "${etns_m55_flags}")
# newlib-nano; start-up code and system calls come from the board port.
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs -nostartfiles -Wl,--gc-sections")

# Only the target's own headers and libraries.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
