#!/usr/bin/env bash
# The main job: installs what is missing, builds the CLI (build/bin/etns), the
# QEMU counting plugin and the Cortex-M55 firmware; exports etns's own Tier-1
# programs (evidence and coverage models) and runs each on its provider, on the host and on QEMU (with
# per-instruction instruction counts); does the same for the upstream programs
# when ../shared is there, checking the arm outputs against the upstream
# goldens; then rebuilds the evidence page with one `etns reproduce`
# (out/main/evidence/report.md, led by executed instructions and estimated
# Cortex-M55 cycles beside TFLite Micro + CMSIS-NN and the board's own table):
# etns's own programs and, when ../shared is there, the upstream ones beside
# them (--upstream), every golden tensor checked (--golden) and the MLPerf Tiny
# and real-tflite models imported beside TFLite Micro (+ CMSIS-NN where its
# counts exist) (--tflite). Results go to out/main/.
# Needs nothing outside this repository.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset host >/dev/null
cmake --build --preset host -j "$(nproc)" --target etns etns_qemu_counter etns_firmware etns_firmware_ref

shared=${ETNS_SHARED_DIR:-../shared}
etns=build/bin/etns
out=out/main
mkdir -p "$out/upstream"

# Runs one program on the host and on QEMU with the same input and prints a
# verdict; with a golden output, the host's bytes must equal it.
#   run_program PTE PROVIDER INPUT NAME [GOLDEN]
run_program() {
  local pte=$1 provider=$2 input=$3 name=$4 golden=${5:-}
  "$etns" inspect "$pte" > "$out/$name.inspect.txt"
  "$etns" run "$pte" --provider "$provider" --input "$input" --output "$out/$name.out.bin" \
    --dump-dir "$out/$name.dump"
  "$etns" run "$pte" --target qemu-m55 --provider "$provider" --input "$input" \
    --output "$out/$name.qemu.out.bin" --counts "$out/$name.qemu.counts.json"
  local verdict="ran on host and QEMU"
  if ! cmp -s "$out/$name.out.bin" "$out/$name.qemu.out.bin"; then
    verdict="$verdict, QEMU output DIFFERS from the host's"
  fi
  if [ -n "$golden" ]; then
    if cmp -s "$out/$name.out.bin" "$golden"; then
      verdict="$verdict, output bit-exact with the upstream golden"
    else
      verdict="$verdict, output DIFFERS from the upstream golden"
    fi
  fi
  printf '%-28s %-3s %2s instructions  %s\n' "$name" "$provider" \
    "$(grep -c '^    c0i' "$out/$name.inspect.txt")" "$verdict"
  case "$verdict" in *DIFFERS*) exit 1 ;; esac
}

# etns's own programs (evidence and coverage models), each on its example
# input as the manifest names it: nothing outside this repository is needed.
"$etns" export --out "$out/export" > /dev/null
while read -r program provider input; do
  run_program "$out/export/$program.pte" "$provider" "$out/export/$input" "export/$program"
done < <(python3 -c '
import json, sys
for model, entry in json.load(open(sys.argv[1]))["models"].items():
    for provider, facts in entry["providers"].items():
        print(model + "_" + provider, provider, facts["example_input"])
' "$out/export/manifest.json")

# The upstream programs and goldens, when ../shared is there.
models="$shared/models/tier1"
if [ -d "$models" ]; then
  for program in tier1_arm tier1_ns tier1mean_arm tier1mean_ns; do
    provider=${program##*_}
    model=${program%_*}
    golden=""
    if [ "$provider" = arm ]; then golden="$shared/golden/$program.A.out.bin"; fi
    run_program "$models/$program.pte" "$provider" "$shared/golden/${model}_arm.A.input.bin" \
      "upstream/$program" "$golden"
  done
else
  echo "main: $models is absent: the upstream programs are skipped (set ETNS_SHARED_DIR)" >&2
fi

shared_options=()
if [ -d "$models" ]; then shared_options+=(--upstream "$models"); fi
if [ -f "$shared/golden/golden.json" ]; then shared_options+=(--golden "$shared/golden"); fi
for folder in mlperf-tiny real-tflite; do
  if [ -d "$shared/models/$folder" ]; then shared_options+=(--tflite "$shared/models/$folder"); fi
done
"$etns" reproduce --out "$out/evidence" "${shared_options[@]}"
echo "main: results in $out/ (evidence page: $out/evidence/report.md)"
