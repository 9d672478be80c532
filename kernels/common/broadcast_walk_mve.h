#pragma once

// Helium rows for the symmetric int8 binary operators walked by
// kernels::broadcast_walk_rows (minimum, maximum): one instruction `insn`
// ("vmin.s8") applied lane by lane. Only included by *_mve.cpp files.
#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

// Defines, in the current namespace, struct <name> with
//   static void row(const int8_t* a, const int8_t* b, int8_t* out, size_t n);
//   static void scalar_row(int8_t scalar, const int8_t* b, int8_t* out, size_t n);
// (a type, so that kernels::broadcast_walk_rows calls them directly) as tail-predicated low-overhead loops (wlstp/letp): 16 lanes per pass, the
// last pass only the remaining lanes, no separate tail code. GCC 12 does not
// form these loops from intrinsics, hence the assembly; the instruction is a
// string literal, hence a macro.
#define ETNS_S8_BINARY_ROWS(name, insn)                                                           \
  struct name {                                                                                   \
    static void row(const int8_t* a, const int8_t* b, int8_t* out, size_t n) {                    \
      asm volatile("   wlstp.8 lr, %[n], 2f\n"                                                    \
                   "1: vldrb.8 q0, [%[a]], #16\n"                                                 \
                   "   vldrb.8 q1, [%[b]], #16\n"                                                 \
                   "   " insn " q0, q0, q1\n"                                                     \
                   "   vstrb.8 q0, [%[out]], #16\n"                                               \
                   "   letp    lr, 1b\n"                                                          \
                   "2:\n"                                                                         \
                   : [a] "+r"(a), [b] "+r"(b), [out] "+r"(out)                                    \
                   : [n] "r"(n)                                                                   \
                   : "q0", "q1", "lr", "memory");                                                 \
    }                                                                                             \
    static void scalar_row(int8_t scalar, const int8_t* b, int8_t* out, size_t n) {               \
      const int8x16_t repeated = vdupq_n_s8(scalar);                                              \
      asm volatile("   wlstp.8 lr, %[n], 2f\n"                                                    \
                   "1: vldrb.8 q0, [%[b]], #16\n"                                                 \
                   "   " insn " q0, q0, %q[s]\n"                                                  \
                   "   vstrb.8 q0, [%[out]], #16\n"                                               \
                   "   letp    lr, 1b\n"                                                          \
                   "2:\n"                                                                         \
                   : [b] "+r"(b), [out] "+r"(out)                                                 \
                   : [n] "r"(n), [s] "w"(repeated)                                                \
                   : "q0", "lr", "memory");                                                       \
    }                                                                                             \
  };
