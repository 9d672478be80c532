#!/bin/sh
# The installed package from a user's side: installs the Cortex-M55 device
# half (the nested firmware build) to a staging prefix, moves it (the package
# must be relocatable), and for each program configures and builds
# examples/kws-app against it with the package's toolchain file, as a
# selective build (etns_select_kernels), then:
#   - runs it under QEMU mps3-an547: it must exit 0 and print the top class and
#     CRC-32 that `etns run` gives on the host for the same program and input;
#   - checks with `etns verify-kernels --programs` that the image links the
#     kernels of exactly the program's operators;
#   - prints its flash by component (`etns size`);
#   - times it per region with `etns time` (the regions it marks with the
#     installed firmware/regions.h): the rows load, input, inference, output
#     check and whole run exist, inference counts instructions and estimated
#     cycles, and, for the first program, a second run gives the same counts.
# Then `etns time`'s refusals, one line each: an x86-64 ELF, an image without
# regions (etns's own firmware), a missing QEMU, a timeout, and kws_app
# exiting non-zero (built with an input of the wrong size).
# The programs: kws.tflite imported (else etns export's dscnn), the other
# MLPerf Tiny models imported when ../shared has them, and etns export's
# tier1 (arm and ns) and dscnn_ns; with `all` as the last argument, every
# program etns export writes. Exit 77 (CTest's skip) when arm-none-eabi-gcc,
# QEMU or the firmware build is missing.
#   run_consumer_test.sh ETNS CMAKE GENERATOR QEMU BUILD_DIR SOURCE_DIR SHARED_DIR WORK_DIR [all]
etns=$1
cmake=$2
generator=$3
qemu=$4
build=$5
source=$6
shared=$7
work=$8
which_programs=${9:-some}

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

# etns time on IMAGE into PREFIX.txt (the table), .err (console, warnings)
# and .json; checks its rows and sets inference_counts to the inference
# row's instructions and estimated cycles.
#   time_regions LABEL IMAGE PREFIX
time_regions() {
  if ! "$etns" time "$2" --qemu "$qemu" --json "$3.json" >"$3.txt" 2>"$3.err"; then
    cat "$3.err" "$3.txt"
    echo "FAIL: $1: etns time $2"
    return 1
  fi
  cat "$3.txt"
  status=0
  for region in load input inference "output check" "whole run"; do
    grep -Eq "^[0-9]* +$region +([0-9,]+|-) " "$3.txt" || { echo "FAIL: $1: etns time prints no row '$region'"; status=1; }
  done
  grep -q "^est. cycles: estimated (LLVM 19 Cortex-M55 model), not measured" "$3.txt" ||
    { echo "FAIL: $1: etns time has no estimated cycles"; status=1; }
  grep -q "^etns: warning" "$3.err" && { echo "FAIL: $1: etns time warns:"; cat "$3.err"; status=1; }
  # The inference row: id, name, visits, per visit, instructions, est. cycles per visit, est. cycles.
  inference_counts=$(awk '$2 == "inference" { gsub(",", ""); print $5 " instructions, " $7 " est. cycles" }' "$3.txt")
  case $inference_counts in
    "0 "* | "" | *" - "* | *" 0 est."*)
      echo "FAIL: $1: the inference row counts nothing: '$inference_counts'"
      status=1
      ;;
  esac
  return $status
}
# etns time ARGS... must exit with STATUS, print nothing on stdout and end
# stderr with one "etns:" line starting with EXPECTED.
#   refuse LABEL STATUS EXPECTED ARGS...
refuse() {
  label=$1 expected_status=$2 expected=$3
  shift 3
  "$etns" time "$@" >"$work/refusal.out" 2>"$work/refusal.err"
  status=$?
  lines=$(grep -c "^etns:" "$work/refusal.err")
  last=$(tail -n 1 "$work/refusal.err")
  if [ "$status" -eq "$expected_status" ] && [ "$lines" -eq 1 ] && [ ! -s "$work/refusal.out" ] &&
    [ "${last#"$expected"}" != "$last" ]; then
    echo "PASS: etns time refuses $label: $last"
  else
    echo "FAIL: etns time on $label: exit $status (expected $expected_status), $lines etns: lines, stdout:"
    cat "$work/refusal.out"
    echo "stderr:"
    cat "$work/refusal.err"
    failures=$((failures + 1))
  fi
}
first_elf=

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
echo "[1/3] install the device half (M55) to a staging prefix"
"$cmake" --install "$build/firmware-m55" --prefix "$work/stage" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install $build/firmware-m55"; }
mv "$work/stage" "$work/etns-m55" || fail "cannot move the staged package"
prefix=$work/etns-m55

