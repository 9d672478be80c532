#!/bin/sh
# The installed package is relocatable: installs the host build and, when
# present, the nested Cortex-M55 build, then fails if any installed file
# (text or binary) names the build folder or the source folder. HOST_ARCHIVES
# "skip" leaves the host tree's static libraries out: a sanitizer build's
# instrumentation records each object's source path (ASan's global
# descriptors), which no prefix map removes; such a build is for testing,
# never installed. The package files, headers and M55 archives are checked
# in every build.
#   check_install_paths.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR [HOST_ARCHIVES]
cmake=$1
build=$2
source=$3
work=$4
host_archives=${5:-check}

rm -rf "$work" && mkdir -p "$work" || exit 1
"$cmake" --install "$build" --prefix "$work/host" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
trees="$work/host"
if [ -f "$build/firmware-m55/cmake_install.cmake" ]; then
  "$cmake" --install "$build/firmware-m55" --prefix "$work/m55" >>"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; exit 1; }
  trees="$trees $work/m55"
fi
status=0
for tree in $trees; do
  [ -f "$tree/lib/cmake/etns/etnsConfig.cmake" ] || { echo "FAIL: $tree has no etnsConfig.cmake"; status=1; }
  for dir in "$build" "$source"; do
    if [ "$tree" = "$work/host" ] && [ "$host_archives" = skip ]; then
      found=$(grep -rlF --exclude='*.a' "$dir" "$tree")
    else
      found=$(grep -rlF "$dir" "$tree")
    fi
    if [ -n "$found" ]; then
      echo "FAIL: installed files name $dir:"
      echo "$found"
      status=1
    fi
  done
  echo "$tree: $(find "$tree" -type f | wc -l) files"
done
if [ "$host_archives" = skip ]; then
  echo "host static libraries not checked: a sanitizer build records source paths in them"
fi
[ "$status" -eq 0 ] && echo "PASS: no installed file names $build or $source"
exit $status
