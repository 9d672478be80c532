#!/usr/bin/env bash
# Speed or size: builds the Cortex-M55 device half in five configurations
# (ETNS_OPTIMIZE speed|size x ETNS_SHAPE_VARIANTS ON|OFF, and the smallest:
# size, no shape variants, ETNS_ERROR_MESSAGES=OFF), and for each
# measures the flash of every component and kernel (`etns size` of the arm
# firmware image and of examples/kws-app built selectively for kws) and the
# executed instructions of every operator over the four MLPerf Tiny models
# (`etns run --target qemu-m55 --counts`, input A). Prints the trade-off table
# (docs/porting.md, "Speed or size") and leaves the raw JSON in OUT.
#   scripts/size_tradeoff.sh [OUT]     (default out/size-tradeoff; needs build/bin/etns,
#                                        ../shared/models/mlperf-tiny, QEMU, python3)
# Counts are executed instructions (the etns QEMU plugin), never cycles.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/size-tradeoff}
etns=$PWD/build/bin/etns
models=${ETNS_SHARED_DIR:-../shared}/models/mlperf-tiny
[ -x "$etns" ] || { echo "size_tradeoff: $etns missing: run scripts/main.sh first" >&2; exit 2; }
[ -f "$models/kws.tflite" ] || { echo "size_tradeoff: $models/kws.tflite missing" >&2; exit 2; }
command -v python3 >/dev/null || { echo "size_tradeoff: python3 is needed for the table" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

for model in kws vww ic ad; do
  [ -f "$out/$model.pte" ] || "$etns" import "$models/$model.tflite" -o "$out/$model.pte" >/dev/null
done

for config in speed:ON:ON speed:OFF:ON size:ON:ON size:OFF:ON size:OFF:OFF; do
  IFS=: read -r optimize shape messages <<<"$config"
  name=$optimize-shape-$shape
  [ "$messages" = ON ] || name=$name-messages-OFF
  dir=$out/$name
  echo "== $name: ETNS_OPTIMIZE=$optimize ETNS_SHAPE_VARIANTS=$shape ETNS_ERROR_MESSAGES=$messages"
  cmake -S . -B "$dir/build" -G Ninja --toolchain cmake/toolchains/arm-none-eabi-cortex-m55.cmake \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DETNS_OPTIMIZE="$optimize" -DETNS_SHAPE_VARIANTS="$shape" \
    -DETNS_ERROR_MESSAGES="$messages" -DETNS_FIRMWARE_OUTPUT_DIR="$dir/firmware" >"$dir.configure.log"
  # The arm image and every installed library (etns_registries brings both providers).
  cmake --build "$dir/build" -j 2 --target etns_m55_arm etns_registries >"$dir.build.log"
  "$etns" size --json "$dir/firmware/etns_m55_arm.elf" >"$dir/size_arm.json"
  for model in kws vww ic ad; do
    "$etns" run "$out/$model.pte" --provider arm --target qemu-m55 --firmware "$dir/firmware/etns_m55_arm.elf" \
      --input "$models/$model.A.input.bin" --output "$dir/$model.out.bin" --counts "$dir/counts_$model.json" >/dev/null
    # Every configuration computes the same bytes: the variants are one arithmetic.
    first=$out/speed-shape-ON/$model.out.bin
    cmp -s "$first" "$dir/$model.out.bin" || { echo "size_tradeoff: $name's $model output differs from speed-shape-ON's" >&2; exit 1; }
  done
  # The example, installed from this configuration and built for kws alone.
  cmake --install "$dir/build" --prefix "$dir/package" >/dev/null
  # Built as its user would for each goal: Release (-O3) for speed, MinSizeRel (-Os) for size.
  example_build=Release
  [ "$optimize" = size ] && example_build=MinSizeRel
  cmake -S examples/kws-app -B "$dir/kws-app" -G Ninja -DCMAKE_BUILD_TYPE=$example_build \
    --toolchain "$dir/package/lib/cmake/etns/toolchains/arm-none-eabi-cortex-m55.cmake" \
    -DCMAKE_PREFIX_PATH="$dir/package" -DETNS_EXECUTABLE="$etns" -DKWS_PROGRAM="$out/kws.pte" \
    -DKWS_INPUT="$models/kws.A.input.bin" >"$dir.example.log"
  cmake --build "$dir/kws-app" -j 2 >>"$dir.example.log"
  "$etns" size --json "$dir/kws-app/kws_app.elf" >"$dir/size_kws_app.json"
done

python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
configs = ["speed-shape-ON", "speed-shape-OFF", "size-shape-ON", "size-shape-OFF", "size-shape-OFF-messages-OFF"]
def load(c, f): return json.load(open(os.path.join(out, c, f)))
def component(size, name):
    for c in size["components"]:
        if c["name"] == name: return c
    return None
def flash(size, name):
    c = component(size, name); return c["flash_bytes"] if c else 0
def kernel_flash(size, op):
    for group in ("kernels (cortex_m)", "kernels (cortex_m_ns)", "portable kernels"):
        for p in (component(size, group) or {}).get("parts", []):
            if p["name"] == op: return p["flash_bytes"]
    return 0
def op_counts(c):
    totals = {}
    for model in ["kws", "vww", "ic", "ad"]:
        for row in load(c, f"counts_{model}.json")["instructions"]:
            op = row["operator"].split("::")[-1].split(".")[0].replace("quantized_", "")
            totals[op] = totals.get(op, 0) + row["counts"]["weighted"]
    return totals
counts = {c: op_counts(c) for c in configs}
sizes = {c: load(c, "size_arm.json") for c in configs}
apps = {c: load(c, "size_kws_app.json") for c in configs}
print("| kernel | " + " | ".join(f"{c}: flash B / instructions" for c in configs) + " |")
print("|---|" + "---:|" * len(configs))
ops = sorted(counts[configs[0]], key=lambda o: -counts[configs[0]][o])
for op in ops:
    cells = [f"{kernel_flash(sizes[c], op):,} / {counts[c].get(op, 0):,}" for c in configs]
    print(f"| {op} | " + " | ".join(cells) + " |")
def row(label, f):
    print(f"| {label} | " + " | ".join(f(c) for c in configs) + " |")
row("**4 models, all operators** (instructions)", lambda c: f"{sum(counts[c].values()):,}")
row("arm image: kernels (cortex_m) flash", lambda c: f"{flash(sizes[c], 'kernels (cortex_m)'):,}")
row("runtime core + program verifier flash", lambda c: f"{flash(sizes[c], 'runtime core') + flash(sizes[c], 'program verifier'):,}")
row("arm image flash", lambda c: f"{sizes[c]['section_totals']['flash_bytes']:,}")
def app_flash(c):
    a = apps[c]; data = flash(a, "application data (embedded program, inputs)")
    return f"{a['section_totals']['flash_bytes'] - data:,}"
row("kws-app flash without the model", app_flash)
PY
