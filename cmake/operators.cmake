# The build's view of kernels/operators.inc, the one list of operators: which
# folders exist, which sources each builds, which portable operators a build
# compiles, and the header that declares every operator's kernel.
#
# etns_read_operators(<list file>) sets, one element per row, in the list's order:
#   ETNS_OP_SPACES ETNS_OP_FOLDERS ETNS_OP_NAMES ETNS_OP_SELECTIONS ETNS_OP_PROVIDERS
#   ETNS_OP_FAMILIES, and ETNS_OP_COUNT (the C++ name, field 3, is the compiler's alone).
# It is plain CMake (no project needed), so cmake -P scripts use it too.

set(ETNS_OPERATOR_ROW_REGEX
    "^ETNS_OPERATOR\\(([a-z_0-9]+), ([a-z_0-9]+), ([A-Za-z0-9]+), \"([^\"]+)\", ([A-Z_0-9]+), (arm|ns|portable), ([a-z_]+)\\)$")

function(etns_read_operators list_file)
  file(STRINGS ${list_file} lines)
  foreach(field SPACES FOLDERS NAMES SELECTIONS PROVIDERS FAMILIES)
    set(${field})
  endforeach()
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^ETNS_OPERATOR")
      continue()
    endif()
    if(NOT line MATCHES "${ETNS_OPERATOR_ROW_REGEX}")
      message(FATAL_ERROR "${list_file}: a row not of the form ETNS_OPERATOR(space, folder, Kernel, \"name\", "
                          "SELECTION, arm|ns|portable, family): ${line}")
    endif()
    list(APPEND SPACES ${CMAKE_MATCH_1})
    list(APPEND FOLDERS ${CMAKE_MATCH_2})
    list(APPEND NAMES ${CMAKE_MATCH_4})
    list(APPEND SELECTIONS ${CMAKE_MATCH_5})
    list(APPEND PROVIDERS ${CMAKE_MATCH_6})
    list(APPEND FAMILIES ${CMAKE_MATCH_7})
  endforeach()
  list(LENGTH NAMES count)
  foreach(field SPACES FOLDERS NAMES SELECTIONS PROVIDERS FAMILIES)
    set(ETNS_OP_${field} "${${field}}" PARENT_SCOPE)
  endforeach()
  set(ETNS_OP_COUNT ${count} PARENT_SCOPE)
endfunction()

# The folders (relative to kernels/<space>/) the list names in <space>, each once.
function(etns_operator_folders space out_var)
  set(folders)
  if(ETNS_OP_COUNT GREATER 0)
    math(EXPR last "${ETNS_OP_COUNT} - 1")
    foreach(i RANGE ${last})
      list(GET ETNS_OP_SPACES ${i} row_space)
      if(row_space STREQUAL space)
        list(GET ETNS_OP_FOLDERS ${i} folder)
        list(APPEND folders ${folder})
      endif()
    endforeach()
  endif()
  list(REMOVE_DUPLICATES folders)
  set(${out_var} "${folders}" PARENT_SCOPE)
endfunction()

# An operator folder's sources, sorted by what their names end in:
#   *_test.cpp: host unit tests (<out>_TESTS); *_variant_test.cpp: the kernel
#   tests that also run on the M55 (etns_kernel_tests); *_bench.cpp: benches
#   (etns_kernel_benches); *_hwy.cpp and *_hwy_<part>.cpp: host SIMD
#   (<out>_HWY); every other .cpp: the kernel itself (<out>_DEVICE).
# Paths are relative to the calling folder.
function(etns_operator_folder_sources folder out)
  file(GLOB sources CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/*.cpp)
  list(SORT sources)
  set(device)
  set(hwy)
  set(tests)
  foreach(source IN LISTS sources)
    if(source MATCHES "_variant_test\\.cpp$")
      etns_kernel_tests(${source})
    elseif(source MATCHES "_test\\.cpp$")
      list(APPEND tests ${source})
    elseif(source MATCHES "_bench\\.cpp$")
      etns_kernel_benches(${source})
    elseif(source MATCHES "_hwy(_[a-z0-9_]+)?\\.cpp$")
      list(APPEND hwy ${source})
    else()
      list(APPEND device ${source})
    endif()
  endforeach()
  if(NOT device)
    message(FATAL_ERROR "kernels/operators.inc names ${CMAKE_CURRENT_SOURCE_DIR}/${folder}, which has no kernel source")
  endif()
  set(${out}_DEVICE "${device}" PARENT_SCOPE)
  set(${out}_HWY "${hwy}" PARENT_SCOPE)
  set(${out}_TESTS "${tests}" PARENT_SCOPE)
endfunction()

# A kernel library made of operator folders (FOLDERS, relative to the calling
# folder): each one's kernel and host SIMD sources, plus EXTRA (and EXTRA_HWY)
# sources its operators share. <target>_TESTS is set to the folders' host unit
# tests, for the caller's test binary.
function(etns_operator_library target)
  cmake_parse_arguments(arg "" "" "FOLDERS;EXTRA;EXTRA_HWY" ${ARGN})
  set(device ${arg_EXTRA})
  set(hwy ${arg_EXTRA_HWY})
  set(tests)
  foreach(folder IN LISTS arg_FOLDERS)
    etns_operator_folder_sources(${folder} part)
    list(APPEND device ${part_DEVICE})
    list(APPEND hwy ${part_HWY})
    list(APPEND tests ${part_TESTS})
  endforeach()
  etns_device_library(${target} ${device})
  target_link_libraries(${target} PUBLIC etns_kernels_common)
  if(hwy)
    etns_hwy_sources(${target} ${hwy})
  endif()
  set(${target}_TESTS "${tests}" PARENT_SCOPE)
endfunction()
