#!/bin/sh
# Runs a Cortex-M55 test image under QEMU mps3-an547; its semihosting console
# goes to stdout and QEMU exits with the image's status. Exit 77 (CTest's skip)
# when QEMU or the image is missing.
#   run_m55_image.sh QEMU IMAGE.elf
qemu=$1
image=$2
if [ -z "$qemu" ] || [ ! -x "$qemu" ]; then
  echo "skipped: qemu-system-arm not found (scripts/install-deps.sh installs it)"
  exit 77
fi
if [ ! -f "$image" ]; then
  echo "skipped: $image is missing (no arm-none-eabi-gcc at configure time?)"
  exit 77
fi
exec "$qemu" -machine mps3-an547 -nodefaults -display none -monitor none -serial null \
  -chardev stdio,id=console -semihosting-config enable=on,target=native,chardev=console \
  -kernel "$image"
