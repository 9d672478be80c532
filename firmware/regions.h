/* Region markers for your own Cortex-M firmware, timed per region by
 * `etns time FIRMWARE.elf` under QEMU (docs/porting.md, "Timing your own
 * firmware"). C and C++, no dependency beyond <stdint.h>; installed with the
 * device package as include/firmware/regions.h.
 *
 *   #include "firmware/regions.h"
 *
 *   enum { kRegionLoad = 0, kRegionInference = 1 };
 *   ETNS_REGIONS_DEFINE_TABLE();              // in exactly one source file
 *   ETNS_REGION_NAME(kRegionLoad, "load");    // in any source file, at file scope
 *   ETNS_REGION_NAME(kRegionInference, "inference");
 *
 *   etns_region_begin(kRegionInference);
 *   run_the_model();
 *   etns_region_end(kRegionInference);
 *
 * Regions. An id is a constant in [0, ETNS_REGIONS_MAX) (32 unless the
 * build defines it: define it for the whole target, for example with
 * target_compile_definitions, since a file that disagrees with the table's
 * file fails to link, naming etns_regions_max_<N>). Regions may nest and
 * repeat; each begin..end pair is one visit. An id outside the range is
 * ignored at run time (the check folds away for a constant id).
 *
 * Markers. The table is 2 * ETNS_REGIONS_MAX Thumb `bx lr` instructions
 * (2 bytes each, 128 bytes for 32 regions) at the symbol
 * etns_region_markers, in the section .text.etns_region_markers (your
 * linker script's *(.text*) takes it); marker 2r begins region r and marker
 * 2r+1 ends it, which is how the counting plugin (qemu_plugin/etns_counter.c)
 * reads them. etns_region_begin and etns_region_end are inlined and call
 * their marker with one `blx`; the marker returns at once and changes no
 * register but lr. On a board without QEMU a marker is just that: a call and
 * a return, a few cycles, harmless.
 *
 * Overhead. A visit counts what runs after the begin marker's `bx lr` up to
 * and including the `blx` into the end marker: with optimisation, the end
 * marker's address (one or two instructions) and the `blx`, so an empty
 * region counts 2 or 3 instructions. The markers are compiler barriers for
 * memory (a "memory" clobber); register-only arithmetic may still move across
 * them, as across any timing call. The caller saves lr, as around any call.
 *
 * Names. ETNS_REGION_NAME(id, "name") records the name in the ELF file's
 * section .etns_region_names, which is not loaded (it costs no flash or RAM)
 * and survives --gc-sections; `etns time` prints it. The record sits in a
 * function that nothing calls, a `bx lr` that -ffunction-sections with
 * --gc-sections drops. A name is printable
 * ASCII without `"`, `\` or `%`, at most 64 characters; naming one id twice
 * with different names is refused by `etns time`. Records: a 4-byte
 * little-endian id, then the name and a NUL. A region without a name prints
 * as "region <id>".
 *
 * Off. On anything but Thumb code (a host build of the same sources), or
 * with ETNS_REGIONS_OFF defined, the macros define nothing and the calls do
 * nothing. */
#pragma once

#include <stdint.h>

#ifndef ETNS_REGIONS_MAX
#define ETNS_REGIONS_MAX 32 /* a plain decimal number: it names a symbol */
#endif

#define ETNS_REGIONS_STR_(x) #x
#define ETNS_REGIONS_STR(x) ETNS_REGIONS_STR_(x)
#define ETNS_REGIONS_CAT_(a, b) a##b
#define ETNS_REGIONS_CAT(a, b) ETNS_REGIONS_CAT_(a, b)

#ifdef __cplusplus
#define ETNS_REGIONS_STATIC_ASSERT_ static_assert
#define ETNS_REGIONS_EXTERN_C_ extern "C"
#else
#define ETNS_REGIONS_STATIC_ASSERT_ _Static_assert
#define ETNS_REGIONS_EXTERN_C_ extern
#endif

