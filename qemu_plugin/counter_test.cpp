// End to end: libetns_qemu_counter.so inside qemu-system-arm -M mps3-an547,
// running the M55 test image (test/), whose regions have hand-computed
// instruction counts (test/regions.S). Skips when the Arm toolchain or QEMU
// was not found at configure time.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "qemu_plugin/test/regions.h"

namespace etns {
namespace {

using nlohmann::json;

const std::string kQemu = ETNS_QEMU_SYSTEM_ARM;
const std::string kFirmware = ETNS_QEMU_COUNTER_FIRMWARE;
const std::string kPlugin = ETNS_QEMU_COUNTER_PLUGIN;
const std::string kNm = ETNS_ARM_NM;

const std::vector<std::string> kClasses = {"total", "mve",  "mve_load", "mve_store", "mve_gather", "mve_scatter",
                                           "fp",    "load", "store",    "branch",    "loop"};

// A visit's expected counts; classes not named are zero, and weighted is
// total unless named (a region without gathers or scatters).
using Visit = std::map<std::string, uint64_t>;

struct ExpectedRegion {
  int id;
  const char* name;
  std::vector<Visit> visits;
  int unbalanced;
};

// The comments in test/regions.S derive each of these.
// A micro-loop of the cycle estimate's validation (test/regions.S): its
// estimated cycles per iteration, derived by hand from the M55's timing
// facts (performance-anchors-cycles.md §1-2), and its instruction counts as
// (class, per iteration, fixed).
struct MicroLoop {
  int id;
  const char* name;
  uint64_t cycles_per_iteration;
  std::vector<std::tuple<std::string, uint64_t, uint64_t>> counts;
};

const std::vector<MicroLoop> kMicroLoops = {
    {ETNS_TEST_REGION_MICRO_LOAD2_MAC, "2 VLDRB + VMLADAVA", 4,
     {{"total", 4, 2}, {"mve", 3, 0}, {"mve_load", 2, 0}, {"load", 2, 0}, {"loop", 1, 1}, {"branch", 0, 1}}},
    {ETNS_TEST_REGION_MICRO_LOAD_MAC4, "VLDRB + 4 VMLADAVA", 8,
     {{"total", 6, 2}, {"mve", 5, 0}, {"mve_load", 1, 0}, {"load", 1, 0}, {"loop", 1, 1}, {"branch", 0, 1}}},
    {ETNS_TEST_REGION_MICRO_ALTERNATE, "VLDRB, VMLADAVA, VLDRB, VMLADAVA", 4,
     {{"total", 5, 2}, {"mve", 4, 0}, {"mve_load", 2, 0}, {"load", 2, 0}, {"loop", 1, 1}, {"branch", 0, 1}}},
    {ETNS_TEST_REGION_MICRO_LOAD_ADD_STORE, "VLDRW + VADD + VSTRW", 4,
     {{"total", 4, 2}, {"mve", 3, 0}, {"mve_load", 1, 0}, {"mve_store", 1, 0}, {"load", 1, 0}, {"store", 1, 0},
      {"loop", 1, 1}, {"branch", 0, 1}}},
    {ETNS_TEST_REGION_MICRO_TAIL_PREDICATED, "DLSTP/LETP VLDRB + VADD + VSTRB", 4,
     {{"total", 4, 2}, {"mve", 3, 0}, {"mve_load", 1, 0}, {"mve_store", 1, 0}, {"load", 1, 0}, {"store", 1, 0},
      {"loop", 1, 1}, {"branch", 0, 1}}},
    {ETNS_TEST_REGION_MICRO_SCALAR, "LDR, ADD, SUBS, BNE", 5 + 3,  // + the taken branch
     {{"total", 4, 1}, {"load", 1, 0}, {"branch", 1, 1}}},
};

std::vector<ExpectedRegion> expected_regions() {
  const uint64_t n = ETNS_TEST_BIG_LOOP_ITERATIONS;
  std::vector<ExpectedRegion> regions = {
      {ETNS_TEST_REGION_EMPTY, "empty", {{{"total", 1}, {"branch", 1}}}, 0},
      {ETNS_TEST_REGION_SCALAR_LOOP, "scalar_loop", {{{"total", 202}, {"branch", 101}}}, 0},
      {ETNS_TEST_REGION_LOAD_STORE,
       "load_store",
       {{{"total", 142}, {"load", 60}, {"store", 50}, {"branch", 11}}},
       0},
      {ETNS_TEST_REGION_BRANCHES,
       "branches",
       {{{"total", 22}, {"branch", 13}, {"load", 4}, {"store", 2}}},
       0},
      {ETNS_TEST_REGION_MVE_LOOP,
       "mve_loop",
       {{{"total", 35},
         {"mve", 24},
         {"mve_load", 8},
         {"mve_store", 8},
         {"load", 8},
         {"store", 8},
         {"loop", 9},
         {"branch", 1}}},
       0},
      {ETNS_TEST_REGION_MVE_TAIL,
       "mve_tail",
       {{{"total", 12},
         {"mve", 6},
         {"mve_load", 3},
         {"mve_store", 3},
         {"load", 3},
         {"store", 3},
         {"loop", 4},
         {"branch", 1}}},
       0},
      {ETNS_TEST_REGION_MVE_MISC,
       "mve_misc",
       {{{"total", 25},
         {"mve", 21},
         {"mve_load", 6},
         {"mve_store", 4},
         {"mve_gather", 2},
         {"mve_scatter", 2},
         {"weighted", 25 + 4 * 3},
         {"fp", 3},
         {"load", 7},
         {"store", 4},
         {"branch", 1}}},
       0},
      {ETNS_TEST_REGION_SCALAR_FP,
       "scalar_fp",
       {{{"total", 21}, {"fp", 20}, {"load", 5}, {"store", 4}, {"branch", 1}}},
       0},
      {ETNS_TEST_REGION_REPEATED,
       "repeated",
       {{{"total", 3}, {"branch", 2}},
        {{"total", 5}, {"branch", 3}},
        {{"total", 7}, {"branch", 4}}},
       0},
      {ETNS_TEST_REGION_OUTER, "outer", {{{"total", 12}, {"branch", 8}}}, 0},
      {ETNS_TEST_REGION_INNER, "inner", {{{"total", 7}, {"branch", 4}}}, 0},
      {ETNS_TEST_REGION_BIG_LOOP, "big_loop", {{{"total", 2 * n + 3}, {"branch", n + 1}}}, 0},
      {ETNS_TEST_REGION_END_ONLY, "end_only", {}, 1},
      {ETNS_TEST_REGION_BEGIN_TWICE, "begin_twice", {{{"total", 2}, {"branch", 1}}}, 1},
      {ETNS_TEST_REGION_NEVER_ENDED, "never_ended", {}, 1},
      // Classified from all the bytes QEMU hands over, the three loads that
      // end at page end - 2 counted in total only: load 3, mve 1, mve_load 0.
      {ETNS_TEST_REGION_PAGE_END,
       "page_end",
       {{{"total", 13},
         {"load", 6},
         {"branch", 4},
         {"mve", 2},
         {"mve_load", 1},
         {"mve_gather", 1},
         {"weighted", 16}}},
       0},
      {ETNS_TEST_REGION_GATHER,
       "gather",
       {{{"total", 25},
         {"mve", 24},
         {"mve_load", 10},
         {"mve_store", 10},
         {"mve_gather", 10},
         {"mve_scatter", 10},
         {"load", 10},
         {"store", 10},
         {"branch", 1},
         {"weighted", 117}}},
       0},
      {ETNS_TEST_REGION_GATHER_TAIL,
       "gather_tail",
       {{{"total", 10},
         {"mve", 5},
         {"mve_load", 2},
         {"mve_store", 2},
         {"mve_gather", 2},
         {"mve_scatter", 2},
         {"load", 2},
         {"store", 2},
         {"loop", 3},
         {"branch", 1},
         {"weighted", 22}}},
       0},
  };
  for (const MicroLoop& loop : kMicroLoops) {
    std::vector<Visit> visits;
    for (const uint64_t n : {uint64_t{ETNS_TEST_MICRO_SHORT}, uint64_t{ETNS_TEST_MICRO_LONG}}) {
      Visit visit;
      for (const auto& [name, per_iteration, fixed] : loop.counts) visit[name] = per_iteration * n + fixed;
      visits.push_back(visit);
    }
    regions.push_back({loop.id, loop.name, visits, 0});
  }
  return regions;
}

json visit_json(const Visit& visit) {
  json out = json::object();
  for (const std::string& name : kClasses) {
    const auto it = visit.find(name);
    out[name] = it == visit.end() ? 0 : it->second;
  }
  const auto weighted = visit.find("weighted");
  out["weighted"] = weighted == visit.end() ? out["total"].get<uint64_t>() : weighted->second;
  return out;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct RunResult {
  int exit_status = -1;
  std::string output;  // stdout and stderr
  double seconds = 0;
};

RunResult run(const std::string& command) {
  RunResult result;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.output.append(buffer, got);
  const int status = pclose(pipe);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class QemuCounterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kFirmware.empty()) {
      GTEST_SKIP() << "arm-none-eabi-gcc/nm were not found when CMake ran: no test image";
    }
    if (kQemu.empty() || access(kQemu.c_str(), X_OK) != 0) {
      GTEST_SKIP() << "qemu-system-arm is not installed (CMake found '" << kQemu << "')";
    }
    const RunResult nm = run(shell_quote(kNm) + " " + shell_quote(kFirmware));
    ASSERT_EQ(nm.exit_status, 0) << nm.output;
    std::istringstream lines(nm.output);
    std::string address, type, name;
    uint64_t start = 0, end = 0;
    while (lines >> address >> type >> name) {
      symbols_[name] = std::stoull(address, nullptr, 16);
      if (name == "etns_marker_table") start = std::stoull(address, nullptr, 16) & ~1ull;
      if (name == "etns_marker_table_end") end = std::stoull(address, nullptr, 16);
    }
    ASSERT_NE(start, 0u) << "etns_marker_table missing from " << kFirmware;
    ASSERT_EQ((end - start) / ETNS_TEST_MARKER_STRIDE, uint64_t{ETNS_TEST_MARKER_COUNT});
    markers_ = start;
    out_prefix_ = ::testing::TempDir() + "etns_qemu_counter_" + std::to_string(getpid()) + "_";
  }

