#include "tools/evidence/runner/elf_timing.h"

#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "protocol/provider.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/text.h"
#include "tools/evidence/runner/qemu_session.h"

namespace etns::tools {
namespace {

constexpr const char* kMarkersSymbol = "etns_region_markers";
constexpr const char* kNamesSection = ".etns_region_names";
constexpr uint16_t kThumbBxLr = 0x4770;

uint32_t read_u32_le(const uint8_t* bytes) {
  return static_cast<uint32_t>(bytes[0]) | static_cast<uint32_t>(bytes[1]) << 8 |
         static_cast<uint32_t>(bytes[2]) << 16 | static_cast<uint32_t>(bytes[3]) << 24;
}

template <typename T>
T read_struct(const std::vector<uint8_t>& file, uint64_t offset) {
  T value;
  std::memcpy(&value, file.data() + offset, sizeof(T));
  return value;
}

// The contents of section `index` of a little-endian ELF32 file (ElfImage
// numbers sections the same way); empty for a section without contents.
std::vector<uint8_t> section_bytes(const std::vector<uint8_t>& file, size_t index, const std::string& path) {
  const auto corrupt = [&](const std::string& what) { return Failure(path + ": corrupt ELF: " + what, 2); };
  if (file.size() < sizeof(Elf32_Ehdr)) throw corrupt("shorter than its header");
  const auto header = read_struct<Elf32_Ehdr>(file, 0);
  if (header.e_shentsize != sizeof(Elf32_Shdr)) {
    throw corrupt(fmt::format("section headers of {} bytes, expected {}", header.e_shentsize, sizeof(Elf32_Shdr)));
  }
  const uint64_t at = uint64_t{header.e_shoff} + uint64_t{index} * sizeof(Elf32_Shdr);
  if (index >= header.e_shnum || at + sizeof(Elf32_Shdr) > file.size()) {
    throw corrupt(fmt::format("section {} lies past the section header table or the file", index));
  }
  const auto section = read_struct<Elf32_Shdr>(file, at);
  if (section.sh_type == SHT_NOBITS) return {};
  if (uint64_t{section.sh_offset} + section.sh_size > file.size()) {
    throw corrupt(fmt::format("section {} lies past the file's {} bytes (truncated?)", index, file.size()));
  }
  return std::vector<uint8_t>(file.begin() + section.sh_offset, file.begin() + section.sh_offset + section.sh_size);
}

// Every marker must be `bx lr`: anything else is not the table
// firmware/regions.h defines, and the plugin would count its body.
void check_markers(const ElfImage& image, const std::vector<uint8_t>& file, const ElfSymbol& symbol,
                   uint64_t address) {
  const std::string& path = image.path();
  if (symbol.section == 0 || symbol.section >= image.sections().size() ||
      !image.sections()[symbol.section].executable) {
    throw Failure(path + ": " + kMarkersSymbol + " is not in a code section: not the table firmware/regions.h defines",
                  2);
  }
  const ElfSection& section = image.sections()[symbol.section];
  const std::vector<uint8_t> bytes = section_bytes(file, symbol.section, path);
  if (address < section.address || address - section.address + symbol.size > bytes.size()) {
    throw Failure(path + ": " + kMarkersSymbol + " at " + hex_address(address) + " lies outside its section " +
                      section.name,
                  2);
  }
  const uint8_t* markers = bytes.data() + (address - section.address);
  for (uint64_t i = 0; i < symbol.size / kRegionMarkerStride; ++i) {
    const uint16_t halfword = static_cast<uint16_t>(markers[2 * i] | markers[2 * i + 1] << 8);
    if (halfword != kThumbBxLr) {
      throw Failure(fmt::format("{}: {}: marker {} at {} is 0x{:04x}, expected bx lr (0x4770): not the table "
                                "firmware/regions.h defines",
                                path, kMarkersSymbol, i, hex_address(address + i * kRegionMarkerStride), halfword),
                    2);
    }
  }
}

bool printable_name(const std::string& name) {
  for (const char c : name) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '%') return false;
  }
  return true;
}

// QEMU's complaints on one line, without the warning every mps3-an547 run
// prints (its Ethernet controller has no network attached) and without the
// register dump after a fatal error.
std::string qemu_errors(const std::string& stderr_text) {
  std::istringstream lines(stderr_text);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.find("has no peer") != std::string::npos) continue;
    kept += (kept.empty() ? "" : "; ") + line;
    if (line.find("fatal:") != std::string::npos) break;
  }
  if (kept.find("Lockup") != std::string::npos) {
    kept += " (the core faulted with no handler to take it: does the image start with a vector table at 0, as "
            "mps3-an547 boots?)";
  }
  return kept.empty() ? "no message" : kept;
}

