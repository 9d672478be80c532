#include "tools/evidence/config/config.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/evidence/config/config_test_fixture.h"
#include "tools/evidence/runner/qemu_session.h"

// The profiling.pmu_counters selection and the counter catalogue.
namespace etns::tools {
namespace {

using namespace config_testing;  // NOLINT: the fixture and its constants

// ---------------------------------------------------------------------------
// Counters.

TEST_F(ProfileConfigTest, CountersAreDeduplicatedThenBucketedByTheirOwnGroup) {
  const ProfileConfig config = load(kMinimal +
                                    "profiling:\n  pmu_counters:\n"
                                    "    mve: [MVE_LD_RETIRED]\n"
                                    "    cpu: [ARM_PMU_INST_RETIRED, MVE_INST_RETIRED, LD_RETIRED, MVE_LD_RETIRED]\n"
                                    "    memory: default\n");
  EXPECT_EQ(config.groups, std::vector<std::string>({"mve", "cpu", "memory"}));
  EXPECT_EQ(names_of(config.counters), std::vector<std::string>({"MVE_LD_RETIRED", "MVE_INST_RETIRED", "INST_RETIRED",
                                                                 "LD_RETIRED", "ST_RETIRED"}));
  EXPECT_EQ(config.counters[0].group, "mve");
  EXPECT_EQ(config.counters[0].source, "mve_load");
  // The resolved mapping keeps each entry as given, names without the prefix.
  EXPECT_EQ(config.resolved["profiling"]["pmu_counters"], nlohmann::ordered_json::parse(R"({
      "mve": ["MVE_LD_RETIRED"],
      "cpu": ["INST_RETIRED", "MVE_INST_RETIRED", "LD_RETIRED", "MVE_LD_RETIRED"],
      "memory": ["LD_RETIRED", "ST_RETIRED"]})"));
}

TEST_F(ProfileConfigTest, DefaultAndAllSelectWholeGroups) {
  const ProfileConfig config = load(kMinimal, {"profiling.pmu_counters={cpu: default, mve: all, memory: default}"});
  EXPECT_EQ(config.groups, std::vector<std::string>({"cpu", "mve", "memory"}));
  std::string names;
  for (const CounterSpec& counter : config.counters) names += (names.empty() ? "" : ", ") + counter.name;
  EXPECT_EQ(names,
            "INST_RETIRED, BR_RETIRED, LE_RETIRED, FP_RETIRED, CPU_CYCLES, MVE_INST_RETIRED, MVE_LD_RETIRED, "
            "MVE_ST_RETIRED, MVE_LD_NONCONTIG_RETIRED, MVE_ST_NONCONTIG_RETIRED, MVE_LDST_RETIRED, "
            "MVE_LDST_NONCONTIG_RETIRED, LD_RETIRED, ST_RETIRED");
  const ProfileConfig all = load(kMinimal, {"profiling.pmu_counters={cpu: all, mve: all, memory: all}"});
  names.clear();
  for (const CounterSpec& counter : all.counters) names += (names.empty() ? "" : ", ") + counter.name;
  EXPECT_EQ(names, kQemuCounters);
}

// The lane-weighted count and the gather and scatter classes are selected by
// name (or `all`); `default` leaves them out, so default bundles keep their columns.
TEST_F(ProfileConfigTest, WeightedAndGatherCountersAreSelectedByName) {
  const ProfileConfig config = load(
      kMinimal, {"profiling.pmu_counters={cpu: [INST_RETIRED, ARM_PMU_INST_WEIGHTED_RETIRED], "
                 "mve: [MVE_LD_NONCONTIG_RETIRED, MVE_ST_NONCONTIG_RETIRED]}"});
  EXPECT_EQ(names_of(config.counters), std::vector<std::string>({"INST_RETIRED", "INST_WEIGHTED_RETIRED",
                                                                 "MVE_LD_NONCONTIG_RETIRED", "MVE_ST_NONCONTIG_RETIRED"}));
  EXPECT_EQ(config.counters[1].source, "weighted");
  EXPECT_EQ(config.counters[1].group, "cpu");
  EXPECT_NE(config.counters[1].description.find("once per lane"), std::string::npos);
  EXPECT_EQ(config.counters[2].source, "mve_gather");
  EXPECT_EQ(config.counters[3].source, "mve_scatter");
  EXPECT_EQ(names_of(load(kMinimal, {"profiling.pmu_counters={cpu: default}"}).counters),
            std::vector<std::string>({"INST_RETIRED", "BR_RETIRED", "LE_RETIRED", "FP_RETIRED", "CPU_CYCLES"}));
}

TEST_F(ProfileConfigTest, SumCountersCoverBothDirections) {
  const ProfileConfig config =
      load(kMinimal, {"profiling.pmu_counters={mve: [MVE_LDST_RETIRED, ARM_PMU_MVE_LDST_NONCONTIG_RETIRED]}"});
  EXPECT_EQ(names_of(config.counters), std::vector<std::string>({"MVE_LDST_RETIRED", "MVE_LDST_NONCONTIG_RETIRED"}));
  EXPECT_EQ(config.counters[0].source, "mve_load+mve_store");
  EXPECT_EQ(config.counters[1].source, "mve_gather+mve_scatter");
  // Not in `default`: the default columns stay as they were.
  EXPECT_EQ(names_of(load(kMinimal, {"profiling.pmu_counters={mve: default}"}).counters),
            std::vector<std::string>({"MVE_INST_RETIRED", "MVE_LD_RETIRED", "MVE_ST_RETIRED"}));
  // The sum itself, as the profiler reads it from the plugin's classes.
  ClassCounts counts;
  counts.values = {10, 4, 3, 2, 1, 0};
  const std::vector<std::string> classes = {"total", "mve", "mve_load", "mve_store", "mve_gather", "mve_scatter"};
  EXPECT_EQ(counts.get(classes, "mve_load+mve_store"), 5u);
  EXPECT_EQ(counts.get(classes, "mve_gather+mve_scatter"), 1u);
  EXPECT_THROW(counts.get(classes, "mve_load+nothing"), Failure);
}

// The board profiler's cycle counter is the plugin's estimate on qemu-m55,
// asked for by name (with or without the prefix) or by `default`.
TEST_F(ProfileConfigTest, CpuCyclesIsTheEstimate) {
  for (const char* name : {"CPU_CYCLES", "ARM_PMU_CPU_CYCLES"}) {
    SCOPED_TRACE(name);
    const ProfileConfig config =
        load(kMinimal, {std::string("profiling.pmu_counters={cpu: [INST_RETIRED, ") + name + "]}"});
    ASSERT_EQ(names_of(config.counters), std::vector<std::string>({"INST_RETIRED", "CPU_CYCLES"}));
    const CounterSpec& cycles = config.counters[1];
    EXPECT_EQ(cycles.source, "cycles") << "QemuRun::classes names the estimate 'cycles'";
    EXPECT_EQ(cycles.unit, "estimated cycles");
    EXPECT_EQ(cycles.group, "cpu");
  }
  EXPECT_EQ(names_of(load(kMinimal).counters).back(), "CPU_CYCLES") << "in cpu's default";
  // Still not on the host, which measures time.
  EXPECT_EQ(error(kMinimal + "target: {board: host}\nprofiling: {pmu_counters: {cpu: [CPU_CYCLES]}}\n"),
            in_file() + "profiling.pmu_counters.cpu[0]: CPU_CYCLES cannot be counted on host: it measures "
            "wall-clock time only (valid: WALL_NS)");
}

TEST_F(ProfileConfigTest, RejectsCountersTheTargetCannotCount) {
  // The estimate is of total cycles: the events that split them are not in it.
  for (const char* name : {"STALL_BACKEND", "STALL_FRONTEND", "MVE_STALL", "MVE_PRED", "BUS_CYCLES"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {cpu: [INST_RETIRED, " + name + "]}}\n"),
              in_file() + "profiling.pmu_counters.cpu[1]: " + name + " cannot be counted on qemu-m55: the cycle "
              "estimate gives total core cycles only (CPU_CYCLES), no stall, predication or bus cycles (valid: " +
                  kQemuCounters + ")");
  }
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {memory: [L1D_CACHE_REFILL]}}\n"),
            in_file() + "profiling.pmu_counters.memory[0]: L1D_CACHE_REFILL cannot be counted on qemu-m55: QEMU "
            "models no caches, buses or TCM timing, so it has no memory-system events (valid: " +
                kQemuCounters + ")");
  // An MVE class the plugin does not separate is named as such, not called a memory-system event.
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {mve: [MVE_INT_MAC_RETIRED]}}\n"),
            in_file() + "profiling.pmu_counters.mve[0]: MVE_INT_MAC_RETIRED cannot be counted on qemu-m55: the "
            "etns QEMU plugin does not single out MVE multiply-accumulates (it counts MVE instructions, loads, "
            "stores, gathers and scatters) (valid: " +
                kQemuCounters + ")");
  EXPECT_NE(error(kMinimal + "profiling: {pmu_counters: {cpu: [EXC_TAKEN]}}\n").find("takes no exceptions"),
            std::string::npos);
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {cpu: [INSTR_RETIRED]}}\n"),
            in_file() + "profiling.pmu_counters.cpu[0]: unknown counter 'INSTR_RETIRED' on qemu-m55 (valid: " +
                kQemuCounters + ")");
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {cpu: [inst_retired]}}\n"),
            in_file() + "profiling.pmu_counters.cpu[0]: unknown counter 'inst_retired' on qemu-m55 (valid: " +
                kQemuCounters + ")");
  EXPECT_EQ(error(kMinimal + "target: {board: host}\nprofiling: {pmu_counters: {cpu: [INST_RETIRED]}}\n"),
            in_file() + "profiling.pmu_counters.cpu[0]: INST_RETIRED cannot be counted on host: it measures "
            "wall-clock time only (valid: WALL_NS)");
}