  std::string qemu_command(const std::string& plugin_args, const std::string& extra = "") const {
    std::string command = "timeout 60 " + shell_quote(kQemu) +
                          " -M mps3-an547 -nographic -semihosting-config enable=on,target=native"
                          " -kernel " +
                          shell_quote(kFirmware) + " " + extra;
    if (!plugin_args.empty()) command += " -plugin " + shell_quote(kPlugin + "," + plugin_args);
    return command;
  }

  std::string marker_args() const {
    return "markers=0x" + to_hex(markers_) + ",stride=" + std::to_string(ETNS_TEST_MARKER_STRIDE) +
           ",count=" + std::to_string(ETNS_TEST_MARKER_COUNT);
  }

  // Runs the image with the plugin writing `name`; returns the JSON text.
  std::string run_counter(const std::string& name, const std::string& more_args = "",
                          RunResult* result = nullptr) {
    const std::string path = out_prefix_ + name;
    std::remove(path.c_str());
    const RunResult run_result = run(qemu_command(marker_args() + ",out=" + path + more_args));
    if (result != nullptr) *result = run_result;
    EXPECT_EQ(run_result.exit_status, 0) << "the test image failed:\n" << run_result.output;
    const std::string text = read_file(path);
    std::remove(path.c_str());
    return text;
  }

