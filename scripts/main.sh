#!/usr/bin/env bash
# The main job: installs what is missing, builds the CLI (build/bin/etns), the
# QEMU counting plugin and the Cortex-M55 firmware, then inspects and runs
# every shipped Tier-1 program on its provider, on the host and on QEMU
# (with per-instruction instruction counts), and checks the arm programs'
# outputs against the upstream goldens; then rebuilds the evidence page with
# `etns reproduce` (out/main/evidence/report.md). Results go to out/main/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset host >/dev/null
cmake --build --preset host -j "$(nproc)" --target etns etns_qemu_counter etns_firmware etns_firmware_ref

shared=${ETNS_SHARED_DIR:-../shared}
models="$shared/models/tier1"
if [ ! -d "$models" ]; then
  echo "main: $models is absent: nothing to run (set ETNS_SHARED_DIR)" >&2
  exit 1
fi
etns=build/bin/etns
out=out/main
mkdir -p "$out"

for program in tier1_arm tier1_ns tier1mean_arm tier1mean_ns; do
  provider=${program##*_}
  model=${program%_*}
  pte="$models/$program.pte"
  input="$shared/golden/${model}_arm.A.input.bin"
  "$etns" inspect "$pte" > "$out/$program.inspect.txt"
  "$etns" run "$pte" --provider "$provider" --input "$input" --output "$out/$program.A.out.bin" \
    --dump-dir "$out/$program.A.dump"
  "$etns" run "$pte" --target qemu-m55 --provider "$provider" --input "$input" \
    --output "$out/$program.A.qemu.out.bin" --counts "$out/$program.A.qemu.counts.json"
  verdict="ran on host and QEMU"
  if ! cmp -s "$out/$program.A.out.bin" "$out/$program.A.qemu.out.bin"; then
    verdict="$verdict, QEMU output DIFFERS from the host's"
  fi
  if [ "$provider" = arm ]; then
    if cmp -s "$out/$program.A.out.bin" "$shared/golden/$program.A.out.bin"; then
      verdict="$verdict, output bit-exact with the upstream golden"
    else
      verdict="$verdict, output DIFFERS from the upstream golden"
    fi
  fi
  printf '%-14s %-3s %2s instructions  %s\n' "$program" "$provider" \
    "$(grep -c '^    c0i' "$out/$program.inspect.txt")" "$verdict"
  case "$verdict" in *DIFFERS*) exit 1 ;; esac
done
"$etns" reproduce --models "$models" --out "$out/evidence"
echo "main: results in $out/ (evidence page: $out/evidence/report.md)"
