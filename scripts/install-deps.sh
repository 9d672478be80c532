#!/usr/bin/env bash
# Installs every Debian 12 package etns needs to build, test and run (run as root).
# Host build and tests: compilers, CMake, flatbuffers, CLI/config/JSON libraries, GoogleTest,
# Highway (host SIMD kernel variants);
# clang and its sanitizer runtimes (libFuzzer) for the fuzz targets.
# Cortex-M55 target: the Arm bare-metal toolchain, newlib, its C++ headers and QEMU;
# LLVM 19 (its Cortex-M55 scheduling model and MCA library) for the cycle estimate.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git python3
  libflatbuffers-dev flatbuffers-compiler
  libcli11-dev nlohmann-json3-dev libyaml-cpp-dev libfmt-dev libelf-dev zlib1g-dev nettle-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libhwy-dev
  clang libclang-rt-14-dev
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-dev libstdc++-arm-none-eabi-newlib
  qemu-system-arm
  llvm-19-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run this script as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
