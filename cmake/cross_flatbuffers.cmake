# The runtime reads .pte files with the flatbuffers headers (header-only). A
# cross build must not search the host's /usr/include, where glibc's headers
# live too, so the flatbuffers folder alone is copied into the build tree.
find_path(etns_host_flatbuffers_include flatbuffers/flatbuffers.h
          PATHS /usr/local/include /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(etns_cross_include ${PROJECT_BINARY_DIR}/third_party_include)
file(COPY ${etns_host_flatbuffers_include}/flatbuffers DESTINATION ${etns_cross_include})
set(ETNS_FLATBUFFERS_INCLUDE ${etns_cross_include} CACHE PATH "flatbuffers headers for the target" FORCE)
