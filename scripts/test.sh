#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the host suite, then
# the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then each
# libFuzzer target for a minute (scripts/fuzz.sh; docs/fuzzing.md).
# Tests that need ../shared (models, goldens) skip, saying so, when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
jobs=$(nproc)

for preset in host host-asan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done

echo "== fuzz: every target for 60 s (ASan + UBSan)"
bash scripts/fuzz.sh 60
