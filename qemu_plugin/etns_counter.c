// etns_qemu_counter: a QEMU 7.2 TCG plugin (API v1) that counts the
// instructions a Cortex-M55 guest executes, by class, between region markers,
// and, with cycles=, estimates the Cortex-M55's core cycles for the same
// regions (cycle_model.h: LLVM 19's Cortex-M55 scheduling model). QEMU has no
// timing: the cycles are an estimate, the instruction counts are exact.
//
//   qemu-system-arm -M mps3-an547 ... -plugin
//     libetns_qemu_counter.so,markers=0xADDR,stride=4,count=32,out=counts.json
// (the -plugin argument is one word: no spaces after the commas)
//
// Arguments ("key=value"; an unknown key or bad value stops QEMU at start-up):
//   markers     address of the marker table (decimal or 0x hex; bit 0, the
//               Thumb bit that nm may show, is ignored)
//   stride      bytes from one marker function to the next (even, default 4)
//   count       number of markers (even, default 0: whole-program totals only)
//   out         JSON file, written at exit through FILE.tmp and a rename;
//               without it the JSON goes to QEMU's log (-d plugin [-D file])
//   max_visits  visits kept per region (default 256); later visits are
//               dropped, counted in "dropped_visits", and set "overflow"
//   cycles      a CPU LLVM 19 has a scheduling model for (cortex-m55): adds
//               the estimated cycles to every count (schema version 3)
//   cycle_cache 1 (default) times each pair of blocks once; 0 times every
//               execution again (for tests: the totals are the same)
//   memory      with cycles=: a file of memory regions and their wait states,
//               one per line, "LOW HIGH WAIT_STATES NAME" (addresses in hex,
//               HIGH excluded; '#' starts a comment; at most 32 regions):
//               data accesses into a region add its wait states to the
//               estimate (etns writes it from a board profile): a scalar
//               access, and each lane of a gather or scatter, pays them
//               once; a contiguous Helium load or store once per 64-bit
//               beat (QEMU accesses its lanes one by one; the M55 moves 64
//               bits a beat), so a VLDRW pays twice
//   blocks      with cycles=: a text file, written at exit through FILE.tmp
//               and a rename, of where the estimated cycles went: a '#'
//               header line, then per executed translated block
//               "0x<vaddr> <instructions> <executions> <est_cycles>" (the
//               block's share of "program": its estimated cycles and the wait
//               states its accesses paid, summed in thousandths and rounded
//               once per line). A block QEMU translated again at the same
//               address has a line per translation; blocks never executed
//               have none
//
// Markers. Marker i is the function at markers + i * stride. Marker 2r begins
// region r and marker 2r+1 ends it; region ids are the firmware's to assign
// (for example one per instruction of the program plus one for the whole run).
// A marker should be a single `bx lr` (the plugin warns once otherwise; the
// definition below still holds): the plugin cannot read registers (API v1),
// so the callee's address is the only way to say which event happened.
//
// What a visit counts. Every instruction executed strictly after the begin
// marker's first instruction and strictly before the end marker's first
// instruction. With `bx lr` markers that is the caller's code from the return
// of the begin call up to and including the instruction that calls the end
// marker (for a direct `bl`: one extra instruction, one extra branch; an
// empty region measures this overhead exactly). Regions may nest or repeat;
// each begin..end pair is one visit, recorded separately in execution order.
// A begin while the region is open restarts it, an end while it is closed is
// ignored; both, and regions still open at exit, count in "unbalanced".
// Every executed instruction counts once, whether or not its condition passes
// (IT blocks, untaken B<c>, VPT-predicated MVE), and LE/LETP once per
// iteration, as QEMU executes them (a core's loop cache may skip them).
//
// Output (keys in this order):
//   {"schema": "etns.qemu_counts", "schema_version": 2 (3 with cycles=),
//    "classes": ["total", "mve", "mve_load", "mve_store", "mve_gather",
//                "mve_scatter", "fp", "load", "store", "branch", "loop"],
//    "markers": {"base": B, "stride": S, "count": K},
//    "cycle_model": {"name": ..., "cpu": ..., "taken_branch_cycles": 3,
//                    "blocks": n, "pairs": n, "unmodelled_instructions": n,
//                    "memory": [{"name": ..., "low": a, "high": b,
//                                "wait_states": w, "accesses": n}, ...]},
//                                  only with cycles=
//    "program": {<class>: n, ..., "weighted": w[, "cycles": c]},   the whole run
//    "regions": [{"id": r, "dropped_visits": 0, "unbalanced": 0,
//                 "visits": [{<class>: n, ..., "weighted": w}, ...]}, ...],
//                                  ids with a visit or an unbalanced marker
//    "overflow": false}
// insn_class.h defines the classes and the weight: "weighted" counts every
// instruction once and each gather or scatter once per lane, so it is total
// plus (lanes - 1) per gather or scatter. Version 2 added mve_gather,
// mve_scatter and weighted; version 3 "cycles" (estimated, rounded per
// visit from thousandths) and "cycle_model".
//
// Cycles. Each translation block gets one execution callback that asks the
// cycle model for the block's cost after the block executed before it. A
// block holding a marker adds no cycles (it is the marker's `bx lr`, whose
// cost and the branch into it belong to no region), but it is the context
// of the block after it, which pays the taken branch of the return. The
// same callback counts the block's executions and keeps the cycles it adds,
// with the wait states of its accesses, for blocks=.
//
// How it counts. At translation each instruction is classified from its
// encoding and each translation block (TB) gets one inline 64-bit add per
// non-zero class, executed when the TB starts: no helper calls, so a run is
// barely slower than without the plugin. A TB that contains a marker gets no
// inline adds; instead the marker's one callback adds that TB's counts around
// its snapshot, so the snapshot sees exactly the instructions before it.
// Caveat: an exception raised in the middle of a TB (a fault; SVC, BKPT and
// semihosting calls end their TB, interrupts arrive between TBs) leaves it
// early after its whole count was added, so such a run over-counts the
// instructions the TB skipped. Counts are deterministic: the same image gives
// the same numbers on every run.
//
// One vCPU only (mps3-an547 has one): the counters are plain, not atomic.

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin/cycle_model.h"
#include "qemu_plugin/insn_class.h"
#include "qemu_plugin/qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

