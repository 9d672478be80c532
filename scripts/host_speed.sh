#!/usr/bin/env bash
# The host goals of docs/host-speed.md, measured in one run on this machine:
# whole programs (etns_program_bench: fast variants against the references,
# side by side), the Tier-1 elementwise kernels per element at 16K elements
# (etns_kernel_bench, beside XNNPACK's figures in performance-anchors.md §3),
# and `etns run` over 1,000 inputs with one and two threads (dscnn and the
# MLPerf Tiny classifiers kws and ic), writing output files and labelled (no
# files). Prints the goal
# table with the CPU's name; the raw Google Benchmark JSON stays in OUT.
#   scripts/host_speed.sh [OUT]     (default out/host-speed; needs a build with
#                                    -DETNS_BUILD_BENCH=ON and python3)
# ETNS_HWY_TARGET=AVX2 (any target the CPU runs) makes both benchmarks
# dispatch there, as a CPU without the better targets would; `etns run`
# keeps the CPU's own.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/host-speed}
bin=$PWD/build/bin
shared=${ETNS_SHARED_DIR:-../shared}
for tool in etns etns_program_bench etns_kernel_bench; do
  [ -x "$bin/$tool" ] || { echo "host_speed: $bin/$tool missing: configure build with -DETNS_BUILD_BENCH=ON" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "host_speed: python3 is needed for the table" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
repetitions=${ETNS_BENCH_REPETITIONS:-11}

"$bin/etns" export --out "$out/export" >/dev/null
programs=("$out/export/tier1_arm.pte=$out/export/tier1.input.bin" "$out/export/tier1_ns.pte=$out/export/tier1.input.bin"
          "$out/export/tier1mean_arm.pte=$out/export/tier1mean.input.bin"
          "$out/export/tier1mean_ns.pte=$out/export/tier1mean.input.bin"
          "$out/export/dscnn_arm.pte=$out/export/dscnn.input.bin" "$out/export/dscnn_ns.pte=$out/export/dscnn.input.bin")
for pair in sub_channel leaky_relu_0p2 relu6 clamp hardtanh mean_c; do
  input=$out/export/$pair.input.bin
  programs+=("$out/export/${pair}_arm.pte=$input")
  [ -f "$out/export/${pair}_ns.input.bin" ] && input=$out/export/${pair}_ns.input.bin
  programs+=("$out/export/${pair}_ns.pte=$input")
done
if [ -f "$shared/models/tier1/tier1_arm.pte" ]; then
  mkdir -p "$out/upstream"
  for p in tier1_arm tier1_ns tier1mean_arm tier1mean_ns; do
    cp "$shared/models/tier1/$p.pte" "$out/upstream/upstream_$p.pte"
    programs+=("$out/upstream/upstream_$p.pte")
  done
fi
models=$shared/models/mlperf-tiny
if [ -f "$models/kws.tflite" ]; then
  for m in kws vww ic ad; do
    "$bin/etns" import "$models/$m.tflite" -o "$out/$m.pte" >/dev/null
    programs+=("$out/$m.pte=$models/$m.A.input.bin")
  done
fi

echo "== programs (fast against reference, $repetitions repetitions)"
# Repetitions of different benchmarks in random order, so a slow spell of the
# machine does not fall on one program of a pair.
"$bin/etns_program_bench" --benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$out/programs.json" "${programs[@]}" >/dev/null
echo "== kernels per element (16K elements)"
"$bin/etns_kernel_bench" --benchmark_filter='(quantized_sub|quantized_leaky_relu|quantized_hardswish|quantized_relu|quantized_mean)/tier1' \
  --benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true --benchmark_format=json --benchmark_out="$out/kernels.json" >/dev/null
echo "== etns run over 1,000 inputs"
# Wall time of one command in seconds, read from bash's clock: timing with
# `date` would count the start of a `date` process in every run.
# (Its digits are microseconds; the separator follows the locale.)
seconds() {
  local start=${EPOCHREALTIME//[!0-9]/}
  "$@" >/dev/null
  local end=${EPOCHREALTIME//[!0-9]/}
  printf '%d.%06d\n' $(((end - start) / 1000000)) $(((end - start) % 1000000))
}
thread_rounds=31  # medians of 15 moved by 0.1 in the ratio between batches on a 2-core VM
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( (thread_rounds + 1) / 2 ))p"; }
# threads NAME PROGRAM PROVIDER INPUT_BYTES: 1,000 random inputs, run with one
# thread and two, writing output files and labelled (no files: the inference
# alone, as creating 1,000 files costs more than small inferences on some file
# systems). The median of 31 runs each, one and two threads taking turns so
# the machine's slow spells fall on both; each run writes to a fresh folder.
# The inputs and outputs go to memory (/dev/shm) where the machine has it, or
# to ETNS_THREADS_DIR: what is measured is etns's work, and a virtual
# machine's disk can be rate-limited (on the one of docs/host-speed.md,
# creating 1,000 files took from 0.05 to 0.7 s, run to run).
threads_base=${ETNS_THREADS_DIR:-}
if [ -z "$threads_base" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    threads_base=$(mktemp -d /dev/shm/etns-host-speed.XXXXXX)
    trap 'rm -rf "$threads_base"' EXIT
  else
    threads_base=$out/threads
  fi
fi
threads_fs=$(df -T "$(mkdir -p "$threads_base" && cd "$threads_base" && pwd)" | awk 'NR == 2 {print $2}')
threads_rows=()
threads() {
  local name=$1 program=$2 provider=$3 size=$4 dir=$threads_base/$1
  mkdir -p "$dir/inputs"
  for i in $(seq -w 1 1000); do head -c "$size" /dev/urandom >"$dir/inputs/in$i.bin"; done
  (cd "$dir/inputs" && for f in *.bin; do echo "$f 0"; done) >"$dir/labels.txt"
  local ones=() twos=() ones_labelled=() twos_labelled=() round
  local run=("$bin/etns" run "$program" --provider "$provider" --inputs "$dir/inputs")
  for round in $(seq "$thread_rounds"); do
    rm -rf "$dir/o1" "$dir/o2"
    ones+=("$(seconds "${run[@]}" --outputs "$dir/o1" --threads 1)")
    twos+=("$(seconds "${run[@]}" --outputs "$dir/o2" --threads 2)")
    cmp -s <(cat "$dir"/o1/*) <(cat "$dir"/o2/*) || { echo "host_speed: $name: outputs differ between 1 and 2 threads" >&2; exit 1; }
    ones_labelled+=("$(seconds "${run[@]}" --labels "$dir/labels.txt" --threads 1)")
    twos_labelled+=("$(seconds "${run[@]}" --labels "$dir/labels.txt" --threads 2)")
  done
  threads_rows+=("$(printf '{"program": "%s", "one_thread_s": %s, "two_threads_s": %s, ' "$name" \
    "$(median "${ones[@]}")" "$(median "${twos[@]}")")$(printf '"one_thread_labelled_s": %s, "two_threads_labelled_s": %s}' \
    "$(median "${ones_labelled[@]}")" "$(median "${twos_labelled[@]}")")")
}
threads dscnn "$out/export/dscnn_arm.pte" arm "$(wc -c <"$out/export/dscnn.input.bin")"
# The MLPerf Tiny classifiers: a keyword spotter and an image classifier.
if [ -f "$models/kws.tflite" ]; then
  for m in kws ic; do threads "$m" "$out/$m.pte" ns "$(wc -c <"$models/$m.A.input.bin")"; done
fi
(IFS=,; echo "{\"file_system\": \"$threads_fs\", \"rounds\": $thread_rounds, \"runs\": [${threads_rows[*]}]}") >"$out/threads.json"

cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
python3 - "$out" "$cpu" "$(nproc)" <<'PY'
import json, sys, os
out, cpu, cores = sys.argv[1], sys.argv[2], sys.argv[3]
def medians(path):
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") == "median":
            rows[b["run_name"]] = b["real_time"] * {"us": 1e3, "ns": 1.0, "ms": 1e6}[b["time_unit"]]
    return rows
programs = medians(os.path.join(out, "programs.json"))
kernels = medians(os.path.join(out, "kernels.json"))
threads = json.load(open(os.path.join(out, "threads.json")))
us = lambda ns: f"{ns / 1e3:,.1f} µs"
target = json.load(open(os.path.join(out, "programs.json")))["context"].get("hwy_target", "none")
forced = " (forced by ETNS_HWY_TARGET; etns run below keeps the CPU's own)" if os.environ.get("ETNS_HWY_TARGET") else ""
print(f"CPU: {cpu} ({cores} cores), host SIMD target {target}{forced}; median of each benchmark's repetitions (interleaved at random), one run.\n")
print("| program | fast | reference | reference ÷ fast |")
print("|---|---:|---:|---:|")
names = sorted({n.rsplit("/", 1)[0] for n in programs})
for n in names:
    f, r = programs.get(n + "/fast"), programs.get(n + "/reference")
    if f and r: print(f"| {n} | {us(f)} | {us(r)} | {r / f:.1f}x |")
print("\n| pair | arm (fast) | ns (fast) | ns ÷ arm |")
print("|---|---:|---:|---:|")
for n in names:
    if n.endswith("_arm") and n[:-4] + "_ns" in names:
        a, s = programs[n + "/fast"], programs[n[:-4] + "_ns/fast"]
        print(f"| {n[:-4]} | {us(a)} | {us(s)} | {s / a:.2f} |")
xnnpack = {"quantized_sub/tier1": ("sub", 0.084), "quantized_leaky_relu/tier1": ("leaky_relu", 0.056),
           "quantized_hardswish/tier1": ("hardswish", 0.099), "quantized_relu/tier1_clamp": ("clamp (relu, identity)", 0.013),
           "quantized_mean/tier1_channels_last": ("NHWC mean", 0.030)}
print("\n| kernel (16,384 elements) | reference ns/element | fastest variant ns/element | XNNPACK | ≤ XNNPACK |")
print("|---|---:|---:|---:|---|")
for row, (label, goal) in xnnpack.items():
    variants = {k.split("/")[-1]: v for k, v in kernels.items() if k.rsplit("/", 1)[0] == row}
    if not variants: continue
    faster = [v for k, v in variants.items() if k != "ref"]
    best = min(faster) if faster else variants["ref"]  # a build without host variants
    print(f"| {label} | {variants['ref'] / 16384:.3f} | {best / 16384:.3f} | {goal} | {'yes' if best / 16384 <= goal else 'no'} |")
print(f"\n| etns run, 1,000 inputs on {threads['file_system']} (median of {threads['rounds']} runs each) | 1 thread | 2 threads | 2 ÷ 1 |")
print("|---|---:|---:|---:|")
for row in threads["runs"]:
    for mode, key in (("writing 1,000 output files", ""), ("labelled, no output files", "_labelled")):
        one, two = row[f"one_thread{key}_s"], row[f"two_threads{key}_s"]
        print(f"| {row['program']}, {mode} | {one:.3f} s | {two:.3f} s | {two / one:.2f}x |")
print("Outputs are identical with 1 and 2 threads.")
PY
