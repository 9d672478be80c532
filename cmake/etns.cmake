# Build rules shared by every target.

# Flags every etns target compiles with. Float code must not be contracted into
# FMAs: the portable kernels are bit-exact only with separately rounded ops.
# Installed as etns::options (cmake/install.cmake), where only the include
# folder and the definitions that change what the headers declare remain: a
# consumer's code is not built with our warnings.
add_library(etns_options INTERFACE)
set_target_properties(etns_options PROPERTIES EXPORT_NAME options)
target_include_directories(etns_options INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated>
                                                  $<INSTALL_INTERFACE:include>)
target_compile_options(etns_options INTERFACE $<BUILD_INTERFACE:-Wall -Wextra -ffp-contract=off>)
# Implicit narrowing is where int8 kernels go wrong: GCC's -Wconversion on all
# our code (clang's also implies -Wsign-conversion, which its fuzz build skips).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(etns_options INTERFACE $<BUILD_INTERFACE:-Wconversion>)
endif()
if(ETNS_WARNINGS_AS_ERRORS)
  target_compile_options(etns_options INTERFACE $<BUILD_INTERFACE:-Werror>)
endif()
if(ETNS_REFERENCE_KERNELS)
  target_compile_definitions(etns_options INTERFACE ETNS_REFERENCE_KERNELS=1)
endif()
if(ETNS_FORCE_SCALAR)
  target_compile_definitions(etns_options INTERFACE ETNS_FORCE_SCALAR=1)
endif()
# Without error lines only the codes remain (runtime/core/log.h); consumers
# get the definition too, as PrepareContext::fail is declared differently.
if(NOT ETNS_ERROR_MESSAGES)
  target_compile_definitions(etns_options INTERFACE ETNS_NO_ERROR_MESSAGES=1)
endif()
# The variant lists leave the shape-specialised variants out; their scratch
# sizes stay as they are, so every build refuses the same programs.
if(NOT ETNS_SHAPE_VARIANTS)
  target_compile_definitions(etns_options INTERFACE ETNS_NO_SHAPE_VARIANTS=1)
endif()

# A library that runs on the device: no exceptions, no RTTI (the host build
# enforces the device rules too). Paths in its debug information and in
# __FILE__ are rooted at the repository and the build folder ("runtime/exec/
# method.cpp"), never the build machine's absolute paths, so the installed
# archives are the same wherever they were built (tests/support/
# check_install_paths.sh). The build folder's entry comes last: GCC applies
# the last matching map, and the build folder may sit inside the source tree.
function(etns_device_library name)
  add_library(${name} STATIC ${ARGN})
  target_compile_options(${name} PRIVATE -fno-exceptions -fno-rtti
                         -ffile-prefix-map=${PROJECT_SOURCE_DIR}/=
                         -ffile-prefix-map=${PROJECT_BINARY_DIR}=etns-build)
  # After the build type's -O2, so it wins.
  if(ETNS_OPTIMIZE STREQUAL "size")
    target_compile_options(${name} PRIVATE -Os)
  endif()
  target_link_libraries(${name} PUBLIC etns_options)
endfunction()

# Host SIMD sources (*_hwy.cpp, Highway) of a kernel library: added only when
# the host build uses Highway (ETNS_USE_HWY), so never in the cross build.
# hwy is linked by its plain name: the exported package then names no path
# of this machine.
function(etns_hwy_sources name)
  if(NOT ETNS_USE_HWY)
    return()
  endif()
  target_sources(${name} PRIVATE ${ARGN})
  target_include_directories(${name} SYSTEM PRIVATE ${HWY_INCLUDE_DIRS})
  target_compile_options(${name} PRIVATE ${HWY_CFLAGS_OTHER})
  target_link_libraries(${name} PRIVATE hwy)
  # Also compile Highway's AVX3_DL target (AVX-512 with VBMI): the byte-table
  # lookups use its two-table byte permute. Every Highway source gets it, so
  # the target list the tests force (hwy_targets.cpp) holds it too.
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_DEFINITIONS HWY_WANT_AVX3_DL=1)
  if(HWY_LIBRARY_DIRS)
    target_link_directories(${name} INTERFACE $<BUILD_INTERFACE:${HWY_LIBRARY_DIRS}>)
  endif()
endfunction()

# Test code is compiled without optimisation in every build type: it is half
# of the build's compile time and almost none of the tests' run time, which is
# spent in the code under test (that keeps the build type's flags).
function(etns_test_code target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo,Release,MinSizeRel>:-O0>)
endfunction()

# A test binary for one area, linked against the given libraries and GoogleTest;
# TEST_ARGS are the CTest entry's arguments (a --gtest_filter, say).
function(etns_test name)
  cmake_parse_arguments(arg "" "" "SOURCES;LIBS;TEST_ARGS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LIBS} etns_test_support)
  etns_test_code(${name})
  add_test(NAME ${name} COMMAND ${name} ${arg_TEST_ARGS})
endfunction()