// A QEMU configuration run with --set target.board=host alone: the device
// groups selected as default or all give way to the host's default.
TEST_F(ProfileConfigTest, HostTakesItsDefaultsForDeviceGroups) {
  for (const char* selection : {"{cpu: default, mve: default, memory: default}", "{mve: all, memory: default}",
                                "{cpu: all, mve: all}"}) {
    SCOPED_TRACE(selection);
    const ProfileConfig config =
        load(kMinimal, {"target.board=host", std::string("profiling.pmu_counters=") + selection});
    EXPECT_EQ(names_of(config.counters), std::vector<std::string>({"WALL_NS"}));
    EXPECT_EQ(config.groups, std::vector<std::string>({"cpu"}));
  }
  EXPECT_EQ(load(kMinimal, {"target.board=host"}).output_dir, at("results/model-host"));
}

TEST_F(ProfileConfigTest, RejectsGroupsAndSelectionsTheTargetDoesNotHave) {
  // Named device counters in a device group are refused on the host, with the group named.
  EXPECT_EQ(error(kMinimal + "target: {board: host}\nprofiling: {pmu_counters: {mve: [MVE_INST_RETIRED]}}\n"),
            in_file() + "profiling.pmu_counters.mve: no counter group 'mve' on host (groups: cpu)");
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {foo: default}}\n"),
            in_file() + "profiling.pmu_counters.foo: no counter group 'foo' on qemu-m55 (groups: cpu, mve, memory)");
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {cpu: everything}}\n"),
            in_file() + "profiling.pmu_counters.cpu: expected default, all or a list of counter names, got "
            "'everything'");
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {cpu: []}}\n"),
            in_file() + "profiling.pmu_counters.cpu: the selection is empty");
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: {}}\n"),
            in_file() + "profiling.pmu_counters: no counters selected");
  EXPECT_EQ(error(kMinimal + "profiling: {pmu_counters: [INST_RETIRED]}\n"),
            in_file() + "profiling.pmu_counters: expected a mapping of counter group to default, all or a list of "
            "counters, got a list");
}