// QEMU's option syntax: a comma inside a value is written twice.
std::string qemu_value(const std::string& text) {
  std::string escaped;
  for (const char c : text) escaped += c == ',' ? std::string(",,") : std::string(1, c);
  return escaped;
}

// The last line the firmware printed, for the one-line failure.
std::string last_line(const std::string& console) {
  std::istringstream lines(console);
  std::string last;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) last = line;
  }
  return last;
}

// Passes what the firmware printed to on_console as it arrives.
class ConsoleForwarder {
 public:
  ConsoleForwarder(std::string path, std::function<void(const std::string&)> on_console)
      : path_(std::move(path)), on_console_(std::move(on_console)) {}

  void poll() {
    if (!on_console_) return;
    std::ifstream console(path_, std::ios::binary);
    if (!console) return;
    console.seekg(static_cast<std::streamoff>(seen_));
    const std::string chunk((std::istreambuf_iterator<char>(console)), std::istreambuf_iterator<char>());
    seen_ += chunk.size();
    if (!chunk.empty()) on_console_(chunk);
  }

 private:
  std::string path_;
  std::function<void(const std::string&)> on_console_;
  size_t seen_ = 0;
};

struct Attempt {
  ProcessResult process;
  std::string console;
  std::string counts_path;
  bool counts_written = false;
};

Attempt run_qemu(const QemuTools& tools, const RegionTable& table, const TimeOptions& options,
                 const std::string& scratch, bool with_cycles) {
  Attempt attempt;
  const std::string console_path = scratch + "/console.txt";
  attempt.counts_path = scratch + "/counts.json";
  std::filesystem::remove(console_path);
  std::filesystem::remove(attempt.counts_path);
  std::string plugin = qemu_value(tools.plugin) + ",markers=" + hex_address(table.markers_address) +
                       ",stride=" + std::to_string(kRegionMarkerStride) +
                       ",count=" + std::to_string(2 * uint64_t{table.region_count}) +
                       ",out=" + qemu_value(attempt.counts_path) + ",max_visits=" + std::to_string(options.max_visits);
  if (with_cycles) plugin += ",cycles=cortex-m55";
  // Semihosting and UART0 share one console file, in the order printed.
  const std::vector<std::string> argv = {
      tools.qemu, "-machine", "mps3-an547", "-nodefaults", "-display", "none", "-monitor", "none",
      "-chardev", "file,id=etns_console,mux=on,path=" + qemu_value(console_path),
      "-serial", "chardev:etns_console",
      "-semihosting-config", "enable=on,target=native,chardev=etns_console",
      "-kernel", tools.firmware,
      "-plugin", plugin};
  ConsoleForwarder forwarder(console_path, options.on_console);
  attempt.process = run_process(argv, scratch, options.timeout_seconds, [&forwarder]() { forwarder.poll(); });
  forwarder.poll();
  attempt.console = std::filesystem::exists(console_path) ? read_text_file(console_path) : std::string();
  attempt.counts_written = std::filesystem::exists(attempt.counts_path);
  return attempt;
}

// A plugin built before the cycle model refuses the argument at start-up.
bool refused_cycles(const Attempt& attempt) {
  return !attempt.counts_written && attempt.process.stderr_text.find("unknown argument 'cycles=") != std::string::npos;
}

}  // namespace

std::map<uint32_t, std::string> parse_region_names(const std::vector<uint8_t>& bytes, uint32_t region_count,
                                                   const std::string& where) {
  std::map<uint32_t, std::string> names;
  size_t at = 0;
  while (at < bytes.size()) {
    if (bytes.size() - at < 5) {
      throw Failure(fmt::format("{}: {}: the record at byte {} is cut short ({} bytes left; an id takes 4, then a "
                                "name and its NUL)",
                                where, kNamesSection, at, bytes.size() - at),
                    2);
    }
    const uint32_t id = read_u32_le(bytes.data() + at);
    const auto name_begin = bytes.begin() + static_cast<std::ptrdiff_t>(at + 4);
    const auto nul = std::find(name_begin, bytes.end(), uint8_t{0});
    if (nul == bytes.end()) {
      throw Failure(fmt::format("{}: {}: the name at byte {} has no NUL before the section ends", where, kNamesSection,
                                at + 4),
                    2);
    }
    const std::string name(name_begin, nul);
    const std::string label = fmt::format("{}: {}: region {}", where, kNamesSection, id);
    if (name.empty() || name.size() > kMaxRegionNameBytes || !printable_name(name)) {
      throw Failure(fmt::format("{}: name \"{}\" ({} bytes): expected 1 to {} printable ASCII characters, not \", \\ "
                                "or %",
                                label, printable(name), name.size(), kMaxRegionNameBytes),
                    2);
    }
    if (id >= region_count) {
      throw Failure(fmt::format("{} ('{}'): the marker table holds regions 0 to {} (ETNS_REGIONS_MAX {})", label, name,
                                region_count == 0 ? 0 : region_count - 1, region_count),
                    2);
    }
    const auto [known, inserted] = names.emplace(id, name);
    if (!inserted && known->second != name) {
      throw Failure(fmt::format("{}: named both '{}' and '{}'", label, known->second, name), 2);
    }
    at = static_cast<size_t>(nul - bytes.begin()) + 1;
  }
  return names;
}

