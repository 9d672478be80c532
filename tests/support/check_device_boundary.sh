#!/bin/sh
# The device/host boundary, checked on what the compiler actually read: every
# header a firmware object depends on must come from runtime/, kernels/,
# firmware/, protocol/, the nested build's own folder (generated headers, the header-only
# flatbuffers copy) or the cross toolchain, never from
# tools/, tests/ or a host library. Reads ninja's dependency log of each
# nested firmware build.
#   check_device_boundary.sh SOURCE_DIR FIRMWARE_BUILD_DIR...
# Exit 0 clean, 1 with the offending headers listed, 77 (skip) without a
# firmware build.
source_dir=$1
shift
found=0
status=0
for build in "$@"; do
  [ -f "$build/build.ninja" ] || continue
  build=$(cd "$build" && pwd)
  found=1
  # Paths are relative to the build folder when a compiler launcher (ccache
  # with CCACHE_BASEDIR) rewrote them: make every one absolute first.
  deps=$(ninja -C "$build" -t deps 2>/dev/null | sed -n 's/^    //p' | sort -u |
         (cd "$build" && xargs -r realpath -m --) | sort -u)
  bad=$(printf '%s\n' "$deps" | grep -v \
    -e "^$source_dir/runtime/" -e "^$source_dir/kernels/" -e "^$source_dir/firmware/" -e "^$source_dir/protocol/" \
    -e "^$build/" -e "/generated/" -e "arm-none-eabi" -e "newlib" -e '^$' || true)
  if [ -n "$bad" ]; then
    echo "device boundary: $build compiled these headers from outside the device tree:" >&2
    printf '  %s\n' $bad >&2
    status=1
  fi
done
if [ "$found" -eq 0 ]; then
  echo "device boundary: no firmware build to check (configured with -DETNS_BUILD_FIRMWARE=OFF?)" >&2
  exit 77
fi
exit $status