TEST(CounterCatalogue, QemuCountsInstructionsAndHostWallTime) {
  const std::vector<CounterSpec>& qemu = counter_catalogue("qemu-m55");
  ASSERT_EQ(qemu.size(), 15u);
  for (const CounterSpec& counter : qemu) {
    if (counter.name == "CPU_CYCLES") {
      // The one estimate: its own unit, and a description that says so and names the model.
      EXPECT_EQ(counter.unit, "estimated cycles");
      EXPECT_TRUE(counter.is_default);
      EXPECT_NE(counter.description.find("an estimate, not a measurement"), std::string::npos);
      EXPECT_NE(counter.description.find("LLVM 19's Cortex-M55 scheduling model (MCA)"), std::string::npos);
      continue;
    }
    EXPECT_EQ(counter.unit, "instructions") << counter.name;
    EXPECT_NE(counter.description.find("executed instructions counted under QEMU, not cycles"), std::string::npos)
        << counter.name;
    const bool extra = counter.source == "weighted" || counter.source == "mve_gather" ||
                       counter.source == "mve_scatter" || counter.source.find('+') != std::string::npos;
    EXPECT_EQ(counter.is_default, !extra) << counter.name;
  }
  EXPECT_EQ(qemu[0].name, "INST_RETIRED");
  EXPECT_EQ(qemu[0].source, "total");
  const std::vector<CounterSpec>& host = counter_catalogue("host");
  ASSERT_EQ(host.size(), 1u);
  EXPECT_EQ(host[0].name, "WALL_NS");
  EXPECT_EQ(host[0].source, "wall_ns");
  EXPECT_EQ(host[0].unit, "ns");
  EXPECT_THROW(counter_catalogue("apollo510_evb"), Failure);
}

}  // namespace
}  // namespace etns::tools