enum {
  kMaxMarkers = 1 << 16,
  kDefaultStride = 4,
  kDefaultMaxVisits = 256,
  kMaxVisitsLimit = 1 << 20,
  kBxLr = 0x4770,
};

// One counter per class, then the weighted count, then the estimated cycles
// in thousandths.
enum { kWeighted = kEtnsClassCount, kCyclesMilli, kCounters };

typedef struct Counts {
  uint64_t n[kCounters];
} Counts;

typedef struct Region {
  Counts open;  // counters at the begin snapshot
  int is_open;
  uint32_t unbalanced;
  uint64_t dropped_visits;
  uint32_t n_visits;
  uint32_t capacity;
  Counts* visits;
} Region;

// One marker instruction in one translated block: the counts of the block's
// instructions before it (since the previous marker in the block), of the
// marker instruction itself, and, for the block's last marker, after it.
typedef struct MarkerSite {
  struct MarkerSite* next;  // every site ever created, freed at exit
  uint32_t marker;
  Counts before;
  Counts self;
  Counts after;
} MarkerSite;

enum { kMaxWaitRegions = 32 };

// A memory region whose data accesses cost wait states (memory=).
typedef struct WaitRegion {
  uint64_t low;
  uint64_t high;  // excluded
  uint32_t wait_states;
  char name[64];
  uint64_t accesses;
} WaitRegion;

// What the execution callback of one translated block needs, and what it
// accumulates for blocks=.
typedef struct BlockCycles {
  struct BlockCycles* next;  // every one ever created, freed at exit
  EtnsCycleBlock* block;
  int holds_marker;
  uint64_t vaddr;
  uint32_t n_insns;
  uint64_t executions;
  uint64_t cycles_milli;  // the part of g_counters' cycles this block added
} BlockCycles;