#if defined(__arm__) && defined(__thumb__) && !defined(ETNS_REGIONS_OFF)

ETNS_REGIONS_EXTERN_C_ const uint16_t etns_region_markers[];

/* The table, and the symbol every file that calls a marker refers to: its
 * name carries ETNS_REGIONS_MAX, so files built with another maximum do not
 * link against it. */
#define ETNS_REGIONS_DEFINE_TABLE()                                                  \
  __asm__(".pushsection .text.etns_region_markers, \"ax\", %progbits\n"              \
          ".thumb\n"                                                                 \
          ".balign 4\n"                                                              \
          ".global etns_region_markers\n"                                            \
          ".type etns_region_markers, %object\n"                                     \
          "etns_region_markers:\n"                                                   \
          ".rept 2 * " ETNS_REGIONS_STR(ETNS_REGIONS_MAX) "\n"                       \
          "bx lr\n"                                                                  \
          ".endr\n"                                                                  \
          ".size etns_region_markers, . - etns_region_markers\n"                     \
          ".global etns_regions_max_" ETNS_REGIONS_STR(ETNS_REGIONS_MAX) "\n"        \
          ".set etns_regions_max_" ETNS_REGIONS_STR(ETNS_REGIONS_MAX) ", "           \
          ETNS_REGIONS_STR(ETNS_REGIONS_MAX) "\n"                                    \
          ".popsection")

/* A function that is never called (the linker drops it with
 * --gc-sections) holding the name record, emitted into the unloaded
 * section; the "i" operand makes the id a compile-time constant. */
#define ETNS_REGION_NAME(id, name)                                                              \
  __attribute__((used)) static void ETNS_REGIONS_CAT(etns_region_name_, __COUNTER__)(void) {   \
    ETNS_REGIONS_STATIC_ASSERT_((unsigned long long)(id) < ETNS_REGIONS_MAX,                     \
                                "region id outside [0, ETNS_REGIONS_MAX)");                     \
    __asm__ volatile(".pushsection .etns_region_names, \"\", %%progbits\n\t"                    \
                     ".4byte %c0\n\t"                                                           \
                     ".asciz \"" name "\"\n\t"                                                  \
                     ".popsection"                                                              \
                     :                                                                          \
                     : "i"(id));                                                                \
  }                                                                                             \
  struct etns_regions_semicolon_

/* Calls marker `marker` (Thumb: bit 0 set). The R_ARM_NONE relocation adds
 * no byte; it makes the link fail ("undefined reference to
 * etns_regions_max_<N>") when this file's ETNS_REGIONS_MAX differs from the
 * table's, instead of calling past the table. */
__attribute__((always_inline)) static inline void etns_region_marker_(uint32_t marker) {
  const uintptr_t address = (uintptr_t)etns_region_markers + 2u * marker + 1u;
  __asm__ volatile(
      ".reloc ., R_ARM_NONE, etns_regions_max_" ETNS_REGIONS_STR(ETNS_REGIONS_MAX) "\n\t"
      "blx %0"
      :
      : "r"(address)
      : "lr", "memory");
}

/* Begins a visit of region `id`. */
__attribute__((always_inline)) static inline void etns_region_begin(uint32_t id) {
  if (id < ETNS_REGIONS_MAX) etns_region_marker_(2u * id);
}

/* Ends the visit of region `id` begun last. */
__attribute__((always_inline)) static inline void etns_region_end(uint32_t id) {
  if (id < ETNS_REGIONS_MAX) etns_region_marker_(2u * id + 1u);
}

#else /* not Thumb, or ETNS_REGIONS_OFF: nothing */

#define ETNS_REGIONS_DEFINE_TABLE() struct etns_regions_semicolon_
#define ETNS_REGION_NAME(id, name) struct etns_regions_semicolon_

static inline void etns_region_begin(uint32_t id) { (void)id; }
static inline void etns_region_end(uint32_t id) { (void)id; }

#endif
