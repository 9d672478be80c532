#!/bin/sh
# firmware/regions.h as a user's build sees it, with arm-none-eabi-gcc: one
# C file and one C++ file, at -O0 and -O2, warnings as errors, linked with
# --gc-sections. The image must hold the table (2 * ETNS_REGIONS_MAX bx lr at
# etns_region_markers) and the names (.etns_region_names, unloaded); a file
# built with another ETNS_REGIONS_MAX must fail the link naming
# etns_regions_max_<N>; a name for an id past the table must fail to compile;
# ETNS_REGIONS_OFF and a host compiler must leave no marker behind. Exit 77
# (CTest's skip) without arm-none-eabi-gcc.
#   check_regions_header.sh SOURCE_DIR WORK_DIR
source=$1
work=$2
command -v arm-none-eabi-gcc >/dev/null 2>&1 || { echo "skipped: arm-none-eabi-gcc not found"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() {
  echo "FAIL: $1"
  exit 1
}
flags="-mcpu=cortex-m55 -mthumb -mfloat-abi=hard -Wall -Wextra -Wpedantic -Werror -ffunction-sections -I$source"

cat >"$work/table.cpp" <<'EOF'
#include "firmware/regions.h"
enum : uint32_t { kRegionLoad = 0, kRegionRun = 31 };
ETNS_REGIONS_DEFINE_TABLE();
ETNS_REGION_NAME(kRegionLoad, "load");
ETNS_REGION_NAME(kRegionRun, "run, all of it");
volatile int g_sink;
extern "C" void run(int n) {
  etns_region_begin(kRegionRun);
  for (int i = 0; i < n; ++i) g_sink = i;
  etns_region_end(kRegionRun);
}
EOF
cat >"$work/user.c" <<'EOF'
#include "firmware/regions.h"
ETNS_REGION_NAME(5, "from C");
void run(int n);
int main(void) {
  etns_region_begin(0);
  etns_region_end(0);
  etns_region_begin(5);
  run(3);
  etns_region_end(5);
  return 0;
}
EOF
link() {
  arm-none-eabi-gcc -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -nostartfiles -nostdlib -Wl,--gc-sections \
    -Wl,-e,main -Ttext=0x0 "$@"
}
for opt in -O0 -O2; do
  arm-none-eabi-g++ $flags -std=c++17 $opt -c "$work/table.cpp" -o "$work/table$opt.o" || fail "C++ at $opt"
  arm-none-eabi-gcc $flags -std=c11 $opt -c "$work/user.c" -o "$work/user$opt.o" || fail "C at $opt"
  link "$work/table$opt.o" "$work/user$opt.o" -o "$work/image$opt.elf" || fail "link at $opt"
  arm-none-eabi-nm -S "$work/image$opt.elf" | grep -q " 00000080 T etns_region_markers$" ||
    fail "$opt: etns_region_markers is not 128 bytes of code"
  start=$(arm-none-eabi-nm "$work/image$opt.elf" | awk '$3 == "etns_region_markers" { print $1 }')
  # The table is typed as an object, so objdump shows its bytes: bx lr is 70 47.
  words=$(arm-none-eabi-objdump -s -j .text --start-address=0x$start --stop-address=$((0x$start + 128)) \
    "$work/image$opt.elf" | awk 'NR > 4 { for (i = 2; i <= 5; i++) print $i }' | grep -o 7047 | wc -l)
  [ "$words" -eq 64 ] || fail "$opt: $words bx lr in the table, expected 64"
  section=$(arm-none-eabi-readelf -W -S "$work/image$opt.elf" | grep " \.etns_region_names ")
  [ -n "$section" ] || fail "$opt: no .etns_region_names (dropped by --gc-sections?)"
  echo "$section" | grep -Eq " [WXMS]*A[WXMS]* " && fail "$opt: .etns_region_names is loaded: $section"
  arm-none-eabi-objcopy --dump-section .etns_region_names="$work/names$opt.bin" "$work/image$opt.elf" "$work/scratch.elf" ||
    fail "$opt: cannot read .etns_region_names"
  names=$(tr '\0' '\n' <"$work/names$opt.bin" | grep -a -c -e "load$" -e "run, all of it$" -e "from C$")
  [ "$names" -eq 3 ] || fail "$opt: $names of the 3 names in .etns_region_names"
  echo "PASS: C and C++ at $opt: 64 markers, 3 names"
done

arm-none-eabi-gcc $flags -std=c11 -O2 -DETNS_REGIONS_MAX=8 -c "$work/user.c" -o "$work/user8.o" || fail "C, 8 regions"
if link "$work/table-O2.o" "$work/user8.o" -o "$work/mixed.elf" 2>"$work/mixed.log"; then
  fail "files built with different ETNS_REGIONS_MAX link"
fi
grep -q "undefined reference to \`etns_regions_max_8'" "$work/mixed.log" || { cat "$work/mixed.log"; fail "mixed maxima"; }
echo "PASS: a file built with ETNS_REGIONS_MAX 8 does not link against a table of 32"

printf '#include "firmware/regions.h"\nETNS_REGION_NAME(32, "past");\n' >"$work/past.c"
if arm-none-eabi-gcc $flags -std=c11 -c "$work/past.c" -o "$work/past.o" 2>"$work/past.log"; then
  fail "a name for region 32 compiles"
fi
grep -q "region id outside" "$work/past.log" || { cat "$work/past.log"; fail "region 32's error"; }
echo "PASS: a name for a region past the table does not compile"

arm-none-eabi-g++ $flags -std=c++17 -O2 -DETNS_REGIONS_OFF -c "$work/table.cpp" -o "$work/off.o" || fail "C++, off"
arm-none-eabi-nm "$work/off.o" | grep -q "etns_region_markers\|etns_regions_max" && fail "ETNS_REGIONS_OFF leaves a marker symbol"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$source" -c "$work/user.c" -o "$work/host.o" || fail "host C"
nm "$work/host.o" | grep -q "etns_region_markers\|etns_regions_max" && fail "a host build refers to the markers"
echo "PASS: ETNS_REGIONS_OFF and a host build leave no marker behind"
