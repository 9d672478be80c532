#include "tools/evidence/runner/elf_timing.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/evidence/runner/timing_report.h"

namespace etns::tools {
namespace {

// ---- A hand-built ELF32 image, laid out as firmware/regions.h's would be ----

constexpr uint32_t kTextAddress = 0x100;
constexpr uint32_t kMarkersAddress = 0x104;  // after two nops

struct ImageSpec {
  uint16_t machine = EM_ARM;
  uint32_t regions = 4;
  bool with_table = true;
  uint32_t table_bytes = 0;  // 0: regions * 4
  int bad_marker = -1;       // this marker is a nop instead of bx lr
  std::vector<uint8_t> names;
  bool with_names = false;
};

struct Section {
  std::string name;
  uint32_t type = SHT_PROGBITS;
  uint32_t flags = 0;
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
  uint32_t link = 0;
  uint32_t info = 0;
  uint32_t entsize = 0;
};

Section section(const std::string& name, uint32_t type, uint32_t flags = 0, uint32_t address = 0) {
  Section made;
  made.name = name;
  made.type = type;
  made.flags = flags;
  made.address = address;
  return made;
}

template <typename T>
void append(std::vector<uint8_t>& bytes, const T& value) {
  const auto* raw = reinterpret_cast<const uint8_t*>(&value);
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

void append_u16(std::vector<uint8_t>& bytes, uint16_t value) {
  bytes.push_back(static_cast<uint8_t>(value & 0xFF));
  bytes.push_back(static_cast<uint8_t>(value >> 8));
}

std::vector<uint8_t> names_record(uint32_t id, const std::string& name) {
  std::vector<uint8_t> bytes;
  for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<uint8_t>(id >> shift));
  bytes.insert(bytes.end(), name.begin(), name.end());
  bytes.push_back(0);
  return bytes;
}

std::vector<uint8_t> concat(const std::vector<std::vector<uint8_t>>& parts) {
  std::vector<uint8_t> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Section 0 is null; the header table follows the contents.
std::vector<uint8_t> elf_file(uint16_t machine, std::vector<Section> sections) {
  Section names = section(".shstrtab", SHT_STRTAB);
  names.bytes.push_back(0);
  sections.push_back(names);
  std::vector<uint32_t> name_offsets;
  for (const Section& each : sections) {
    name_offsets.push_back(static_cast<uint32_t>(sections.back().bytes.size()));
    sections.back().bytes.insert(sections.back().bytes.end(), each.name.begin(), each.name.end());
    sections.back().bytes.push_back(0);
  }
  std::vector<uint8_t> file(sizeof(Elf32_Ehdr), 0);
  std::vector<uint32_t> offsets;
  for (const Section& each : sections) {
    while (file.size() % 4 != 0) file.push_back(0);
    offsets.push_back(static_cast<uint32_t>(file.size()));
    file.insert(file.end(), each.bytes.begin(), each.bytes.end());
  }
  while (file.size() % 4 != 0) file.push_back(0);
  Elf32_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS32;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_EXEC;
  header.e_machine = machine;
  header.e_version = EV_CURRENT;
  header.e_ehsize = sizeof(Elf32_Ehdr);
  header.e_shoff = static_cast<uint32_t>(file.size());
  header.e_shentsize = sizeof(Elf32_Shdr);
  header.e_shnum = static_cast<uint16_t>(sections.size() + 1);
  header.e_shstrndx = static_cast<uint16_t>(sections.size());
  std::memcpy(file.data(), &header, sizeof(header));
  append(file, Elf32_Shdr{});
  for (size_t i = 0; i < sections.size(); ++i) {
    Elf32_Shdr entry{};
    entry.sh_name = name_offsets[i];
    entry.sh_type = sections[i].type;
    entry.sh_flags = sections[i].flags;
    entry.sh_addr = sections[i].address;
    entry.sh_offset = offsets[i];
    entry.sh_size = static_cast<uint32_t>(sections[i].bytes.size());
    entry.sh_link = sections[i].link;
    entry.sh_info = sections[i].info;
    entry.sh_addralign = sections[i].type == SHT_SYMTAB ? 4 : 1;
    entry.sh_entsize = sections[i].entsize;
    append(file, entry);
  }
  return file;
}

std::vector<uint8_t> test_image(const ImageSpec& spec) {
  Section text = section(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kTextAddress);
  append_u16(text.bytes, 0xBF00);
  append_u16(text.bytes, 0xBF00);
  for (uint32_t marker = 0; marker < 2 * spec.regions; ++marker) {
    append_u16(text.bytes, static_cast<int>(marker) == spec.bad_marker ? 0xBF00 : 0x4770);
  }
  std::vector<Section> sections = {text};  // section 1
  if (spec.with_names) {
    sections.push_back(section(".etns_region_names", SHT_PROGBITS));
    sections.back().bytes = spec.names;
  }
  const uint32_t symtab_index = static_cast<uint32_t>(sections.size() + 1);
  Section strtab = section(".strtab", SHT_STRTAB);
  strtab.bytes.push_back(0);
  Section symtab = section(".symtab", SHT_SYMTAB);
  symtab.link = symtab_index + 1;
  symtab.info = 1;  // the first global symbol
  symtab.entsize = sizeof(Elf32_Sym);
  append(symtab.bytes, Elf32_Sym{});
  const std::string name = spec.with_table ? "etns_region_markers" : "main";
  Elf32_Sym symbol{};
  symbol.st_name = static_cast<uint32_t>(strtab.bytes.size());
  strtab.bytes.insert(strtab.bytes.end(), name.begin(), name.end());
  strtab.bytes.push_back(0);
  symbol.st_value = kMarkersAddress;
  symbol.st_size = spec.table_bytes != 0 ? spec.table_bytes : spec.regions * 4;
  symbol.st_info = ELF32_ST_INFO(STB_GLOBAL, STT_OBJECT);
  symbol.st_shndx = 1;
  append(symtab.bytes, symbol);
  sections.push_back(symtab);
  sections.push_back(strtab);
  return elf_file(spec.machine, sections);
}

std::string failure_of(const std::function<void()>& action, int* exit_code = nullptr) {
  try {
    action();
  } catch (const Failure& failure) {
    if (exit_code != nullptr) *exit_code = failure.exit_code();
    return failure.what();
  }
  return "";
}

class RegionTableTest : public ::testing::Test {
 protected:
  std::string write(const ImageSpec& spec) {
    const std::vector<uint8_t> bytes = test_image(spec);
    write_file_atomic(path_, bytes.data(), bytes.size());
    return path_;
  }
  RegionTable read(const ImageSpec& spec) { return read_region_table(ElfImage::load(write(spec))); }
  std::string refusal(const ImageSpec& spec, int* exit_code = nullptr) {
    return failure_of([&] { read(spec); }, exit_code);
  }

  TemporaryDirectory dir_;
  std::string path_ = dir_.path() + "/app.elf";
};

TEST_F(RegionTableTest, ReadsTheMarkersAndTheNames) {
  ImageSpec spec;
  spec.with_names = true;
  // Two files named region 2 alike: the repeat is harmless.
  spec.names = concat({names_record(0, "load"), names_record(2, "inference"), names_record(2, "inference"),
                       names_record(3, "check output 1/2")});
  const RegionTable table = read(spec);
  EXPECT_EQ(table.markers_address, kMarkersAddress);
  EXPECT_EQ(table.region_count, 4u);
  const std::map<uint32_t, std::string> expected = {{0, "load"}, {2, "inference"}, {3, "check output 1/2"}};
  EXPECT_EQ(table.names, expected);
}

TEST_F(RegionTableTest, AnImageWithoutNamesHasNone) {
  const RegionTable table = read(ImageSpec{});
  EXPECT_EQ(table.region_count, 4u);
  EXPECT_TRUE(table.names.empty());
}

TEST_F(RegionTableTest, RefusesWhatIsNotARegionImageInOneLine) {
  int exit_code = 0;
  ImageSpec x86;
  x86.machine = EM_386;
  EXPECT_EQ(refusal(x86, &exit_code), path_ + ": machine x86, expected ARM (a Cortex-M55 firmware image)");
  EXPECT_EQ(exit_code, 2);

  ImageSpec no_table;
  no_table.with_table = false;
  const std::string missing = refusal(no_table, &exit_code);
  EXPECT_EQ(missing.rfind(path_ + ": no region marker table (symbol etns_region_markers): include firmware/regions.h", 0),
            0u)
      << missing;
  EXPECT_EQ(exit_code, 2);

  ImageSpec odd_size;
  odd_size.table_bytes = 6;
  EXPECT_EQ(refusal(odd_size), path_ +
                                   ": etns_region_markers is 6 bytes, expected a multiple of 4 (two 2-byte bx lr "
                                   "markers per region): not the table firmware/regions.h defines");

  ImageSpec not_bx_lr;
  not_bx_lr.bad_marker = 3;
  EXPECT_EQ(refusal(not_bx_lr), path_ +
                                    ": etns_region_markers: marker 3 at 0x10a is 0xbf00, expected bx lr (0x4770): not "
                                    "the table firmware/regions.h defines");

  ImageSpec name_too_far;
  name_too_far.with_names = true;
  name_too_far.names = names_record(4, "late");
  EXPECT_EQ(refusal(name_too_far),
            path_ + ": .etns_region_names: region 4 ('late'): the marker table holds regions 0 to 3 (ETNS_REGIONS_MAX 4)");
}

TEST(RegionNames, RefusesBrokenRecordsNamingTheByte) {
  const auto refusal = [](const std::vector<uint8_t>& bytes) {
    int exit_code = 0;
    const std::string message = failure_of([&] { parse_region_names(bytes, 8, "app.elf"); }, &exit_code);
    EXPECT_EQ(exit_code, 2) << message;
    return message;
  };
  EXPECT_EQ(refusal(concat({names_record(0, "a"), {1, 0, 0}})),
            "app.elf: .etns_region_names: the record at byte 6 is cut short (3 bytes left; an id takes 4, then a name "
            "and its NUL)");
  EXPECT_EQ(refusal({1, 0, 0, 0, 'a', 'b'}),
            "app.elf: .etns_region_names: the name at byte 4 has no NUL before the section ends");
  EXPECT_EQ(refusal(names_record(1, "")),
            "app.elf: .etns_region_names: region 1: name \"\" (0 bytes): expected 1 to 64 printable ASCII characters, "
            "not \", \\ or %");
  EXPECT_EQ(refusal(names_record(1, "tab\there")),
            "app.elf: .etns_region_names: region 1: name \"tab\\there\" (8 bytes): expected 1 to 64 printable ASCII "
            "characters, not \", \\ or %");
  EXPECT_NE(refusal(names_record(1, std::string(65, 'x'))).find("(65 bytes): expected 1 to 64"), std::string::npos);
  EXPECT_EQ(refusal(concat({names_record(5, "load"), names_record(5, "store")})),
            "app.elf: .etns_region_names: region 5: named both 'load' and 'store'");
  EXPECT_EQ(refusal(names_record(0xFFFFFFFF, "far")),
            "app.elf: .etns_region_names: region 4294967295 ('far'): the marker table holds regions 0 to 7 "
            "(ETNS_REGIONS_MAX 8)");
  EXPECT_TRUE(parse_region_names({}, 8, "app.elf").empty());
}

TEST_F(RegionTableTest, TimeRefusesBeforeQemuWhenTheInputIsWrong) {
  int exit_code = 0;
  write_file_atomic(path_, std::string("not an image\n"));
  TimeOptions options;
  options.elf = path_;
  const std::string not_elf = failure_of([&] { time_firmware(options); }, &exit_code);
  EXPECT_EQ(not_elf.rfind(path_ + ": not an ELF file", 0), 0u) << not_elf;
  EXPECT_EQ(exit_code, 2);

  write(ImageSpec{});
  options.qemu = dir_.path() + "/no-such-qemu";
  const std::string no_qemu = failure_of([&] { time_firmware(options); }, &exit_code);
  EXPECT_EQ(no_qemu, options.qemu + ": QEMU not found (install Debian's qemu-system-arm, set ETNS_QEMU, or pass --qemu "
                                    "PATH)");
  EXPECT_EQ(exit_code, 1);
}

// The hand-built image has a marker table but no vector table: the core
// cannot start, and the run stops in one line rather than hang.
TEST_F(RegionTableTest, AnImageThatCannotBootStopsInOneLine) {
  if (find_executable("qemu-system-arm").empty()) GTEST_SKIP() << "qemu-system-arm not on PATH";
  if (!std::filesystem::exists(executable_dir() + "/../lib/libetns_qemu_counter.so")) {
    GTEST_SKIP() << "no counting plugin built beside this test";
  }
  TimeOptions options;
  options.elf = write(ImageSpec{});
  options.qemu = "qemu-system-arm";
  options.timeout_seconds = 60;
  int exit_code = 0;
  const std::string message = failure_of([&] { time_firmware(options); }, &exit_code);
  EXPECT_EQ(message, path_ +
                         ": QEMU stopped with signal 6: qemu: fatal: Lockup: can't escalate 3 to HardFault (current "
                         "priority -1) (the core faulted with no handler to take it: does the image start with a "
                         "vector table at 0, as mps3-an547 boots?)");
  EXPECT_EQ(exit_code, 1);
}

// ---- The report, from a hand-written plugin output ----

// One counts object of the plugin: "total" and "weighted" as given, one
// MVE instruction, the other classes zero; "cycles" when given.
nlohmann::json counts(uint64_t total, std::optional<uint64_t> cycles) {
  nlohmann::json object = {{"total", total}, {"mve", 1},    {"mve_load", 0}, {"mve_store", 0},
                           {"mve_gather", 0}, {"mve_scatter", 0}, {"fp", 0}, {"load", 0},
                           {"store", 0},      {"branch", 0},  {"loop", 0},     {"weighted", total}};
  if (cycles) object["cycles"] = *cycles;
  return object;
}

nlohmann::json plugin_output(bool with_cycles) {
  const auto c = [&](uint64_t cycles) { return with_cycles ? std::optional<uint64_t>(cycles) : std::nullopt; };
  nlohmann::json output = {
      {"schema", "etns.qemu_counts"},
      {"schema_version", with_cycles ? 3 : 2},
      {"classes", {"total", "mve", "mve_load", "mve_store", "mve_gather", "mve_scatter", "fp", "load", "store",
                   "branch", "loop"}},
      {"markers", {{"base", 260}, {"stride", 2}, {"count", 8}}},
      {"program", counts(1234567, c(1000000))},
      {"regions",
       {{{"id", 0}, {"dropped_visits", 0}, {"unbalanced", 0}, {"visits", {counts(52000, c(61000))}}},
        {{"id", 2}, {"dropped_visits", 0}, {"unbalanced", 0},
         {"visits", {counts(1000, c(800)), counts(1200, c(1000))}}},
        {{"id", 3}, {"dropped_visits", 0}, {"unbalanced", 0}, {"visits", {counts(3, c(2))}}}}},
      {"overflow", false}};
  if (with_cycles) {
    output["cycle_model"] = {{"name", "LLVM 19 MCA, Cortex-M55 scheduling model"}, {"cpu", "cortex-m55"},
                             {"taken_branch_cycles", 3}, {"blocks", 10}, {"pairs", 12},
                             {"unmodelled_instructions", 0}};
  }
  return output;
}

const std::map<uint32_t, std::string> kNames = {{0, "load"}, {1, "input"}, {2, "inference"}};

TEST(TimingReport, OneRowPerRegionSayingWhatEachNumberCounts) {
  TimingReport report = timing_from_counts(plugin_output(true), kNames, "app.elf");
  report.elf = "app.elf";
  EXPECT_EQ(render_timing(report),
            "app.elf: firmware exit status 0 under QEMU mps3-an547\n"
            "instructions: executed instructions, exact (the etns QEMU plugin; the same on every run)\n"
            "est. cycles: estimated (LLVM 19 Cortex-M55 model), not measured: LLVM 19 MCA, Cortex-M55 scheduling "
            "model\n"
            "\n"
            "id  region     visits  instructions/visit  instructions  est. cycles/visit  est. cycles  est. "
            "cycles/instruction\n"
            "0   load            1              52,000        52,000             61,000       61,000                     "
            "1.17\n"
            "1   input           0                   -             -                  -            -                     "
            "   -\n"
            "2   inference       2               1,100         2,200                900        1,800                     "
            "0.82\n"
            "3   region 3        1                   3             3                  2            2                     "
            "0.67\n"
            "    whole run       -                   -     1,234,567                  -    1,000,000                     "
            "0.81\n"
            "\n"
            "A visit counts from the return of its begin marker to the call of its end marker, which adds 2 or 3 "
            "instructions (firmware/regions.h).\n"
            "region 2 'inference': per visit is the mean; visits range from 1,000 to 1,200 instructions\n");
  EXPECT_TRUE(timing_warnings(report).empty());
}

TEST(TimingReport, WithoutTheCycleModelTheCyclesSayWhy) {
  TimingReport report = timing_from_counts(plugin_output(false), kNames, "app.elf");
  report.elf = "app.elf";
  report.cycles_missing_reason = "the plugin p.so has no cycle model";
  const std::string text = render_timing(report);
  EXPECT_NE(text.find("\nest. cycles: not available (the plugin p.so has no cycle model)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n2   inference       2               1,100         2,200                  -            -"
                      "                        -\n"),
            std::string::npos)
      << text;
  const nlohmann::ordered_json json = timing_json(report);
  EXPECT_TRUE(json.at("cycle_model").is_null());
  EXPECT_TRUE(json.at("whole_run").at("cycles").is_null());
  EXPECT_TRUE(json.at("regions").at(2).at("cycles").is_null());
}

TEST(TimingReport, JsonKeepsEveryVisitAndClass) {
  TimingReport report = timing_from_counts(plugin_output(true), kNames, "app.elf");
  report.elf = "app.elf";
  const nlohmann::ordered_json json = timing_json(report);
  EXPECT_EQ(json.at("schema"), "etns.time");
  EXPECT_EQ(json.at("schema_version"), 1);
  EXPECT_EQ(json.at("cycle_model").at("name"), "LLVM 19 MCA, Cortex-M55 scheduling model");
  EXPECT_EQ(json.at("whole_run").at("instructions"), 1234567);
  EXPECT_EQ(json.at("whole_run").at("cycles"), 1000000);
  const nlohmann::ordered_json& regions = json.at("regions");
  ASSERT_EQ(regions.size(), 4u);
  EXPECT_EQ(regions.at(1).at("name"), "input");
  EXPECT_EQ(regions.at(1).at("visits"), 0);
  const nlohmann::ordered_json& inference = regions.at(2);
  EXPECT_EQ(inference.at("id"), 2);
  EXPECT_EQ(inference.at("visits"), 2);
  EXPECT_EQ(inference.at("instructions").at("total"), 2200);
  EXPECT_EQ(inference.at("instructions").at("per_visit_min"), 1000);
  EXPECT_EQ(inference.at("instructions").at("per_visit_max"), 1200);
  EXPECT_EQ(inference.at("cycles"), 1800);
  EXPECT_DOUBLE_EQ(inference.at("cycles_per_instruction").get<double>(), 1800.0 / 2200.0);
  EXPECT_EQ(json.begin().key(), "schema") << "schema first, then the rest in a fixed order";
  EXPECT_EQ(inference.at("classes").at("mve"), 2);
  EXPECT_EQ(inference.at("per_visit").at(1).at("cycles"), 1000);
  EXPECT_TRUE(regions.at(3).at("name").is_null());
}

TEST(TimingReport, WarnsOfUnbalancedMarkersAndDroppedVisits) {
  nlohmann::json output = plugin_output(true);
  output["regions"][1]["unbalanced"] = 1;
  output["regions"][2]["dropped_visits"] = 5000;
  TimingReport report = timing_from_counts(output, kNames, "app.elf");
  report.max_visits = 4096;
  const std::vector<std::string> expected = {
      "region 2 'inference': 1 unbalanced marker (a begin while it was open, an end while it was closed, or open at "
      "exit): its visits may not be what the code meant",
      "region 3: 5,000 visits after the first 1 were not counted (raise --max-visits): its totals leave them out"};
  EXPECT_EQ(timing_warnings(report), expected);
}

TEST(TimingReport, RefusesAnotherSchemaOrAMissingCount) {
  nlohmann::json other = plugin_output(true);
  other["schema_version"] = 4;
  EXPECT_EQ(failure_of([&] { timing_from_counts(other, kNames, "app.elf"); }),
            "app.elf: the counting plugin wrote schema 'etns.qemu_counts' version 4, expected etns.qemu_counts 2 or 3 "
            "(a plugin from another etns?)");
  nlohmann::json cut = plugin_output(true);
  cut["regions"][0]["visits"][0].erase("total");
  const std::string message = failure_of([&] { timing_from_counts(cut, kNames, "app.elf"); });
  EXPECT_EQ(message.rfind("app.elf: the counting plugin's output does not read as etns.qemu_counts: ", 0), 0u)
      << message;
}

}  // namespace
}  // namespace etns::tools