  static std::string to_hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%llx", static_cast<unsigned long long>(value));
    return text;
  }

  uint64_t markers_ = 0;
  std::string out_prefix_;
  std::map<std::string, uint64_t> symbols_;  // the image's, from nm
};

const json* find_region(const json& counts, int id) {
  for (const json& region : counts.at("regions")) {
    if (region.at("id") == id) return &region;
  }
  return nullptr;
}

TEST_F(QemuCounterTest, EveryRegionIsCountedExactly) {
  const json counts = json::parse(run_counter("exact.json"));
  EXPECT_EQ(counts.at("schema"), "etns.qemu_counts");
  EXPECT_EQ(counts.at("schema_version"), 2);
  EXPECT_EQ(counts.at("classes"), json(kClasses));
  EXPECT_EQ(counts.at("markers").at("base"), markers_);
  EXPECT_EQ(counts.at("overflow"), false);

  const std::vector<ExpectedRegion> expected = expected_regions();
  ASSERT_EQ(counts.at("regions").size(), expected.size()) << counts.at("regions").dump(1);
  uint64_t region_total = 0;
  for (const ExpectedRegion& want : expected) {
    const json* region = find_region(counts, want.id);
    ASSERT_NE(region, nullptr) << "region " << want.id << " (" << want.name << ") missing";
    EXPECT_EQ(region->at("unbalanced"), want.unbalanced) << want.name;
    EXPECT_EQ(region->at("dropped_visits"), 0) << want.name;
    const json& visits = region->at("visits");
    ASSERT_EQ(visits.size(), want.visits.size()) << want.name << ": " << visits.dump();
    for (size_t v = 0; v < visits.size(); ++v) {
      EXPECT_EQ(visits[v], visit_json(want.visits[v])) << want.name << " visit " << v;
      region_total += visits[v].at("total").get<uint64_t>();
    }
  }
  EXPECT_GT(counts.at("program").at("total").get<uint64_t>(), region_total);
}

