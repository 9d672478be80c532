#!/bin/sh
# The regression gate of the Cortex-M55 counts: `etns bench` against the
# committed baseline (bench/baseline_m55.json) of executed instructions (exact)
# and estimated cycles (LLVM 19's Cortex-M55 model, deterministic for a
# build); exit 1 when any count is above it.
# Exit 77 (CTest's skip) when QEMU or the firmware images are missing.
#   run_bench_gate.sh ETNS QEMU BUILD_DIR BASELINE OUT_DIR
etns=$1
qemu=$2
build=$3
baseline=$4
out=$5
if [ -z "$qemu" ] || [ ! -x "$qemu" ]; then
  echo "skipped: qemu-system-arm not found (scripts/install-deps.sh installs it)"
  exit 77
fi
for image in firmware/etns_m55_kernel_bench.elf firmware/etns_m55_ns.elf firmware-ref/etns_m55_ns.elf; do
  if [ ! -f "$build/$image" ]; then
    echo "skipped: $build/$image is missing (no arm-none-eabi-gcc at configure time?)"
    exit 77
  fi
done
exec "$etns" bench --qemu "$qemu" --baseline "$baseline" --out "$out"
