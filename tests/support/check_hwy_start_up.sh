#!/bin/sh
# The CLI's own hwy::platform::TimerResolution (tools/cli/hwy_start_up.cpp)
# must be the one libhwy's start-up calls: the dynamic linker reports where
# it bound the symbol.
#   check_hwy_start_up.sh ETNS
# Exit 0 when libhwy binds to the executable, 1 otherwise.
bindings=$(LD_DEBUG=bindings "$1" --version 2>&1 >/dev/null | grep 'TimerResolution')
case "$bindings" in
  *"libhwy"*" to $1 "*)
    echo "hwy start-up: libhwy's TimerResolution binds to $1"
    ;;
  *)
    echo "hwy start-up: libhwy's TimerResolution does not bind to $1:" >&2
    printf '%s\n' "${bindings:-(no binding reported)}" >&2
    exit 1
    ;;
esac