static struct {
  uint64_t base;
  uint64_t stride;
  uint32_t count;
  uint32_t max_visits;
  const char* out_path;  // points into argv, which QEMU keeps alive
  Region* regions;
  uint32_t n_regions;
  MarkerSite* sites;
  int overflow;
  int warned_marker_shape;
  const char* cycles_cpu;  // NULL: no cycle estimate
  int cycle_cache;
  EtnsCycleModel* cycle_model;
  BlockCycles* block_cycles;
  const char* memory_path;
  const char* blocks_path;  // NULL: no per-block profile
  BlockCycles* executing_block;  // the block whose accesses pay wait states now
  WaitRegion wait_regions[kMaxWaitRegions];
  uint32_t n_wait_regions;
} g_plugin = {.stride = kDefaultStride, .max_visits = kDefaultMaxVisits, .cycle_cache = 1};

// The targets of the inline adds; the marker callbacks read and add to them.
static Counts g_counters;

static void add_counts(Counts* to, const Counts* from) {
  for (int c = 0; c < kCounters; ++c) to->n[c] += from->n[c];
}

static void add_instruction(Counts* to, uint32_t mask, uint32_t weight) {
  for (int c = 0; c < kEtnsClassCount; ++c) to->n[c] += (mask >> c) & 1u;
  to->n[kWeighted] += weight;
}

static int64_t marker_index(uint64_t vaddr) {
  if (g_plugin.count == 0 || vaddr < g_plugin.base) return -1;
  const uint64_t offset = vaddr - g_plugin.base;
  if (offset % g_plugin.stride != 0) return -1;
  const uint64_t index = offset / g_plugin.stride;
  return index < g_plugin.count ? (int64_t)index : -1;
}

static void record_visit(Region* region, const Counts* delta) {
  if (region->n_visits == g_plugin.max_visits) {
    ++region->dropped_visits;
    g_plugin.overflow = 1;
    return;
  }
  if (region->n_visits == region->capacity) {
    uint32_t capacity = region->capacity ? region->capacity * 2 : 8;
    if (capacity > g_plugin.max_visits) capacity = g_plugin.max_visits;
    Counts* grown = realloc(region->visits, capacity * sizeof(Counts));
    if (grown == NULL) {  // keep counting; the visit is reported as dropped
      ++region->dropped_visits;
      g_plugin.overflow = 1;
      return;
    }
    region->visits = grown;
    region->capacity = capacity;
  }
  region->visits[region->n_visits++] = *delta;
}

static void on_marker(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  const MarkerSite* site = userdata;
  add_counts(&g_counters, &site->before);
  Region* region = &g_plugin.regions[site->marker / 2];
  if (site->marker % 2 == 0) {
    if (region->is_open) ++region->unbalanced;
    region->open = g_counters;
    add_counts(&region->open, &site->self);  // the begin marker is not in the region
    region->is_open = 1;
  } else if (!region->is_open) {
    ++region->unbalanced;
  } else {
    Counts delta;
    for (int c = 0; c < kCounters; ++c) delta.n[c] = g_counters.n[c] - region->open.n[c];
    record_visit(region, &delta);
    region->is_open = 0;
  }
  add_counts(&g_counters, &site->self);
  add_counts(&g_counters, &site->after);
}

static void on_block_exec(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  BlockCycles* info = userdata;
  const uint64_t milli = etns_cycle_execute(g_plugin.cycle_model, info->block);
  g_plugin.executing_block = info;
  ++info->executions;
  if (!info->holds_marker) {
    g_counters.n[kCyclesMilli] += milli;
    info->cycles_milli += milli;
  }
}

