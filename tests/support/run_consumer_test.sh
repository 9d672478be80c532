#!/bin/sh
# The installed package from a user's side: installs the Cortex-M55 device
# half (the nested firmware build) to a staging prefix, moves it (the package
# must be relocatable), configures and builds examples/kws-app against it with
# the package's toolchain file, runs it under QEMU mps3-an547 and checks that
# it exits 0 and prints the top class and CRC-32 that `etns run` gives on the
# host for the same program and input. The program is kws.tflite imported
# when ../shared has it, else etns export's dscnn. Exit 77 (CTest's skip)
# when arm-none-eabi-gcc, QEMU or the firmware build is missing.
#   run_consumer_test.sh ETNS CMAKE GENERATOR QEMU BUILD_DIR SOURCE_DIR SHARED_DIR WORK_DIR
etns=$1
cmake=$2
generator=$3
qemu=$4
build=$5
source=$6
shared=$7
work=$8

skip() {
  echo "skipped: $1"
  exit 77
}
fail() {
  echo "FAIL: $1"
  exit 1
}
command -v arm-none-eabi-gcc >/dev/null 2>&1 || skip "arm-none-eabi-gcc not found (scripts/install-deps.sh installs it)"
{ [ -n "$qemu" ] && [ -x "$qemu" ]; } || skip "qemu-system-arm not found (scripts/install-deps.sh installs it)"
[ -f "$build/firmware-m55/cmake_install.cmake" ] || skip "no nested firmware build in $build/firmware-m55"

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
echo "[1/5] install the device half (M55) to a staging prefix"
"$cmake" --install "$build/firmware-m55" --prefix "$work/stage" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install $build/firmware-m55"; }
mv "$work/stage" "$work/etns-m55" || fail "cannot move the staged package"
prefix=$work/etns-m55

echo "[2/5] the program and its input"
tflite=$shared/models/mlperf-tiny/kws.tflite
if [ -f "$tflite" ] && [ -f "$shared/models/mlperf-tiny/kws.A.input.bin" ]; then
  program=$work/kws.pte
  input=$shared/models/mlperf-tiny/kws.A.input.bin
  "$etns" import "$tflite" -o "$program" >"$work/import.log" || fail "etns import $tflite"
else
  program=$work/export/dscnn_arm.pte
  input=$work/export/dscnn.input.bin
  "$etns" export --out "$work/export" >/dev/null || fail "etns export"
fi
echo "program $program, input $input"

echo "[3/5] the host's answer (etns run)"
"$etns" run "$program" --provider arm --input "$input" --output "$work/host_out.bin" ||
  fail "etns run $program"
# The first highest score (int8 or float32, as etns inspect names the output),
# as the example picks it; CRC-32 from gzip's trailer (zlib's polynomial).
dtype=$("$etns" inspect "$program" | awk '$1 == "output" && $2 == "0" { print $5; exit }')
case $dtype in
  int8) od_type=d1 ;;
  float32) od_type=f4 ;;
  *) fail "output 0 of $program is '$dtype', expected int8 or float32" ;;
esac
host_class=$(od -An -v -t$od_type "$work/host_out.bin" |
  awk '{ for (i = 1; i <= NF; i++) { if (n == 0 || $i + 0 > best) { best = $i + 0; cls = n } n++ } } END { print cls }')
host_crc=$(gzip -c <"$work/host_out.bin" | tail -c 8 | od -An -tx4 -N4 | tr -d ' \n')
echo "host: class=$host_class crc32=$host_crc"

echo "[4/5] configure and build examples/kws-app against $prefix"
"$cmake" -S "$source/examples/kws-app" -B "$work/app" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  --toolchain "$prefix/lib/cmake/etns/toolchains/arm-none-eabi-cortex-m55.cmake" \
  -DCMAKE_PREFIX_PATH="$prefix" -DKWS_PROGRAM="$program" -DKWS_INPUT="$input" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring examples/kws-app"; }
"$cmake" --build "$work/app" -j 1 >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building examples/kws-app"; }

echo "[5/5] run it under QEMU mps3-an547"
timeout 120 "$qemu" -machine mps3-an547 -nodefaults -display none -monitor none -serial null \
  -chardev stdio,id=console -semihosting-config enable=on,target=native,chardev=console \
  -kernel "$work/app/kws_app.elf" >"$work/console.txt" 2>&1
status=$?
cat "$work/console.txt"
[ "$status" -eq 0 ] || fail "kws_app exited with status $status"
grep -q "^kws-app: ok" "$work/console.txt" || fail "kws_app did not print ok"
grep -q "^kws-app: class=$host_class .*crc32=$host_crc\$" "$work/console.txt" ||
  fail "kws_app's class or CRC-32 differs from the host's (class=$host_class crc32=$host_crc)"
echo "PASS: kws_app on mps3-an547 gives the host's class $host_class and crc32 $host_crc"