echo "[2/3] the programs and their inputs"
# One line per program: name, program, input, provider.
list=$work/programs.txt
: >"$list"
"$etns" export --out "$work/export" >/dev/null || fail "etns export"
models=$shared/models/mlperf-tiny
if [ -f "$models/kws.tflite" ] && [ -f "$models/kws.A.input.bin" ]; then
  for model in kws vww ic ad; do
    "$etns" import "$models/$model.tflite" -o "$work/$model.pte" >"$work/import_$model.log" ||
      fail "etns import $models/$model.tflite"
    echo "$model $work/$model.pte $models/$model.A.input.bin arm" >>"$list"
  done
else
  echo "dscnn_arm $work/export/dscnn_arm.pte $work/export/dscnn.input.bin arm" >>"$list"
fi
for program in "$work"/export/*.pte; do
  name=$(basename "$program" .pte)
  case $name in
    *_ns) provider=ns base=${name%_ns} ;;
    *) provider=arm base=${name%_arm} ;;
  esac
  if [ "$which_programs" != all ]; then
    case $name in tier1_arm | tier1_ns | dscnn_ns) ;; *) continue ;; esac
  fi
  input=$work/export/$name.input.bin
  [ -f "$input" ] || input=$work/export/$base.input.bin
  [ -f "$input" ] || fail "no input for $program"
  grep -q "^$name " "$list" || echo "$name $program $input $provider" >>"$list"
done
cat "$list"

echo "[3/3] for each: a selective build of examples/kws-app, run under QEMU mps3-an547"
failures=0
# The list on fd 3: QEMU's console is stdio.
while read -r name program input provider <&3; do
  echo "--- $name (provider $provider)"
  out=$work/$name
  mkdir -p "$out"
  "$etns" run "$program" --provider "$provider" --input "$input" --output "$out/host_out.bin" >"$out/host.log" 2>&1 ||
    { cat "$out/host.log"; fail "etns run $program"; }
  # The first highest score (int8 or float32, as etns inspect names the
  # output), as the example picks it; CRC-32 from gzip's trailer (zlib's polynomial).
  dtype=$("$etns" inspect "$program" | awk '$1 == "output" && $2 == "0" { print $5; exit }')
  case $dtype in
    int8) od_type=d1 ;;
    float32) od_type=f4 ;;
    *) fail "output 0 of $program is '$dtype', expected int8 or float32" ;;
  esac
  host_class=$(od -An -v -t$od_type "$out/host_out.bin" |
    awk '{ for (i = 1; i <= NF; i++) { if (n == 0 || $i + 0 > best) { best = $i + 0; cls = n + 0 } n++ } } END { print cls }')
  host_crc=$(gzip -c <"$out/host_out.bin" | tail -c 8 | od -An -tx4 -N4 | tr -d ' \n')

  # One build folder for all: each reconfigure rebuilds the embedded files,
  # the selected registry and the link.
  "$cmake" -S "$source/examples/kws-app" -B "$work/app" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    --toolchain "$prefix/lib/cmake/etns/toolchains/arm-none-eabi-cortex-m55.cmake" \
    -DCMAKE_PREFIX_PATH="$prefix" -DETNS_EXECUTABLE="$etns" -DKWS_PROGRAM="$program" -DKWS_INPUT="$input" \
    -DKWS_PROVIDER="$provider" >"$out/configure.log" 2>&1 ||
    { cat "$out/configure.log"; fail "configuring examples/kws-app for $name"; }
  "$cmake" --build "$work/app" -j 1 >"$out/build.log" 2>&1 ||
    { cat "$out/build.log"; fail "building examples/kws-app for $name"; }
  cp "$work/app/kws_app.elf" "$out/kws_app.elf"

  timeout 120 "$qemu" -machine mps3-an547 -nodefaults -display none -monitor none -serial null \
    -chardev stdio,id=console -semihosting-config enable=on,target=native,chardev=console \
    -kernel "$out/kws_app.elf" >"$out/console.txt" 2>&1
  status=$?
  cat "$out/console.txt"
  if [ "$status" -ne 0 ] || ! grep -q "^kws-app: ok" "$out/console.txt"; then
    echo "FAIL: $name: kws_app exited with status $status"
    failures=$((failures + 1))
  elif ! grep -q "^kws-app: class=$host_class .*crc32=$host_crc\$" "$out/console.txt"; then
    echo "FAIL: $name: class or CRC-32 differs from the host's (class=$host_class crc32=$host_crc)"
    failures=$((failures + 1))
  else
    echo "PASS: $name on mps3-an547 gives the host's class $host_class and crc32 $host_crc"
  fi

  if "$etns" verify-kernels --provider "$provider" --programs "$program" -- "$out/kws_app.elf" >"$out/verify.txt"; then
    grep "^operators linked" "$out/verify.txt"
    echo "PASS: $name: verify-kernels --programs: exactly the program's kernels"
  else
    cat "$out/verify.txt"
    echo "FAIL: $name: verify-kernels --programs"
    failures=$((failures + 1))
  fi
  "$etns" size "$out/kws_app.elf" >"$out/size.txt" || { cat "$out/size.txt"; fail "etns size $out/kws_app.elf"; }
  grep -E "^(sections|kernels|runtime core|program verifier|C library|application data|port and)" "$out/size.txt"
  # The embedded program and input are the application's data, not the C library's.
  embedded=$(($(wc -c <"$program") + $(wc -c <"$input")))
  data=$(awk '/^application data/ { gsub(",", "", $(NF-2)); print $(NF-2) }' "$out/size.txt")
  if [ -z "$data" ] || [ "$data" -lt "$embedded" ]; then
    echo "FAIL: $name: etns size puts ${data:-no} bytes under application data, the program and input are $embedded"
    failures=$((failures + 1))
  fi

  if time_regions "$name" "$out/kws_app.elf" "$out/time"; then
    echo "PASS: $name: etns time: every region, inference $inference_counts"
    if [ -z "$first_elf" ]; then
      first_elf=$out/kws_app.elf
      first_counts=$inference_counts
      if time_regions "$name (second run)" "$first_elf" "$out/time2" && [ "$inference_counts" = "$first_counts" ]; then
        echo "PASS: $name: etns time gives the same inference counts twice ($inference_counts)"
      else
        echo "FAIL: $name: etns time's inference counts differ between runs: $first_counts, then $inference_counts"
        failures=$((failures + 1))
      fi
    fi
  else
    failures=$((failures + 1))
  fi
done 3<"$list"

echo "--- etns time's refusals"
[ -n "$first_elf" ] || fail "no image to time"
refuse "an x86-64 ELF" 2 "etns: $etns: machine x86-64, expected ARM" "$etns"
if [ -f "$build/firmware/etns_m55_arm.elf" ]; then
  refuse "an image without regions" 2 "etns: $build/firmware/etns_m55_arm.elf: no region marker table" \
    "$build/firmware/etns_m55_arm.elf"
fi
refuse "a missing QEMU" 1 "etns: $work/no-qemu: QEMU not found" "$first_elf" --qemu "$work/no-qemu"
refuse "a timeout" 1 "etns: $first_elf: the firmware did not exit within 0.001 s under QEMU" "$first_elf" \
  --timeout-s 0.001
# kws_app refuses an input of the wrong size and exits 1.
printf x >"$work/one_byte.bin"
"$cmake" -S "$source/examples/kws-app" -B "$work/app" -DKWS_INPUT="$work/one_byte.bin" >"$work/bad_input.log" 2>&1 &&
  "$cmake" --build "$work/app" -j 1 >>"$work/bad_input.log" 2>&1 ||
  { cat "$work/bad_input.log"; fail "building kws_app with a one-byte input"; }
refuse "a firmware exiting 1" 1 "etns: $work/app/kws_app.elf: the firmware exited with status 1; its last line: kws-app: input failed" \
  "$work/app/kws_app.elf"
[ "$failures" -eq 0 ] || fail "$failures failed checks (above)"
echo "PASS: every selective image runs its program as the host does, links exactly its kernels and is timed per region"
