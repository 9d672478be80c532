#include "tools/evidence/config/counters.h"

#include <algorithm>

#include "protocol/counter_classes.h"

namespace etns::tools {
namespace config_detail {
namespace {

// ---------------------------------------------------------------------------
// Counters.

// The reference profiler's Armv8-M PMU events (spec §4.4), so a name from a
// reference config gets a precise answer instead of "unknown counter".
const std::vector<std::string>& armv8m_pmu_events() {
  static const std::vector<std::string> kEvents = {
      "SW_INCR",
      "L1I_CACHE_REFILL",
      "LD_RETIRED",
      "ST_RETIRED",
      "INST_RETIRED",
      "EXC_TAKEN",
      "EXC_RETURN",
      "PC_WRITE_RETIRED",
      "BR_IMMED_RETIRED",
      "BR_RETURN_RETIRED",
      "UNALIGNED_LDST_RETIRED",
      "CPU_CYCLES",
      "BR_RETIRED",
      "BR_MIS_PRED_RETIRED",
      "STALL_FRONTEND",
      "STALL_BACKEND",
      "STALL",
      "LE_RETIRED",
      "LE_CANCEL",
      "SE_CALL_S",
      "SE_CALL_NS",
      "L1D_CACHE_REFILL",
      "L1D_CACHE",
      "MEM_ACCESS",
      "L1I_CACHE",
      "L1D_CACHE_WB",
      "BUS_ACCESS",
      "MEMORY_ERROR",
      "BUS_CYCLES",
      "L1D_CACHE_ALLOCATE",
      "LL_CACHE_RD",
      "LL_CACHE_MISS_RD",
      "L1D_CACHE_MISS_RD",
      "L1D_CACHE_RD",
      "ITCM_ACCESS",
      "DTCM_ACCESS",
      "MVE_INST_RETIRED",
      "MVE_FP_RETIRED",
      "MVE_FP_HP_RETIRED",
      "MVE_FP_SP_RETIRED",
      "MVE_FP_MAC_RETIRED",
      "MVE_INT_RETIRED",
      "MVE_INT_MAC_RETIRED",
      "MVE_LDST_RETIRED",
      "MVE_LD_RETIRED",
      "MVE_ST_RETIRED",
      "MVE_LDST_CONTIG_RETIRED",
      "MVE_LD_CONTIG_RETIRED",
      "MVE_ST_CONTIG_RETIRED",
      "MVE_LDST_NONCONTIG_RETIRED",
      "MVE_LD_NONCONTIG_RETIRED",
      "MVE_ST_NONCONTIG_RETIRED",
      "MVE_LDST_MULTI_RETIRED",
      "MVE_LD_MULTI_RETIRED",
      "MVE_ST_MULTI_RETIRED",
      "MVE_LDST_UNALIGNED_RETIRED",
      "MVE_LD_UNALIGNED_RETIRED",
      "MVE_ST_UNALIGNED_RETIRED",
      "MVE_LDST_UNALIGNED_NONCONTIG_RETIRED",
      "MVE_VREDUCE_RETIRED",
      "MVE_VREDUCE_FP_RETIRED",
      "MVE_VREDUCE_INT_RETIRED",
      "MVE_PRED",
      "MVE_STALL",
      "MVE_STALL_RESOURCE",
      "MVE_STALL_RESOURCE_MEM",
      "MVE_STALL_RESOURCE_FP",
      "MVE_STALL_RESOURCE_INT",
      "MVE_STALL_BREAK",
      "MVE_STALL_DEPENDENCY",
  };
  return kEvents;
}

// Events that count cycles (or cycles with a condition) on real silicon.
bool is_cycle_event(const std::string& name) {
  const std::string suffix = "_CYCLES";
  return name == "CPU_CYCLES" || name == "MVE_PRED" || name.find("STALL") != std::string::npos ||
         (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

bool has(const std::string& name, const char* part) { return name.find(part) != std::string::npos; }

// Why the QEMU plugin cannot give an Armv8-M event it lacks: each refusal
// names what is missing, not a generic category. CPU_CYCLES is in the
// catalogue (the estimate); the other cycle events split cycles it does not.
std::string qemu_refusal_reason(const std::string& name) {
  if (is_cycle_event(name)) {
    return "the cycle estimate gives total core cycles only (CPU_CYCLES), no stall, predication or bus cycles";
  }
  if (has(name, "CACHE") || has(name, "BUS_") || has(name, "TCM_") || name == "MEM_ACCESS" ||
      name == "MEMORY_ERROR") {
    return "QEMU models no caches, buses or TCM timing, so it has no memory-system events";
  }
  if (name.rfind("MVE_", 0) == 0) {
    const char* kind = has(name, "MAC")       ? "multiply-accumulates"
                       : has(name, "FP")      ? "floating-point operations"
                       : has(name, "INT")     ? "integer operations"
                       : has(name, "VREDUCE") ? "reductions"
                       : has(name, "MULTI")   ? "multi-register (VLD2/VLD4-style) accesses"
                       : has(name, "UNALIGNED") ? "unaligned accesses"
                       : has(name, "CONTIG") && !has(name, "NONCONTIG") ? "contiguous accesses"
                                                                        : "this kind";
    return std::string("the etns QEMU plugin does not single out MVE ") + kind +
           " (it counts MVE instructions, loads, stores, gathers and scatters)";
  }
  if (name.rfind("EXC_", 0) == 0 || name.rfind("SE_CALL", 0) == 0) {
    return "the firmware takes no exceptions or secure calls while measuring, and the plugin counts neither";
  }
  return "the etns QEMU plugin has no instruction class for it";
}

std::vector<std::string> counter_names(const std::vector<CounterSpec>& catalogue) {
  std::vector<std::string> names;
  for (const CounterSpec& counter : catalogue) names.push_back(counter.name);
  return names;
}

std::vector<std::string> counter_groups(const std::vector<CounterSpec>& catalogue) {
  std::vector<std::string> groups;
  for (const CounterSpec& counter : catalogue) {
    if (!contains(groups, counter.group)) groups.push_back(counter.group);
  }
  return groups;
}

bool in_catalogue(const std::string& name, const std::vector<CounterSpec>& catalogue) {
  return std::any_of(catalogue.begin(), catalogue.end(), [&](const CounterSpec& c) { return c.name == name; });
}

// `given` with or without the "ARM_PMU_" prefix; case-sensitive.
const CounterSpec& find_counter(const std::string& given, const std::string& target, const std::string& where) {
  const std::vector<CounterSpec>& catalogue = counter_catalogue(target);
  const std::string prefix = "ARM_PMU_";
  const std::string name = given.rfind(prefix, 0) == 0 ? given.substr(prefix.size()) : given;
  for (const CounterSpec& counter : catalogue) {
    if (counter.name == name) return counter;
  }
  const std::string valid = " (valid: " + join(counter_names(catalogue)) + ")";
  const bool known_elsewhere = contains(armv8m_pmu_events(), name) || in_catalogue(name, counter_catalogue("qemu-m55"));
  if (!known_elsewhere) fail(where, "unknown counter '" + given + "' on " + target + valid);
  if (target == "host") fail(where, given + " cannot be counted on host: it measures wall-clock time only" + valid);
  fail(where, given + " cannot be counted on " + target + ": " + qemu_refusal_reason(name) + valid);
}

}  // namespace

// profiling.pmu_counters (spec §4.2): each entry in mapping order, duplicates
// dropped (first wins), then bucketed by each counter's own group. Returns the
// resolved mapping: group entry -> the counter names it selected.
Json select_counters(const Json& selection, ProfileConfig& config, Problems& problems) {
  const std::string where = "profiling.pmu_counters";
  if (selection.empty()) fail(where, "no counters selected");
  const size_t problems_before = problems.all().size();

  const std::vector<CounterSpec>& catalogue = counter_catalogue(config.target);
  const std::vector<std::string> groups = counter_groups(catalogue);
  Json resolved = Json::object();
  std::vector<CounterSpec> chosen;
  for (const auto& entry : selection.items()) {
    const std::string& group = entry.key();
    const Json& value = entry.value();
    const std::string entry_where = where + "." + group;
    // null drops a group, so that `--set profiling.pmu_counters.mve=null`
    // can take one out of a file's selection (overrides merge mappings).
    if (value.is_null()) continue;
    // A device config run on the host: the device-only groups asked for as
    // `default` or `all` give way to the host's own defaults (wall time).
    // Named counters are still refused, each with its reason.
    if (config.target == "host" && !contains(groups, group) && value.is_string() &&
        (value == "default" || value == "all") && contains(counter_groups(counter_catalogue("qemu-m55")), group)) {
      continue;
    }
    if (!contains(groups, group)) {
      problems.add(ConfigProblem(entry_where, "no counter group '" + group + "' on " + config.target + " (groups: " +
                                                  join(groups) + ")"));
      continue;
    }
    std::vector<const CounterSpec*> picked;
    bool named_all = true;  // every listed name is a counter of the target
    if (value.is_string() && (value == "default" || value == "all")) {
      for (const CounterSpec& counter : catalogue) {
        if (counter.group == group && (value == "all" || counter.is_default)) picked.push_back(&counter);
      }
    } else if (value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i) {
        const std::string item_where = entry_where + "[" + std::to_string(i) + "]";
        named_all = problems.attempt([&] {
                      if (!value[i].is_string()) fail(item_where, "expected a counter name, got " + describe(value[i]));
                      picked.push_back(&find_counter(value[i].get<std::string>(), config.target, item_where));
                    }) && named_all;
      }
    } else {
      problems.add(ConfigProblem(entry_where, "expected default, all or a list of counter names, got " + describe(value)));
      continue;
    }
    if (!named_all) continue;
    if (picked.empty()) {
      problems.add(ConfigProblem(entry_where, "the selection is empty"));
      continue;
    }
    Json names = Json::array();
    for (const CounterSpec* counter : picked) {
      names.push_back(counter->name);
      if (!in_catalogue(counter->name, chosen)) chosen.push_back(*counter);
    }
    resolved[group] = std::move(names);
  }
  if (resolved.empty() && config.target == "host") {
    // Only device groups were selected: the host's default.
    for (const CounterSpec& counter : catalogue) {
      if (counter.is_default) chosen.push_back(counter);
    }
    for (const CounterSpec& counter : chosen) resolved[counter.group].push_back(counter.name);
  }
  if (problems.all().size() > problems_before) return resolved;  // the problems say what is wrong
  if (resolved.empty()) fail(where, "no counters selected");

  config.groups.clear();
  config.counters.clear();
  for (const CounterSpec& counter : chosen) {
    if (!contains(config.groups, counter.group)) config.groups.push_back(counter.group);
  }
  for (const std::string& group : config.groups) {
    for (const CounterSpec& counter : chosen) {
      if (counter.group == group) config.counters.push_back(counter);
    }
  }
  return resolved;
}

}  // namespace config_detail

const std::vector<CounterSpec>& counter_catalogue(const std::string& target) {
  // The etns QEMU plugin's instruction classes (qemu_plugin/insn_class.h) and
  // its cycle estimate.
  // Sources are the plugin's class names (protocol/counter_classes.h), never retyped.
  const auto cls = [](EtnsInsnClass c) { return std::string(kEtnsClassNames[c]); };
  const auto sum = [&](EtnsInsnClass a, EtnsInsnClass b) { return cls(a) + "+" + cls(b); };
  const auto qemu = [](const char* name, const char* group, const std::string& source, const std::string& what) {
    return CounterSpec{
        name, group, source, "instructions", what + " (executed instructions counted under QEMU, not cycles)", true};
  };
  // Selected by name or by `all`, never by `default`, so default selections keep their columns.
  const auto qemu_extra = [&](const char* name, const char* group, const std::string& source,
                              const std::string& what) {
    CounterSpec counter = qemu(name, group, source, what);
    counter.is_default = false;
    return counter;
  };
  static const std::vector<CounterSpec> kQemuM55 = {
      qemu("INST_RETIRED", "cpu", cls(kEtnsClassTotal), "all instructions"),
      qemu("BR_RETIRED", "cpu", cls(kEtnsClassBranch), "branches and PC writes, taken or not; loop instructions are in LE_RETIRED"),
      qemu("LE_RETIRED", "cpu", cls(kEtnsClassLoop),
           "low-overhead-loop instructions (DLS, WLS, LE, LETP, LCTP, BF*); LE/LETP once per iteration"),
      qemu("FP_RETIRED", "cpu", cls(kEtnsClassFp), "scalar floating-point instructions, their loads and stores included"),
      // Not a count: the plugin's estimate (qemu_plugin/cycle_model.h), the
      // class QemuRun::classes calls "cycles". The run's bundle names the model.
      CounterSpec{kCycleCounter, "cpu", "cycles", kEstimatedCyclesUnit,
                  "Cortex-M55 core cycles estimated from the executed instructions by LLVM 19's Cortex-M55 scheduling "
                  "model (MCA), taken branches 3 cycles, memory as the board profile says (an547: no wait states): an "
                  "estimate, not a measurement (no caches, bus contention or interrupts; run_metadata.json "
                  "cycles.model names model and board)",
                  true},
      qemu_extra("INST_WEIGHTED_RETIRED", "cpu", ETNS_WEIGHTED_NAME,
                 "instructions, gathers and scatters counted once per lane (128 bits / lane size: VLDRB.U8 16, "
                 "VLDRW 4, VLDRD 2), predicated lanes included"),
      qemu("MVE_INST_RETIRED", "mve", cls(kEtnsClassMve), "MVE (Helium) instructions, predicated or not"),
      qemu("MVE_LD_RETIRED", "mve", cls(kEtnsClassMveLoad), "MVE instructions that load from memory"),
      qemu("MVE_ST_RETIRED", "mve", cls(kEtnsClassMveStore), "MVE instructions that store to memory"),
      qemu_extra("MVE_LD_NONCONTIG_RETIRED", "mve", cls(kEtnsClassMveGather),
                 "MVE gathers: VLDR with vector offsets or a vector base, once per instruction"),
      qemu_extra("MVE_ST_NONCONTIG_RETIRED", "mve", cls(kEtnsClassMveScatter),
                 "MVE scatters: VSTR with vector offsets or a vector base, once per instruction"),
      // Sums of two classes: the Armv8-M events that cover both directions.
      qemu_extra("MVE_LDST_RETIRED", "mve", sum(kEtnsClassMveLoad, kEtnsClassMveStore),
                 "MVE instructions that load or store (MVE_LD_RETIRED + MVE_ST_RETIRED)"),
      qemu_extra("MVE_LDST_NONCONTIG_RETIRED", "mve", sum(kEtnsClassMveGather, kEtnsClassMveScatter),
                 "MVE gathers and scatters (MVE_LD_NONCONTIG_RETIRED + MVE_ST_NONCONTIG_RETIRED)"),
      qemu("LD_RETIRED", "memory", cls(kEtnsClassLoad), "instructions that load from memory: integer, floating-point and MVE"),
      qemu("ST_RETIRED", "memory", cls(kEtnsClassStore), "instructions that store to memory: integer, floating-point and MVE"),
  };
  static const std::vector<CounterSpec> kHost = {
      {"WALL_NS", "cpu", "wall_ns", "ns", "wall-clock nanoseconds from the host's steady (monotonic) clock", true},
  };
  if (target == "qemu-m55") return kQemuM55;
  if (target == "host") return kHost;
  throw Failure("unknown target '" + target + "' (supported: qemu-m55, host)", 2);
}

}  // namespace etns::tools