// The block's code for the cycle model; the execution callback is registered
// before any marker callback, so the cycles are in before the snapshot.
static void add_block_cycles(struct qemu_plugin_tb* tb, size_t n_insns) {
  uint8_t code[4 * 512];
  size_t used = 0;
  int holds_marker = 0;
  for (size_t i = 0; i < n_insns; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    const uint8_t* bytes = qemu_plugin_insn_data(insn);
    const size_t length = etns_thumb_length(bytes, qemu_plugin_insn_size(insn));
    if (marker_index(qemu_plugin_insn_vaddr(insn)) >= 0) holds_marker = 1;
    if (used + length > sizeof(code)) break;  // QEMU's blocks hold at most 512 instructions
    memcpy(code + used, bytes, length);
    used += length;
  }
  BlockCycles* info = calloc(1, sizeof(*info));
  if (info == NULL) {
    fprintf(stderr, "etns_qemu_counter: out of memory at a block\n");
    abort();
  }
  info->vaddr = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
  info->block = etns_cycle_block(g_plugin.cycle_model, info->vaddr, code, used);
  info->holds_marker = holds_marker;
  info->n_insns = (uint32_t)n_insns;
  info->next = g_plugin.block_cycles;
  g_plugin.block_cycles = info;
  qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block_exec, QEMU_PLUGIN_CB_NO_REGS, info);
}

// How an instruction's accesses pay wait states: each access, or per 64-bit
// beat (the userdata of its memory callback).
enum { kPayPerAccess = 1, kPayPerBeat = 2 };

// Data accesses pay their region's wait states (memory=).
static void on_memory_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void* userdata) {
  (void)vcpu_index;
  for (uint32_t r = 0; r < g_plugin.n_wait_regions; ++r) {
    WaitRegion* region = &g_plugin.wait_regions[r];
    if (vaddr >= region->low && vaddr < region->high) {
      ++region->accesses;
      uint64_t milli = (uint64_t)region->wait_states * kEtnsMilliCycles;
      if ((uintptr_t)userdata == kPayPerBeat) milli = milli * (1u << qemu_plugin_mem_size_shift(info)) / 8;
      g_counters.n[kCyclesMilli] += milli;
      // Accesses come only from executing blocks, after their block callback.
      if (g_plugin.executing_block != NULL) g_plugin.executing_block->cycles_milli += milli;
      return;
    }
  }
}

static void warn_marker_shape(uint32_t marker, uint64_t vaddr) {
  if (g_plugin.warned_marker_shape) return;
  g_plugin.warned_marker_shape = 1;
  fprintf(stderr,
          "etns_qemu_counter: marker %" PRIu32 " at 0x%" PRIx64
          " does not start with bx lr; its body counts as part of the region\n",
          marker, vaddr);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n_insns = qemu_plugin_tb_n_insns(tb);
  if (g_plugin.cycle_model != NULL && n_insns > 0) add_block_cycles(tb, n_insns);
  Counts pending = {{0}};  // instructions since the block start or the last marker
  MarkerSite* last_site = NULL;
  for (size_t i = 0; i < n_insns; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    const uint8_t* bytes = qemu_plugin_insn_data(insn);
    const size_t size = qemu_plugin_insn_size(insn);
    // Classified from its own bytes: at a page end QEMU hands over one more halfword.
    const uint32_t mask = etns_classify_thumb(bytes, size);
    const uint32_t weight = etns_weight_thumb(bytes, size);
    const uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
    const int64_t marker = marker_index(vaddr);
    const uint32_t memory_classes = (1u << kEtnsClassLoad) | (1u << kEtnsClassStore);
    if (g_plugin.n_wait_regions > 0 && (mask & memory_classes) != 0) {
      const uint32_t contiguous = (1u << kEtnsClassMveLoad) | (1u << kEtnsClassMveStore);
      const uint32_t lanes = (1u << kEtnsClassMveGather) | (1u << kEtnsClassMveScatter);
      const uintptr_t pay = (mask & contiguous) != 0 && (mask & lanes) == 0 ? kPayPerBeat : kPayPerAccess;
      qemu_plugin_register_vcpu_mem_cb(insn, on_memory_access, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                       (void*)pay);
    }
    if (marker < 0) {
      add_instruction(&pending, mask, weight);
      continue;
    }
    if (etns_thumb_length(bytes, size) != 2 || (bytes[0] | (bytes[1] << 8)) != kBxLr) {
      warn_marker_shape((uint32_t)marker, vaddr);
    }
    MarkerSite* site = calloc(1, sizeof(*site));
    if (site == NULL) {
      fprintf(stderr, "etns_qemu_counter: out of memory at a marker\n");
      abort();
    }
    site->marker = (uint32_t)marker;
    site->before = pending;
    add_instruction(&site->self, mask, weight);
    site->next = g_plugin.sites;
    g_plugin.sites = site;
    memset(&pending, 0, sizeof(pending));
    last_site = site;
    qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS, site);
  }
  if (last_site != NULL) {
    last_site->after = pending;
    return;
  }
  for (int c = 0; c < kCyclesMilli; ++c) {
    if (pending.n[c] != 0) {
      qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &g_counters.n[c],
                                               pending.n[c]);
    }
  }
}

