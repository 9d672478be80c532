# Build rules shared by every target.

# Flags every etns target compiles with. Float code must not be contracted into
# FMAs: the portable kernels are bit-exact only with separately rounded ops.
add_library(etns_options INTERFACE)
target_include_directories(etns_options INTERFACE ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
target_compile_options(etns_options INTERFACE -Wall -Wextra -ffp-contract=off)
# Implicit narrowing is where int8 kernels go wrong: GCC's -Wconversion on all
# our code (clang's also implies -Wsign-conversion, which its fuzz build skips).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(etns_options INTERFACE -Wconversion)
endif()
if(ETNS_WARNINGS_AS_ERRORS)
  target_compile_options(etns_options INTERFACE -Werror)
endif()
if(ETNS_REFERENCE_KERNELS)
  target_compile_definitions(etns_options INTERFACE ETNS_REFERENCE_KERNELS=1)
endif()
if(ETNS_FORCE_SCALAR)
  target_compile_definitions(etns_options INTERFACE ETNS_FORCE_SCALAR=1)
endif()

# A library that runs on the device: no exceptions, no RTTI (the host build
# enforces the device rules too).
function(etns_device_library name)
  add_library(${name} STATIC ${ARGN})
  target_compile_options(${name} PRIVATE -fno-exceptions -fno-rtti)
  target_link_libraries(${name} PUBLIC etns_options)
endfunction()

# A test binary for one area, linked against the given libraries and GoogleTest.
function(etns_test name)
  cmake_parse_arguments(arg "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LIBS} etns_test_support)
  add_test(NAME ${name} COMMAND ${name})
endfunction()
