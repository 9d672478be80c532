# `cmake --install` of the device half: the runtime, the kernels per provider,
# their registries and the headers they need, with a CMake package
# (find_package(etns CONFIG)) of imported targets etns::<name>. The host build
# installs host libraries; the nested Cortex-M55 build (build/firmware-m55)
# installs the same targets cross-built for the M55, to a prefix of its own:
#   cmake --install build/firmware-m55 --prefix /opt/etns-m55
# The package is relocatable: every path in it is relative to the prefix,
# and the archives' debug paths are rooted at the repository
# (etns_device_library). The flatbuffers headers stay private: only the
# runtime's sources read them, so a consumer needs nothing but this package.
include(CMakePackageConfigHelpers)

set(etns_install_cmake_dir lib/cmake/etns)
set(etns_installed_targets
  etns_options
  etns_runtime_core
  etns_runtime
  etns_kernels_common
  etns_kernels_cortex_m
  etns_kernels_cortex_m_ns
  etns_kernels_etns_ops
  etns_kernels_portable
  etns_registry_arm
  etns_registry_ns
  etns_registries)
if(TARGET etns_platform_host)
  list(APPEND etns_installed_targets etns_platform_host)
endif()
# etns_runtime -> etns::runtime, etns_registry_arm -> etns::registry_arm, ...
foreach(target IN LISTS etns_installed_targets)
  string(REGEX REPLACE "^etns_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

# The include folder reaches every target through etns::options.
install(TARGETS ${etns_installed_targets} EXPORT etnsTargets ARCHIVE DESTINATION lib)
install(EXPORT etnsTargets NAMESPACE etns:: DESTINATION ${etns_install_cmake_dir})

# The headers a device program includes, rooted as in the repository
# ("runtime/exec/method.h"); tests, test helpers and schemas stay behind.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/ DESTINATION include/runtime
        FILES_MATCHING PATTERN "*.h" PATTERN "*_test*" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/ DESTINATION include/kernels
        FILES_MATCHING PATTERN "*.h"
        PATTERN "testing" EXCLUDE PATTERN "test_helpers.h" EXCLUDE PATTERN "*_test*" EXCLUDE)
# Generated from the one list of operators (kernels/operators.inc), which the
# selective build's registry reads too.
install(FILES ${PROJECT_BINARY_DIR}/generated/kernels/portable_selection.h
              ${PROJECT_BINARY_DIR}/generated/kernels/operator_headers.h
              ${PROJECT_SOURCE_DIR}/kernels/operators.inc DESTINATION include/kernels)
install(FILES ${PROJECT_BINARY_DIR}/generated/kernels/portable/portable.h DESTINATION include/kernels/portable)
install(FILES ${PROJECT_SOURCE_DIR}/protocol/provider.h DESTINATION include/protocol)
# The board interface: platform.h (log line, abort; every port implements it)
# is installed with the runtime; firmware/port.h is the runner's board
# interface, for a port that wants to serve the etns runner too;
# firmware/regions.h marks a firmware's own regions for `etns time`.
install(FILES ${PROJECT_SOURCE_DIR}/firmware/port.h ${PROJECT_SOURCE_DIR}/firmware/regions.h
        DESTINATION include/firmware)

# The Cortex-M55 toolchain file the libraries were built with: a consumer
# compiles with the same CPU, float ABI and C++ flags.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m55.cmake
        DESTINATION ${etns_install_cmake_dir}/toolchains)

# What the package records about its build, for the consumer's checks.
if(CMAKE_CROSSCOMPILING)
  set(ETNS_PACKAGE_TARGET ${CMAKE_SYSTEM_PROCESSOR})
else()
  set(ETNS_PACKAGE_TARGET host)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/etnsConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/etnsConfig.cmake
                              INSTALL_DESTINATION ${etns_install_cmake_dir}
                              NO_SET_AND_CHECK_MACRO)
# 0.x: a minor version may break the interface. The version file also checks
# the pointer size, so a 64-bit host project never picks the M55 package.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/etnsConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/etnsConfig.cmake ${PROJECT_BINARY_DIR}/package/etnsConfigVersion.cmake
        DESTINATION ${etns_install_cmake_dir})
# The selective build (etns_select_kernels): its CMake function and the one
# source it compiles into the consumer's target.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/etnsSelectKernels.cmake ${PROJECT_SOURCE_DIR}/kernels/registry_selected.cpp
        DESTINATION ${etns_install_cmake_dir})