// Thousandths to whole cycles, rounded once, when written.
static uint64_t rounded_cycles(uint64_t milli) { return (milli + kEtnsMilliCycles / 2) / kEtnsMilliCycles; }

static void write_counts(FILE* out, const Counts* counts) {
  fputc('{', out);
  for (int c = 0; c < kEtnsClassCount; ++c) {
    fprintf(out, "%s\"%s\": %" PRIu64, c ? ", " : "", kEtnsClassNames[c], counts->n[c]);
  }
  fprintf(out, ", \"" ETNS_WEIGHTED_NAME "\": %" PRIu64, counts->n[kWeighted]);
  if (g_plugin.cycle_model != NULL) {
    fprintf(out, ", \"cycles\": %" PRIu64, rounded_cycles(counts->n[kCyclesMilli]));
  }
  fputc('}', out);
}

static void write_json(FILE* out) {
  fprintf(out, "{\n  \"schema\": \"etns.qemu_counts\",\n  \"schema_version\": %d,\n",
          g_plugin.cycle_model != NULL ? 3 : 2);
  fprintf(out, "  \"classes\": [");
  for (int c = 0; c < kEtnsClassCount; ++c) {
    fprintf(out, "%s\"%s\"", c ? ", " : "", kEtnsClassNames[c]);
  }
  fprintf(out,
          "],\n  \"markers\": {\"base\": %" PRIu64 ", \"stride\": %" PRIu64 ", \"count\": %" PRIu32
          "},\n",
          g_plugin.base, g_plugin.stride, g_plugin.count);
  if (g_plugin.cycle_model != NULL) {
    const EtnsCycleStats stats = etns_cycle_model_stats(g_plugin.cycle_model);
    fprintf(out,
            "  \"cycle_model\": {\"name\": \"" ETNS_CYCLE_MODEL_NAME "\", \"cpu\": \"%s\", "
            "\"taken_branch_cycles\": %d, \"blocks\": %" PRIu64 ", \"pairs\": %" PRIu64
            ", \"unmodelled_instructions\": %" PRIu64 ", \"memory\": [",
            g_plugin.cycles_cpu, kEtnsTakenBranchCycles, stats.blocks, stats.pairs,
            stats.unmodelled_instructions);
    for (uint32_t r = 0; r < g_plugin.n_wait_regions; ++r) {
      const WaitRegion* region = &g_plugin.wait_regions[r];
      fprintf(out,
              "%s{\"name\": \"%s\", \"low\": %" PRIu64 ", \"high\": %" PRIu64 ", \"wait_states\": %" PRIu32
              ", \"accesses\": %" PRIu64 "}",
              r ? ", " : "", region->name, region->low, region->high, region->wait_states, region->accesses);
    }
    fprintf(out, "]},\n");
  }
  fprintf(out, "  \"program\": ");
  write_counts(out, &g_counters);
  fprintf(out, ",\n  \"regions\": [");
  int first_region = 1;
  for (uint32_t r = 0; r < g_plugin.n_regions; ++r) {
    const Region* region = &g_plugin.regions[r];
    if (region->n_visits == 0 && region->dropped_visits == 0 && region->unbalanced == 0) continue;
    fprintf(out,
            "%s\n    {\"id\": %" PRIu32 ", \"dropped_visits\": %" PRIu64
            ", \"unbalanced\": %" PRIu32 ", \"visits\": [",
            first_region ? "" : ",", r, region->dropped_visits, region->unbalanced);
    first_region = 0;
    for (uint32_t v = 0; v < region->n_visits; ++v) {
      fprintf(out, "%s\n      ", v ? "," : "");
      write_counts(out, &region->visits[v]);
    }
    fprintf(out, "%s]}", region->n_visits ? "\n    " : "");
  }
  fprintf(out, "%s],\n  \"overflow\": %s\n}\n", first_region ? "" : "\n  ",
          g_plugin.overflow ? "true" : "false");
}

