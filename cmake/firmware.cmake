# Drives the cross build of the firmware images from the host build: a nested
# CMake build (build/firmware-m55) with the Cortex-M55 toolchain file, whose
# images land in build/firmware/etns_m55_{arm,ns}.elf, where `etns run
# --target qemu-m55` looks for them. It runs on every build and is
# incremental, so editing a kernel rebuilds the images too.
# A missing cross compiler is an error, not a silent host-only build: the
# firmware is half of what etns ships. -DETNS_BUILD_FIRMWARE=OFF builds the
# host alone, on purpose (the QEMU tests then skip, saying so).
find_program(ETNS_ARM_GXX arm-none-eabi-g++)
if(NOT ETNS_ARM_GXX)
  message(FATAL_ERROR "arm-none-eabi-g++ not found, so the Cortex-M55 firmware cannot be built: run "
                      "scripts/install-deps.sh (as root; it installs gcc-arm-none-eabi), or configure with "
                      "-DETNS_BUILD_FIRMWARE=OFF for a host-only build")
endif()

include(ExternalProject)
set(ETNS_FIRMWARE_DIR ${PROJECT_BINARY_DIR}/firmware)
ExternalProject_Add(etns_firmware
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${PROJECT_BINARY_DIR}/firmware-m55
  CMAKE_ARGS
    --toolchain ${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m55.cmake
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DETNS_FIRMWARE_OUTPUT_DIR=${ETNS_FIRMWARE_DIR}
  CMAKE_CACHE_ARGS
    "-DETNS_PORTABLE_OPS:STRING=${ETNS_PORTABLE_OPS}"
    "-DETNS_OPTIMIZE:STRING=${ETNS_OPTIMIZE}"
    "-DETNS_SHAPE_VARIANTS:BOOL=${ETNS_SHAPE_VARIANTS}"
    "-DETNS_ERROR_MESSAGES:BOOL=${ETNS_ERROR_MESSAGES}"
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${ETNS_FIRMWARE_DIR}/etns_m55_arm.elf ${ETNS_FIRMWARE_DIR}/etns_m55_ns.elf
                   ${ETNS_FIRMWARE_DIR}/etns_m55_kernel_tests.elf ${ETNS_FIRMWARE_DIR}/etns_m55_kernel_bench.elf)

# The same images with every kernel's reference variant (ETNS_REFERENCE_KERNELS),
# in build/firmware-ref/: `etns bench` runs each program on both to show what
# the fast variants change.
set(ETNS_FIRMWARE_REF_DIR ${PROJECT_BINARY_DIR}/firmware-ref)
ExternalProject_Add(etns_firmware_ref
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${PROJECT_BINARY_DIR}/firmware-m55-ref
  CMAKE_ARGS
    --toolchain ${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m55.cmake
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DETNS_FIRMWARE_OUTPUT_DIR=${ETNS_FIRMWARE_REF_DIR}
    -DETNS_REFERENCE_KERNELS=ON
    -DETNS_FIRMWARE_PROGRAM_IMAGES_ONLY=ON
  CMAKE_CACHE_ARGS
    "-DETNS_PORTABLE_OPS:STRING=${ETNS_PORTABLE_OPS}"
    "-DETNS_OPTIMIZE:STRING=${ETNS_OPTIMIZE}"
    "-DETNS_SHAPE_VARIANTS:BOOL=${ETNS_SHAPE_VARIANTS}"
    "-DETNS_ERROR_MESSAGES:BOOL=${ETNS_ERROR_MESSAGES}"
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${ETNS_FIRMWARE_REF_DIR}/etns_m55_arm.elf ${ETNS_FIRMWARE_REF_DIR}/etns_m55_ns.elf)