TEST_F(QemuCounterTest, TwoRunsGiveIdenticalOutput) {
  const std::string first = run_counter("first.json");
  const std::string second = run_counter("second.json");
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first, second);
}

TEST_F(QemuCounterTest, VisitsBeyondTheLimitAreDroppedAndFlagged) {
  const json counts = json::parse(run_counter("overflow.json", ",max_visits=2"));
  EXPECT_EQ(counts.at("overflow"), true);
  const json* repeated = find_region(counts, ETNS_TEST_REGION_REPEATED);
  ASSERT_NE(repeated, nullptr);
  EXPECT_EQ(repeated->at("visits").size(), 2u);
  EXPECT_EQ(repeated->at("dropped_visits"), 1);
  EXPECT_EQ(repeated->at("visits")[1].at("total"), 5);
}

TEST_F(QemuCounterTest, WithoutOutTheJsonGoesToTheQemuLog) {
  const std::string log = out_prefix_ + "qemu.log";
  std::remove(log.c_str());
  const RunResult result = run(qemu_command(marker_args(), "-d plugin -D " + shell_quote(log)));
  ASSERT_EQ(result.exit_status, 0) << result.output;
  const json counts = json::parse(read_file(log));
  std::remove(log.c_str());
  const json* scalar_loop = find_region(counts, ETNS_TEST_REGION_SCALAR_LOOP);
  ASSERT_NE(scalar_loop, nullptr);
  EXPECT_EQ(scalar_loop->at("visits")[0].at("total"), 202);
}

TEST_F(QemuCounterTest, BadArgumentsStopQemu) {
  for (const char* args : {"markers=0x0,bogus=1", "markers=0x0,stride=3,count=2",
                           "markers=0x0,count=3", "markers=zero", "max_visits=0"}) {
    const RunResult result = run(qemu_command(args));
    EXPECT_NE(result.exit_status, 0) << args;
    EXPECT_NE(result.output.find("etns_qemu_counter: "), std::string::npos)
        << args << ": " << result.output;
  }
}

// 20 million instructions in the big loop: inline counting keeps a run close
// to QEMU without the plugin, well under a second on a typical host.
TEST_F(QemuCounterTest, RunIsFast) {
  RunResult with_plugin;
  run_counter("timing.json", "", &with_plugin);
  const RunResult without_plugin = run(qemu_command(""));
  ASSERT_EQ(without_plugin.exit_status, 0) << without_plugin.output;
  std::cout << "qemu run: " << with_plugin.seconds << " s with the counter, "
            << without_plugin.seconds << " s without\n";
  EXPECT_LT(with_plugin.seconds, 2.0);
}

// Cycles (cycles=cortex-m55): each micro-loop's second visit (128
// iterations) adds exactly 64 times its hand-derived cycles per iteration to
// the first (64), and the instruction counts are those of a run without.
TEST_F(QemuCounterTest, MicroLoopsGiveTheirHandDerivedCycles) {
  const json counts = json::parse(run_counter("cycles.json", ",cycles=cortex-m55"));
  EXPECT_EQ(counts.at("schema_version"), 3);
  EXPECT_EQ(counts.at("cycle_model").at("cpu"), "cortex-m55");
  // One: the scalar_fp region's `vmrs APSR_nzcv, fpscr`, for which LLVM 19's
  // M55 model has no timing (it costs 1 cycle).
  EXPECT_EQ(counts.at("cycle_model").at("unmodelled_instructions"), 1);
  const uint64_t extra = ETNS_TEST_MICRO_LONG - ETNS_TEST_MICRO_SHORT;
  for (const MicroLoop& loop : kMicroLoops) {
    const json* region = find_region(counts, loop.id);
    ASSERT_NE(region, nullptr) << loop.name;
    ASSERT_EQ(region->at("visits").size(), 2u) << loop.name;
    const uint64_t short_run = region->at("visits")[0].at("cycles").get<uint64_t>();
    const uint64_t long_run = region->at("visits")[1].at("cycles").get<uint64_t>();
    EXPECT_EQ(long_run - short_run, extra * loop.cycles_per_iteration)
        << loop.name << ": " << short_run << " and " << long_run << " estimated cycles";
  }
  // The same instruction counts as without the estimate.
  const json plain = json::parse(run_counter("plain.json"));
  for (const json& region : plain.at("regions")) {
    const json* with_cycles = find_region(counts, region.at("id").get<int>());
    ASSERT_NE(with_cycles, nullptr);
    for (size_t v = 0; v < region.at("visits").size(); ++v) {
      json visit = with_cycles->at("visits")[v];
      visit.erase("cycles");
      EXPECT_EQ(visit, region.at("visits")[v]) << "region " << region.at("id");
    }
  }
}