// blocks=: one line per executed translated block.
static void write_blocks(FILE* out) {
  fprintf(out, "# etns_qemu_counter blocks, %s (" ETNS_CYCLE_MODEL_NAME
          ", estimated): vaddr instructions executions est_cycles\n",
          g_plugin.cycles_cpu);
  for (const BlockCycles* info = g_plugin.block_cycles; info != NULL; info = info->next) {
    if (info->executions == 0) continue;
    fprintf(out, "0x%08" PRIx64 " %" PRIu32 " %" PRIu64 " %" PRIu64 "\n", info->vaddr, info->n_insns,
            info->executions, rounded_cycles(info->cycles_milli));
  }
}

// Writes through a temporary file so a reader never sees half a document.
static int write_file_atomically(const char* path, void (*write_document)(FILE* out)) {
  const size_t tmp_size = strlen(path) + sizeof(".tmp");
  char* tmp_path = malloc(tmp_size);
  if (tmp_path == NULL) return -1;
  snprintf(tmp_path, tmp_size, "%s.tmp", path);
  FILE* out = fopen(tmp_path, "w");
  int ok = out != NULL;
  if (ok) {
    write_document(out);
    ok = !ferror(out);
    ok = (fclose(out) == 0) && ok;
  }
  ok = ok && rename(tmp_path, path) == 0;
  if (!ok) {
    fprintf(stderr, "etns_qemu_counter: cannot write %s: %s\n", path, strerror(errno));
    remove(tmp_path);
  }
  free(tmp_path);
  return ok ? 0 : -1;
}

static void on_exit_qemu(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  for (uint32_t r = 0; r < g_plugin.n_regions; ++r) {
    if (g_plugin.regions[r].is_open) ++g_plugin.regions[r].unbalanced;
  }
  if (g_plugin.blocks_path != NULL) write_file_atomically(g_plugin.blocks_path, write_blocks);
  if (g_plugin.out_path != NULL) {
    write_file_atomically(g_plugin.out_path, write_json);
  } else {
    char* text = NULL;
    size_t text_size = 0;
    FILE* out = open_memstream(&text, &text_size);
    if (out != NULL) {
      write_json(out);
      fclose(out);
      qemu_plugin_outs(text);
    }
    free(text);
  }
  while (g_plugin.sites != NULL) {
    MarkerSite* next = g_plugin.sites->next;
    free(g_plugin.sites);
    g_plugin.sites = next;
  }
  while (g_plugin.block_cycles != NULL) {
    BlockCycles* next = g_plugin.block_cycles->next;
    free(g_plugin.block_cycles);
    g_plugin.block_cycles = next;
  }
  etns_cycle_model_destroy(g_plugin.cycle_model);
  g_plugin.cycle_model = NULL;
  for (uint32_t r = 0; r < g_plugin.n_regions; ++r) free(g_plugin.regions[r].visits);
  free(g_plugin.regions);
  g_plugin.regions = NULL;
  g_plugin.n_regions = 0;
}

