# etns_select_kernels(<target> PROGRAMS <a.pte>... [PROVIDER arm|ns])
#
# A selective build: links <target> with a registry of exactly the operators
# the programs need, and so with exactly their kernels (each with the
# variants the package was built with); the linker takes nothing else from
# the kernel archives. At configure time it runs
#   etns kernels --provider <p> --header <dir>/etns_kernel_selection.h --cmake <dir>/selection.cmake <programs>
# (the etns CLI, a host build's build/bin/etns: ETNS_EXECUTABLE, or `etns`
# on PATH), which fails, naming the program and operator, when the provider has
# no kernel for one. The target then calls etns::kernels::registry_selected()
# (kernels/registry_selected.h) where it would call registry_arm(); a program
# needing anything else is refused at load, naming the operator. The
# configure step re-runs when a program changes. After the call,
# ETNS_SELECTED_OPERATORS in the caller's scope lists the operators.
#
# Installed with the package (find_package(etns) includes it).
function(etns_select_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PROVIDER" "PROGRAMS")
  set(where "etns_select_kernels(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unexpected arguments '${arg_UNPARSED_ARGUMENTS}' (PROGRAMS a.pte... [PROVIDER arm|ns])")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${where}: no target named ${target}: call it after add_executable()")
  endif()
  if(NOT arg_PROGRAMS)
    message(FATAL_ERROR "${where}: PROGRAMS names no .pte program")
  endif()
  if(NOT arg_PROVIDER)
    set(arg_PROVIDER arm)
  endif()
  if(NOT arg_PROVIDER MATCHES "^(arm|ns)$")
    message(FATAL_ERROR "${where}: PROVIDER '${arg_PROVIDER}': expected arm or ns")
  endif()

  find_program(ETNS_EXECUTABLE etns DOC "the etns CLI, which reads the programs for etns_select_kernels()")
  if(NOT ETNS_EXECUTABLE)
    message(FATAL_ERROR "${where}: the etns CLI is needed to read the programs: pass -DETNS_EXECUTABLE=<path to etns> "
                        "(a host build's build/bin/etns, or a host package's bin/etns)")
  endif()

  set(programs "")
  foreach(program IN LISTS arg_PROGRAMS)
    get_filename_component(program "${program}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${program}")
      message(FATAL_ERROR "${where}: program ${program} does not exist")
    endif()
    list(APPEND programs "${program}")
  endforeach()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/etns_select_kernels/${target}")
  file(MAKE_DIRECTORY "${dir}")
  execute_process(
    COMMAND "${ETNS_EXECUTABLE}" kernels --provider ${arg_PROVIDER} --header "${dir}/etns_kernel_selection.h"
            --cmake "${dir}/selection.cmake" ${programs}
    RESULT_VARIABLE status OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    string(STRIP "${errors}" errors)
    message(FATAL_ERROR "${where}: ${errors}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${programs})
  include("${dir}/selection.cmake")

  # The package's archives hold only the portable operators it was built with
  # (their folders: kernels/operators.inc).
  foreach(folder IN LISTS ETNS_SELECTED_PORTABLE_FOLDERS)
    if(DEFINED etns_PORTABLE_FOLDERS AND NOT folder IN_LIST etns_PORTABLE_FOLDERS)
      message(FATAL_ERROR "${where}: a program needs the portable operator ${folder}, which this etns package was "
                          "not built with (its portable operators: ${etns_PORTABLE_OPS}); rebuild etns with it in "
                          "ETNS_PORTABLE_OPS")
    endif()
  endforeach()

  target_sources(${target} PRIVATE "${_etns_registry_selected_source}")
  target_include_directories(${target} PRIVATE "${dir}")
  target_link_libraries(${target} PRIVATE etns::runtime ${ETNS_SELECTED_LIBRARIES})
  list(LENGTH ETNS_SELECTED_OPERATORS count)
  message(STATUS "${where}: ${count} operators' kernels (provider ${arg_PROVIDER}): ${ETNS_SELECTED_OPERATORS}")
  set(ETNS_SELECTED_OPERATORS "${ETNS_SELECTED_OPERATORS}" PARENT_SCOPE)
endfunction()