TEST_F(QemuCounterTest, CyclesAreTheSameOnEveryRun) {
  const std::string first = run_counter("cycles_first.json", ",cycles=cortex-m55");
  const std::string second = run_counter("cycles_second.json", ",cycles=cortex-m55");
  ASSERT_NE(first.find("\"cycles\""), std::string::npos);
  EXPECT_EQ(first, second);
}

// memory=: the test image's data (g_source up to the end of g_micro) at 2
// wait states. A contiguous Helium load or store pays them per 64-bit beat
// (2 beats), a scalar load once, code and the stack nothing.
TEST_F(QemuCounterTest, DataAccessesPayTheirRegionsWaitStates) {
  ASSERT_EQ(symbols_.count("g_source"), 1u);
  ASSERT_EQ(symbols_.count("g_micro"), 1u);
  const uint64_t low = symbols_.at("g_source");
  const uint64_t high = symbols_.at("g_micro") + 4 * 4 * ETNS_TEST_MICRO_LONG;
  ASSERT_LT(low, high);
  const std::string memory = out_prefix_ + "memory.txt";
  {
    std::ofstream out(memory);
    out << "# the test image's buffers\n" << std::hex << low << " " << high << std::dec << " 2 test_buffers\n";
  }
  const json plain = json::parse(run_counter("no_wait.json", ",cycles=cortex-m55"));
  const json slow = json::parse(run_counter("wait.json", ",cycles=cortex-m55,memory=" + memory));
  std::remove(memory.c_str());
  const json& regions = slow.at("cycle_model").at("memory");
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].at("name"), "test_buffers");
  EXPECT_EQ(regions[0].at("wait_states"), 2);
  EXPECT_GT(regions[0].at("accesses").get<uint64_t>(), 0u);
  const auto added = [&](int id, size_t visit) {
    return find_region(slow, id)->at("visits")[visit].at("cycles").get<uint64_t>() -
           find_region(plain, id)->at("visits")[visit].at("cycles").get<uint64_t>();
  };
  // 8 VLDRW and 8 VSTRW, 2 beats each, 2 wait states a beat.
  EXPECT_EQ(added(ETNS_TEST_REGION_MVE_LOOP, 0), 16u * 2 * 2);
  // Per iteration 2 VLDRB.U8 (16 byte lanes each, 2 beats).
  EXPECT_EQ(added(ETNS_TEST_REGION_MICRO_LOAD2_MAC, 0), uint64_t{ETNS_TEST_MICRO_SHORT} * 2 * 2 * 2);
  // Per iteration 1 LDR.
  EXPECT_EQ(added(ETNS_TEST_REGION_MICRO_SCALAR, 1), uint64_t{ETNS_TEST_MICRO_LONG} * 2);
  // Nothing of the empty region touches the buffers.
  EXPECT_EQ(added(ETNS_TEST_REGION_EMPTY, 0), 0u);
}

TEST_F(QemuCounterTest, BadMemoryFilesStopQemu) {
  const std::string memory = out_prefix_ + "bad_memory.txt";
  for (const char* text : {"20000000 10000000 2 backwards\n", "20000000 20001000 2\n",
                           "20000000 20001000 2 bad\"name\n", "zz 20001000 2 x\n"}) {
    {
      std::ofstream out(memory);
      out << text;
    }
    const RunResult result = run(qemu_command(marker_args() + ",cycles=cortex-m55,memory=" + memory));
    EXPECT_NE(result.exit_status, 0) << text;
    EXPECT_NE(result.output.find("etns_qemu_counter: memory=" + memory + ":1: "), std::string::npos)
        << text << ": " << result.output;
  }
  std::remove(memory.c_str());
  const RunResult missing = run(qemu_command(marker_args() + ",memory=" + memory));
  EXPECT_NE(missing.exit_status, 0);
  EXPECT_NE(missing.output.find("needs cycles="), std::string::npos) << missing.output;
}

