#pragma once

// The instruction classes the QEMU counter counts, as the plugin (C), the
// host tools and the docs name them: one enum and one name table, included
// by all of them, so no class name is typed twice. Device-safe: C and C++,
// no library. What each class holds: qemu_plugin/insn_class.h.

#ifdef __cplusplus
extern "C" {
#endif

// Indexes into every per-class counter array; the counts JSON lists the
// classes in this order, then "weighted".
enum EtnsInsnClass {
  kEtnsClassTotal = 0,
  kEtnsClassMve,
  kEtnsClassMveLoad,
  kEtnsClassMveStore,
  kEtnsClassMveGather,
  kEtnsClassMveScatter,
  kEtnsClassFp,
  kEtnsClassLoad,
  kEtnsClassStore,
  kEtnsClassBranch,
  kEtnsClassLoop,
  kEtnsClassCount,
};

// JSON names, indexed by EtnsInsnClass (internal linkage: one copy per user).
static const char* const kEtnsClassNames[kEtnsClassCount] = {
    "total", "mve",   "mve_load", "mve_store", "mve_gather", "mve_scatter",
    "fp",    "load",  "store",    "branch",    "loop",
};

// The lane-weighted count the JSON appends after the classes.
#define ETNS_WEIGHTED_NAME "weighted"

#ifdef __cplusplus
}
#endif