// memory=FILE: "LOW HIGH WAIT_STATES NAME" per line. One line names the
// first problem and the file's line; the run does not start.
static int read_wait_regions(const char* path) {
  FILE* in = fopen(path, "r");
  if (in == NULL) {
    fprintf(stderr, "etns_qemu_counter: memory=%s: %s\n", path, strerror(errno));
    return -1;
  }
  char line[256];
  int line_number = 0;
  int status = 0;
  while (status == 0 && fgets(line, sizeof(line), in) != NULL) {
    ++line_number;
    char* comment = strchr(line, '#');
    if (comment != NULL) *comment = '\0';
    unsigned long long low = 0, high = 0, wait_states = 0;
    char name[64];
    char extra[2];
    const int fields = sscanf(line, "%llx %llx %llu %63s %1s", &low, &high, &wait_states, name, extra);
    if (strspn(line, " \t\r\n") == strlen(line)) continue;  // blank or comment
    if (fields != 4 || low >= high || high > 0x100000000ull || wait_states > 1000 ||
        strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-") != strlen(name)) {
      fprintf(stderr,
              "etns_qemu_counter: memory=%s:%d: expected LOW HIGH WAIT_STATES NAME (hex LOW < HIGH <= 2^32, "
              "wait states <= 1000, NAME of letters, digits and _.:-)\n",
              path, line_number);
      status = -1;
    } else if (g_plugin.n_wait_regions == kMaxWaitRegions) {
      fprintf(stderr, "etns_qemu_counter: memory=%s:%d: more than %d regions\n", path, line_number,
              kMaxWaitRegions);
      status = -1;
    } else {
      WaitRegion* region = &g_plugin.wait_regions[g_plugin.n_wait_regions++];
      region->low = low;
      region->high = high;
      region->wait_states = (uint32_t)wait_states;
      snprintf(region->name, sizeof(region->name), "%s", name);
    }
  }
  fclose(in);
  return status;
}

// Parses a whole unsigned number (decimal, or hex with 0x) in [min, max].
static int parse_u64(const char* key, const char* text, uint64_t min, uint64_t max,
                     uint64_t* value) {
  char* end = NULL;
  errno = 0;
  const unsigned long long parsed = strtoull(text, &end, 0);
  if (text[0] == '\0' || text[0] == '-' || *end != '\0' || errno != 0 || parsed < min ||
      parsed > max) {
    fprintf(stderr, "etns_qemu_counter: %s=%s: expected a number in [%" PRIu64 ", %" PRIu64 "]\n",
            key, text, min, max);
    return -1;
  }
  *value = parsed;
  return 0;
}