RegionTable read_region_table(const ElfImage& image) {
  const std::string& path = image.path();
  if (image.machine() != "ARM") {
    throw Failure(path + ": machine " + image.machine() + ", expected ARM (a Cortex-M55 firmware image)", 2);
  }
  const std::vector<uint8_t> file = read_file(path);
  if (file.size() < EI_NIDENT || file[EI_CLASS] != ELFCLASS32 || file[EI_DATA] != ELFDATA2LSB) {
    throw Failure(path + ": not a 32-bit little-endian ELF, as a Cortex-M55 image is", 2);
  }
  const ElfSymbol* symbol = image.find(kMarkersSymbol);
  if (symbol == nullptr || !symbol->defined) {
    throw Failure(path + ": no region marker table (symbol etns_region_markers): include firmware/regions.h, write "
                         "ETNS_REGIONS_DEFINE_TABLE(); in one source file and call etns_region_begin/end (a table "
                         "no code calls is dropped by the linker)",
                  2);
  }
  if (symbol->size == 0 || symbol->size % kRegionMarkerBytes != 0) {
    throw Failure(fmt::format("{}: {} is {} bytes, expected a multiple of {} (two 2-byte bx lr markers per region): "
                              "not the table firmware/regions.h defines",
                              path, kMarkersSymbol, symbol->size, kRegionMarkerBytes),
                  2);
  }
  RegionTable table;
  table.markers_address = symbol->address & ~uint64_t{1};
  table.region_count = static_cast<uint32_t>(symbol->size / kRegionMarkerBytes);
  check_markers(image, file, *symbol, table.markers_address);
  for (size_t i = 0; i < image.sections().size(); ++i) {
    if (image.sections()[i].name == kNamesSection) {
      table.names = parse_region_names(section_bytes(file, i, path), table.region_count, path);
    }
  }
  return table;
}

TimingReport time_firmware(const TimeOptions& options) {
  // A file that is not a firmware image is a usage error, as for etns size.
  const ElfImage image = [&] {
    try {
      return ElfImage::load(options.elf);
    } catch (const Failure& failure) {
      throw Failure(failure.what(), 2);
    }
  }();
  const RegionTable table = read_region_table(image);
  QemuTools given;
  given.qemu = options.qemu;
  given.firmware = options.elf;
  given.plugin = options.plugin;
  const QemuTools tools = resolve_qemu_tools(protocol::Provider::Arm, given);

  TemporaryDirectory scratch("etns-time");
  Attempt attempt = run_qemu(tools, table, options, scratch.path(), true);
  std::string cycles_missing_reason;
  if (refused_cycles(attempt)) {
    cycles_missing_reason = "the plugin " + tools.plugin + " refused cycles=cortex-m55: it has no cycle model";
    attempt = run_qemu(tools, table, options, scratch.path(), false);
  }
  const std::string& elf = options.elf;
  const ProcessResult& process = attempt.process;
  if (process.timed_out) {
    throw Failure(fmt::format("{}: the firmware did not exit within {:g} s under QEMU and was stopped (it must end "
                              "with a semihosting exit; a longer run needs --timeout-s)",
                              elf, options.timeout_seconds));
  }
  if (process.signal != 0) {
    throw Failure(fmt::format("{}: QEMU stopped with signal {}: {}", elf, process.signal,
                              qemu_errors(process.stderr_text)));
  }
  if (!attempt.counts_written) {
    throw Failure(fmt::format("{}: QEMU exited with status {} before the firmware ran: {}", elf, process.exit_status,
                              qemu_errors(process.stderr_text)));
  }
  if (process.exit_status != 0) {
    const std::string last = last_line(attempt.console);
    throw Failure(fmt::format("{}: the firmware exited with status {}{}", elf, process.exit_status,
                              last.empty() ? " and printed nothing" : "; its last line: " + printable(last)));
  }
  TimingReport report = timing_from_counts(read_json_file(attempt.counts_path), table.names, elf);
  report.elf = elf;
  report.exit_status = process.exit_status;
  report.console = attempt.console;
  report.max_visits = options.max_visits;
  report.cycles_missing_reason = cycles_missing_reason;
  return report;
}

}  // namespace etns::tools
