#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`: clang, ASan + UBSan) and runs
# each for a bounded time on a working copy of its seed corpus (fuzz/corpus/).
#   bash scripts/fuzz.sh            # CI: 60 s per target
#   bash scripts/fuzz.sh 3600 2     # a campaign: an hour per target, 2 workers each
#   bash scripts/fuzz.sh 600 1 arguments   # some targets only
# New inputs stay in build-fuzz/corpus/<target>; a crash is written to
# build-fuzz/crashes/<target>/ and fails the script. Minimise one with
#   build-fuzz/bin/etns_fuzz_<target> -minimize_crash=1 -runs=10000 <crash>
# and commit the result under fuzz/corpus/<target>/ once fixed (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
workers=${2:-1}
targets=(program arguments lower config bundle elf tflite)
if [ $# -gt 2 ]; then targets=("${@:3}"); fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]/#/etns_fuzz_}"

# The bundle and config targets write scratch files: keep them in memory when we can.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi

status=0
summary=()
for target in "${targets[@]}"; do
  mkdir -p build-fuzz/corpus/"$target" build-fuzz/crashes/"$target"
  cp -n fuzz/corpus/"$target"/* build-fuzz/corpus/"$target"/ 2>/dev/null || true
  # The real MLPerf Tiny models, when ../shared has them, seed the working
  # corpus only: they are never copied into the repository.
  if [ "$target" = tflite ]; then
    cp -n "${ETNS_SHARED_DIR:-../shared}"/models/mlperf-tiny/*.tflite build-fuzz/corpus/tflite/ 2>/dev/null || true
  fi
  echo "== fuzz $target: ${seconds} s, $workers worker(s)"
  # libFuzzer writes a worker's log as fuzz-<n>.log in the current folder.
  rm -f build-fuzz/fuzz-*.log
  crashes_before=$(ls build-fuzz/crashes/"$target" | wc -l)
  set +e
  (cd build-fuzz && ./bin/etns_fuzz_"$target" corpus/"$target" -max_total_time="$seconds" -print_final_stats=1 \
     -artifact_prefix=crashes/"$target"/ -timeout=10 -rss_limit_mb=2048 \
     $([ "$workers" -gt 1 ] && echo "-jobs=$workers -workers=$workers") >"$target.log" 2>&1)
  rc=$?
  set -e
  runs=$({ cat build-fuzz/"$target".log build-fuzz/fuzz-*.log 2>/dev/null || true; } |
         awk '/stat::number_of_executed_units/ {n += $2} END {print n + 0}')
  summary+=("$target: $runs inputs executed, exit $rc")
  if [ "$rc" -ne 0 ] || [ "$(ls build-fuzz/crashes/"$target" | wc -l)" -ne "$crashes_before" ]; then
    echo "fuzz $target: FAILED (exit $rc); the input is in build-fuzz/crashes/$target, the log in build-fuzz/$target.log" >&2
    tail -40 build-fuzz/"$target".log build-fuzz/fuzz-*.log 2>/dev/null >&2 || true
    status=1
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