// A blocks= file's lines: "0x<vaddr> <instructions> <executions> <est_cycles>".
struct BlockLine {
  uint64_t vaddr = 0;
  uint64_t instructions = 0;
  uint64_t executions = 0;
  uint64_t cycles = 0;
};

std::vector<BlockLine> parse_blocks(const std::string& text) {
  std::vector<BlockLine> blocks;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string vaddr;
    BlockLine block;
    fields >> vaddr >> block.instructions >> block.executions >> block.cycles;
    EXPECT_FALSE(fields.fail()) << "not a block line: " << line;
    EXPECT_EQ(vaddr.rfind("0x", 0), 0u) << line;
    block.vaddr = std::stoull(vaddr, nullptr, 16);
    blocks.push_back(block);
  }
  return blocks;
}

// blocks=: the executed blocks account for every instruction of the run and,
// within rounding (each line rounded once), for all of its estimated cycles,
// wait states included.
TEST_F(QemuCounterTest, BlocksAccountForTheWholeProgram) {
  ASSERT_EQ(symbols_.count("g_source"), 1u);
  const std::string memory = out_prefix_ + "blocks_memory.txt";
  {
    std::ofstream out(memory);
    out << std::hex << symbols_.at("g_source") << " " << symbols_.at("g_source") + 0x10000 << std::dec
        << " 3 test_buffers\n";
  }
  for (const std::string& extra : {std::string(), ",memory=" + memory}) {
    SCOPED_TRACE(extra.empty() ? "no wait states" : "with wait states");
    const std::string blocks_path = out_prefix_ + "blocks.txt";
    std::remove(blocks_path.c_str());
    const json counts = json::parse(run_counter("blocks.json", ",cycles=cortex-m55,blocks=" + blocks_path + extra));
    const std::string text = read_file(blocks_path);
    std::remove(blocks_path.c_str());
    ASSERT_EQ(text.rfind("# etns_qemu_counter blocks, cortex-m55 (", 0), 0u) << text.substr(0, 200);
    const std::vector<BlockLine> blocks = parse_blocks(text);
    ASSERT_GT(blocks.size(), 10u);
    uint64_t instructions = 0, cycles = 0;
    bool saw_marker_table = false;
    for (const BlockLine& block : blocks) {
      EXPECT_GT(block.executions, 0u) << "a block never executed is left out";
      EXPECT_GT(block.instructions, 0u);
      instructions += block.instructions * block.executions;
      cycles += block.cycles;
      saw_marker_table = saw_marker_table || (block.vaddr >= markers_ && block.vaddr < markers_ + uint64_t{ETNS_TEST_MARKER_COUNT} * ETNS_TEST_MARKER_STRIDE);
    }
    EXPECT_TRUE(saw_marker_table) << "the marker blocks execute, and count their instructions";
    EXPECT_EQ(instructions, counts.at("program").at("total").get<uint64_t>());
    const double program_cycles = counts.at("program").at("cycles").get<double>();
    EXPECT_GT(program_cycles, 0);
    EXPECT_NEAR(static_cast<double>(cycles), program_cycles, 0.5 * static_cast<double>(blocks.size()) + 0.5);
  }
  std::remove(memory.c_str());
}

TEST_F(QemuCounterTest, BlocksWithoutCyclesStopQemu) {
  const std::string blocks_path = out_prefix_ + "refused_blocks.txt";
  const RunResult result = run(qemu_command(marker_args() + ",blocks=" + blocks_path));
  EXPECT_NE(result.exit_status, 0);
  EXPECT_NE(result.output.find("etns_qemu_counter: blocks=" + blocks_path + ": needs cycles="), std::string::npos)
      << result.output;
  EXPECT_NE(access(blocks_path.c_str(), F_OK), 0) << "nothing written";
}

TEST_F(QemuCounterTest, AnUnknownCpuStopsQemu) {
  const RunResult result = run(qemu_command(marker_args() + ",cycles=cortex-m99"));
  EXPECT_NE(result.exit_status, 0);
  EXPECT_NE(result.output.find("etns_qemu_counter: cycles=cortex-m99: "), std::string::npos) << result.output;
}

}  // namespace
}  // namespace etns