static int parse_arguments(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    const char* arg = argv[i];
    const char* eq = strchr(arg, '=');
    if (eq == NULL) {
      fprintf(stderr, "etns_qemu_counter: argument '%s': expected key=value\n", arg);
      return -1;
    }
    const size_t key_size = (size_t)(eq - arg);
    const char* value = eq + 1;
    uint64_t number = 0;
#define ETNS_KEY_IS(name) (key_size == strlen(name) && strncmp(arg, name, key_size) == 0)
    if (ETNS_KEY_IS("markers")) {
      if (parse_u64("markers", value, 0, UINT32_MAX, &number)) return -1;
      g_plugin.base = number & ~(uint64_t)1;
    } else if (ETNS_KEY_IS("stride")) {
      if (parse_u64("stride", value, 2, 1u << 20, &number)) return -1;
      g_plugin.stride = number;
    } else if (ETNS_KEY_IS("count")) {
      if (parse_u64("count", value, 0, kMaxMarkers, &number)) return -1;
      g_plugin.count = (uint32_t)number;
    } else if (ETNS_KEY_IS("max_visits")) {
      if (parse_u64("max_visits", value, 1, kMaxVisitsLimit, &number)) return -1;
      g_plugin.max_visits = (uint32_t)number;
    } else if (ETNS_KEY_IS("out")) {
      if (*value == '\0') {
        fprintf(stderr, "etns_qemu_counter: out=: expected a file name\n");
        return -1;
      }
      g_plugin.out_path = value;
    } else if (ETNS_KEY_IS("cycles")) {
      if (*value == '\0') {
        fprintf(stderr, "etns_qemu_counter: cycles=: expected a CPU (cortex-m55)\n");
        return -1;
      }
      g_plugin.cycles_cpu = value;
    } else if (ETNS_KEY_IS("memory")) {
      if (*value == '\0') {
        fprintf(stderr, "etns_qemu_counter: memory=: expected a file name\n");
        return -1;
      }
      g_plugin.memory_path = value;
    } else if (ETNS_KEY_IS("blocks")) {
      if (*value == '\0') {
        fprintf(stderr, "etns_qemu_counter: blocks=: expected a file name\n");
        return -1;
      }
      g_plugin.blocks_path = value;
    } else if (ETNS_KEY_IS("cycle_cache")) {
      if (parse_u64("cycle_cache", value, 0, 1, &number)) return -1;
      g_plugin.cycle_cache = (int)number;
    } else {
      fprintf(stderr,
              "etns_qemu_counter: unknown argument '%s' (expected markers, stride, count, out, "
              "max_visits, cycles, cycle_cache, memory, blocks)\n",
              arg);
      return -1;
    }
#undef ETNS_KEY_IS
  }
  if (g_plugin.stride % 2 != 0 || g_plugin.count % 2 != 0) {
    fprintf(stderr,
            "etns_qemu_counter: stride=%" PRIu64 ", count=%" PRIu32
            ": both must be even (Thumb functions; begin/end pairs)\n",
            g_plugin.stride, g_plugin.count);
    return -1;
  }
  return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv) {
  if (strcmp(info->target_name, "arm") != 0) {
    fprintf(stderr, "etns_qemu_counter: target '%s': expected arm (the decoder is Thumb)\n",
            info->target_name);
    return -1;
  }
  if (info->system_emulation && info->system.max_vcpus > 1) {
    fprintf(stderr, "etns_qemu_counter: %d vCPUs: expected 1 (the counters are not atomic)\n",
            info->system.max_vcpus);
    return -1;
  }
  if (parse_arguments(argc, argv) != 0) return -1;
  g_plugin.n_regions = g_plugin.count / 2;
  if (g_plugin.n_regions > 0) {
    g_plugin.regions = calloc(g_plugin.n_regions, sizeof(Region));
    if (g_plugin.regions == NULL) {
      fprintf(stderr, "etns_qemu_counter: out of memory for %" PRIu32 " regions\n",
              g_plugin.n_regions);
      return -1;
    }
  }
  if (g_plugin.memory_path != NULL) {
    if (g_plugin.cycles_cpu == NULL) {
      fprintf(stderr, "etns_qemu_counter: memory=%s: needs cycles= (wait states are cycles)\n", g_plugin.memory_path);
      return -1;
    }
    if (read_wait_regions(g_plugin.memory_path) != 0) return -1;
  }
  if (g_plugin.blocks_path != NULL && g_plugin.cycles_cpu == NULL) {
    fprintf(stderr, "etns_qemu_counter: blocks=%s: needs cycles= (the profile is of estimated cycles)\n",
            g_plugin.blocks_path);
    return -1;
  }
  if (g_plugin.cycles_cpu != NULL) {
    char error[256];
    g_plugin.cycle_model =
        etns_cycle_model_create(g_plugin.cycles_cpu, g_plugin.cycle_cache, error, sizeof(error));
    if (g_plugin.cycle_model == NULL) {
      fprintf(stderr, "etns_qemu_counter: cycles=%s: %s\n", g_plugin.cycles_cpu, error);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit_qemu, NULL);
  return 0;
}
