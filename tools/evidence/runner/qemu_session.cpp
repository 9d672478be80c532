#include "tools/evidence/runner/qemu_session.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "protocol/job.h"
#include "runtime/core/checked_size.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"
#include "tools/common/text.h"
#include "tools/evidence/elf/elf_image.h"

namespace etns::tools {
namespace {

std::string first_line(const std::string& text) {
  const size_t end = text.find('\n');
  return text.substr(0, end);
}

// QEMU's own complaints, without the warning every mps3-an547 run prints
// (its on-board Ethernet controller has no network attached).
std::string qemu_errors(const std::string& stderr_text) {
  std::istringstream lines(stderr_text);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("has no peer") != std::string::npos) continue;
    kept += (kept.empty() ? "" : "; ") + line;
  }
  return kept.empty() ? "no message" : kept;
}

// Where the firmware keeps its markers and job, read from its symbol table.
struct FirmwareLayout {
  uint64_t marker_table = 0;
  uint64_t marker_count = 0;
  uint64_t job_address = 0;
  uint64_t job_capacity = 0;
};

FirmwareLayout read_layout(const ElfImage& image) {
  if (image.machine() != "ARM") {
    throw Failure(image.path() + ": a " + image.machine() + " ELF, expected an Arm firmware image");
  }
  const ElfSymbol* table = image.find("etns_marker_table");
  const ElfSymbol* job_start = image.find("__job_start");
  const ElfSymbol* job_end = image.find("__job_end");
  if (table == nullptr || job_start == nullptr || job_end == nullptr) {
    throw Failure(image.path() + ": not an etns firmware image (no etns_marker_table or __job_start symbol)");
  }
  FirmwareLayout layout;
  layout.marker_table = table->address & ~uint64_t{1};
  layout.marker_count = table->size / protocol::kMarkerStride;
  layout.job_address = job_start->address;
  layout.job_capacity = job_end->address - job_start->address;
  if (layout.marker_count != protocol::kMarkerCount) {
    throw Failure(image.path() + ": " + std::to_string(layout.marker_count) + " markers, this etns expects " +
                  std::to_string(protocol::kMarkerCount) + " (firmware from another etns version?)");
  }
  return layout;
}

// Where each part of a job starts (offsets from the header's first byte, each
// a multiple of kJobAlignment) and where it ends. File sizes are any 64-bit
// value, so the sums are checked.
struct JobLayout {
  uint64_t program_offset = 0;
  std::vector<uint64_t> input_offsets;
  uint64_t total_bytes = 0;
};

uint64_t end_of_part(uint64_t offset, uint64_t bytes, const std::string& label) {
  constexpr uint64_t kStep = protocol::kJobAlignment;
  uint64_t end = 0;
  if (!runtime::checked_add(offset, bytes, &end) || !runtime::checked_add(end, kStep - 1, &end)) {
    throw Failure(label + ": the job's size leaves 64-bit arithmetic");
  }
  return end / kStep * kStep;
}

JobLayout lay_out_job(const QemuJob& job, const std::string& label) {
  JobLayout layout;
  layout.program_offset = end_of_part(0, sizeof(protocol::JobHeader), label);
  uint64_t end = end_of_part(layout.program_offset, job.program.size(), label);
  for (const std::vector<uint8_t>& input : job.inputs) {
    layout.input_offsets.push_back(end);
    end = end_of_part(end, input.size(), label);
  }
  layout.total_bytes = end;
  return layout;
}

// Refuses, before QEMU starts, a job the firmware's job region cannot hold
// (or the header's 32-bit offsets cannot describe), naming every size.
void check_job_fits(const QemuJob& job, const JobLayout& layout, const FirmwareLayout& firmware,
                    const std::string& label) {
  const uint64_t limit = std::min<uint64_t>(firmware.job_capacity, UINT32_MAX);
  if (layout.total_bytes <= limit) return;
  uint64_t input_bytes = 0;
  for (const std::vector<uint8_t>& input : job.inputs) input_bytes += input.size();  // each <= total_bytes
  throw Failure(fmt::format(
      "{}: the job needs {} bytes (header {}, program {}, inputs {}, each part {}-byte aligned), the firmware's "
      "job region at {} holds {}",
      label, layout.total_bytes, sizeof(protocol::JobHeader), job.program.size(), input_bytes,
      protocol::kJobAlignment, hex_address(firmware.job_address), limit));
}

std::vector<uint8_t> build_job(const QemuJob& job, const std::string& output_dir, const FirmwareLayout& firmware,
                               const std::string& label) {
  if (job.inputs.size() > protocol::kMaxJobInputs) {
    throw Failure(label + ": " + std::to_string(job.inputs.size()) + " inputs, the firmware takes at most " +
                  std::to_string(protocol::kMaxJobInputs));
  }
  if (output_dir.size() + 1 > protocol::kJobPathBytes) {
    throw Failure("temporary folder path too long for the firmware (" + output_dir + ")");
  }
  const JobLayout layout = lay_out_job(job, label);
  check_job_fits(job, layout, firmware, label);
  // Every offset and size below is at most total_bytes, which fits 32 bits.
  protocol::JobHeader header{};
  std::memcpy(header.magic, protocol::kJobMagic, sizeof(header.magic));
  header.version = protocol::kJobVersion;
  header.header_bytes = sizeof(protocol::JobHeader);
  header.flags = (job.dump_instructions ? protocol::kJobDumpInstructions : 0u) |
                 (job.per_instruction_pass ? protocol::kJobPerInstructionPass : 0u) |
                 (job.clean_pass ? protocol::kJobCleanPass : 0u) | (job.self_test_fault ? protocol::kJobSelfTestFault : 0u);
  header.warmup = job.warmup;
  header.iterations = job.iterations;
  header.program_offset = static_cast<uint32_t>(layout.program_offset);
  header.program_bytes = static_cast<uint32_t>(job.program.size());
  header.input_count = static_cast<uint32_t>(job.inputs.size());
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    header.input_offset[i] = static_cast<uint32_t>(layout.input_offsets[i]);
    header.input_bytes[i] = static_cast<uint32_t>(job.inputs[i].size());
  }
  header.total_bytes = static_cast<uint32_t>(layout.total_bytes);
  std::memcpy(header.output_dir, output_dir.c_str(), output_dir.size() + 1);

  std::vector<uint8_t> blob(layout.total_bytes, 0);
  std::memcpy(blob.data(), &header, sizeof(header));
  if (!job.program.empty()) std::memcpy(blob.data() + header.program_offset, job.program.data(), job.program.size());
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    if (job.inputs[i].empty()) continue;  // an empty tensor's input: no bytes, and no data()
    std::memcpy(blob.data() + header.input_offset[i], job.inputs[i].data(), job.inputs[i].size());
  }
  return blob;
}

// "key=value" fields of a console line.
std::string field(const std::string& line, const std::string& key) {
  std::istringstream words(line);
  for (std::string word; words >> word;) {
    if (word.rfind(key + "=", 0) == 0) return word.substr(key.size() + 1);
  }
  return "";
}

// The firmware's console lines, without the prefix.
std::vector<std::string> firmware_lines(const std::string& console) {
  std::vector<std::string> lines;
  std::istringstream stream(console);
  const std::string prefix = protocol::kConsolePrefix;
  for (std::string line; std::getline(stream, line);) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line.substr(prefix.size()));
  }
  return lines;
}

[[noreturn]] void fail_from_console(const std::vector<std::string>& lines, const std::string& label,
                                    const ElfImage& image, int status) {
  std::string message;
  auto add = [&](const std::string& text) {
    if (!message.empty()) message += '\n';
    message += label + ": " + text;
  };
  std::string error_name;
  for (const std::string& line : lines) {
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) continue;
    if (words[0] == protocol::console::kLog) add(line.substr(line.find(' ') + 1));
    if (words[0] == protocol::console::kError && words.size() >= 3) {
      error_name = line.substr(line.find(words[2], words[0].size() + 1 + words[1].size()));
    }
    if (words[0] == protocol::console::kFault) {
      const uint64_t pc = std::strtoull(field(line, "pc").c_str(), nullptr, 16);
      const std::string where = image.describe_address(pc);
      add("firmware fault: " + (words.size() > 1 ? words[1] : std::string("?")) + " at pc " + hex_address(pc) +
          (where.empty() ? "" : " (" + where + ")") + ", lr " + field(line, "lr") + ", cfsr " +
          field(line, "cfsr") + ", hfsr " + field(line, "hfsr") + ", bfar " + field(line, "bfar"));
      throw FirmwareStopped(message, FirmwareStopped::Stage::Fault);
    }
  }
  const FirmwareStopped::Stage stage =
      status == protocol::kExitLoadFailed ? FirmwareStopped::Stage::Load : FirmwareStopped::Stage::Run;
  if (status == protocol::kExitLoadFailed || status == protocol::kExitInputRejected || status == protocol::kExitExecuteFailed) {
    if (message.empty()) add(error_name);
    const bool runtime_error = error_name.find(' ') == std::string::npos;
    throw FirmwareStopped(message + (runtime_error ? " [" + error_name + "]" : " (" + error_name + ")"), stage);
  }
  if (error_name.empty()) error_name = "no report";
  add("firmware stopped with status " + std::to_string(status) + ": " + error_name);
  throw FirmwareStopped(message, stage);
}

ClassCounts parse_counts(const nlohmann::json& counts, const std::vector<std::string>& classes) {
  ClassCounts result;
  for (const std::string& name : classes) result.values.push_back(counts.at(name).get<uint64_t>());
  return result;
}

// The files of one run in its scratch folder.
struct JobFiles {
  std::string output_dir;  // the firmware writes output<i>.bin and <instruction>.bin here
  std::string job;
  std::string counts;
  std::string console;
};

JobFiles job_files(const std::string& scratch) {
  return {scratch + "/out", scratch + "/job.bin", scratch + "/counts.json", scratch + "/console.txt"};
}

// QEMU's command for one job: the console and counts files, the plugin's
// markers, and the job blob loaded at the firmware's job address.
QemuCommand job_command(const JobFiles& files, const FirmwareLayout& layout, const QemuJob& job) {
  const uint32_t max_visits = job.iterations > 0 ? job.iterations : 1;
  QemuCommand command;
  command.console_path = files.console;
  command.counts_path = files.counts;
  command.marker_table = layout.marker_table;
  command.marker_count = layout.marker_count;
  command.max_visits = max_visits;
  command.extra = {"-device", "loader,file=" + files.job + ",addr=" + hex_address(layout.job_address) + ",force-raw=on"};
  return command;
}

// Feeds complete console lines to on_line as the firmware prints them.
class ConsoleFollower {
 public:
  ConsoleFollower(const std::string& console_path, const std::function<void(const std::string& line)>& on_line)
      : console_path_(console_path), on_line_(on_line) {}

  void poll() {
    if (!on_line_) return;
    std::ifstream console(console_path_, std::ios::binary);
    if (!console) return;
    console.seekg(static_cast<std::streamoff>(console_seen_));
    std::string chunk((std::istreambuf_iterator<char>(console)), std::istreambuf_iterator<char>());
    console_seen_ += chunk.size();
    pending_ += chunk;
    const std::string prefix = protocol::kConsolePrefix;
    for (size_t end; (end = pending_.find('\n')) != std::string::npos; pending_.erase(0, end + 1)) {
      if (pending_.rfind(prefix, 0) == 0) on_line_(pending_.substr(prefix.size(), end - prefix.size()));
    }
  }

 private:
  const std::string& console_path_;
  const std::function<void(const std::string& line)>& on_line_;
  size_t console_seen_ = 0;
  std::string pending_;
};

// Everything the firmware printed, or "" when it never opened its console.
std::string read_console(const std::string& console_path) {
  return std::filesystem::exists(console_path) ? read_text_file(console_path) : std::string();
}

// Throws unless QEMU and the firmware finished the run and its report.
void check_finished(const ProcessResult& process, const std::vector<std::string>& lines, const std::string& label,
                    const ElfImage& image, double timeout_seconds) {
  if (process.timed_out) {
    throw Failure(fmt::format("{}: QEMU did not finish within {:g} s and was stopped (the firmware hung, or raise "
                              "--timeout / timeouts.run)",
                              label, timeout_seconds));
  }
  if (process.signal != 0) throw Failure(label + ": QEMU was killed by signal " + std::to_string(process.signal));
  if (lines.empty()) {
    throw Failure(label + ": QEMU exited with status " + std::to_string(process.exit_status) +
                  " before the firmware printed anything: " + qemu_errors(process.stderr_text));
  }
  if (process.exit_status != protocol::kExitOk) fail_from_console(lines, label, image, process.exit_status);
  if (lines.back() != protocol::console::kDone) throw Failure(label + ": the firmware exited without finishing its report");
}

// The firmware's report: what it loaded, its instructions, each iteration's CRC.
void read_report(const std::vector<std::string>& lines, const std::string& label, QemuRun& run) {
  for (const std::string& line : lines) {
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) continue;
    if (words[0] == protocol::console::kLoaded) {
      run.method_arena_bytes = std::stoull(field(line, protocol::console::kMethodArena));
      run.scratch_bytes = std::stoull(field(line, protocol::console::kScratch));
      const std::string provider = field(line, protocol::console::kProvider);
      if (!protocol::parse_provider_name(provider.c_str(), &run.provider)) {
        throw Failure(label + ": the firmware names an unknown provider '" + provider + "' (image from another etns?)");
      }
      run.board = field(line, protocol::console::kBoard);
      std::istringstream planned(field(line, protocol::console::kPlanned));
      for (std::string bytes; std::getline(planned, bytes, ',');) run.planned_bytes.push_back(std::stoull(bytes));
    } else if (words[0] == protocol::console::kInstruction && words.size() == 4) {
      run.instructions.push_back({words[2], words[3], {}});
    } else if (words[0] == protocol::console::kIteration && words.size() == 4) {
      const uint32_t crc = static_cast<uint32_t>(std::stoul(field(line, protocol::console::kCrc32), nullptr, 16));
      (words[1] == protocol::console::kPassClean ? run.clean_crc32 : run.per_instruction_crc32).push_back(crc);
    }
  }
}

// The plugin's counts (qemu_plugin/etns_counter.c, schema etns.qemu_counts v3): every
// class, then weighted (gathers and scatters once per lane) and the estimated cycles
// (qemu_plugin/cycle_model.h), each read like one more class.
void read_counts(const std::string& counts_path, const std::string& label, QemuRun& run) {
  nlohmann::json counts;
  try {
    counts = read_json_file(counts_path);
  } catch (const Failure& failure) {
    throw Failure(label + ": the counting plugin's output: " + failure.what());
  }
  if (counts.value("schema", "") != "etns.qemu_counts" || counts.value("schema_version", 0) != 3) {
    throw Failure(label + ": the counting plugin wrote an unknown schema (plugin from another etns version?)");
  }
  run.classes = counts.at("classes").get<std::vector<std::string>>();
  run.classes.push_back("weighted");
  run.classes.push_back("cycles");
  run.cycle_model = counts.at("cycle_model").at("name").get<std::string>() + ", " +
                    counts.at("cycle_model").at("cpu").get<std::string>();
  run.whole_run = parse_counts(counts.at("program"), run.classes);
  if (counts.at("overflow").get<bool>()) throw Failure(label + ": the plugin dropped region visits");
  for (const nlohmann::json& region : counts.at("regions")) {
    const uint32_t id = region.at("id").get<uint32_t>();
    if (region.at("unbalanced").get<uint64_t>() != 0) {
      throw Failure(label + ": region " + std::to_string(id) + " has unbalanced markers");
    }
    std::vector<ClassCounts> visits;
    for (const nlohmann::json& visit : region.at("visits")) visits.push_back(parse_counts(visit, run.classes));
    if (id == protocol::kRegionLoad && !visits.empty()) {
      run.load = visits.front();
    } else if (id == protocol::kRegionExecute) {
      run.clean_visits = std::move(visits);
    } else if (id >= protocol::kRegionFirstInstruction && id - protocol::kRegionFirstInstruction < run.instructions.size()) {
      run.instructions[id - protocol::kRegionFirstInstruction].visits = std::move(visits);
    }
  }
}

// The plugin's blocks= file: a '#' header, then "0x<vaddr> <instructions>
// <executions> <est_cycles>" per executed block.
std::vector<ExecutedBlock> read_blocks(const std::string& blocks_path, const std::string& label) {
  std::string text;
  try {
    text = read_text_file(blocks_path);
  } catch (const Failure& failure) {
    throw Failure(label + ": the counting plugin's block profile: " + failure.what());
  }
  std::vector<ExecutedBlock> blocks;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    ExecutedBlock block;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%" SCNx64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %c", &block.address,
                    &block.instructions, &block.executions, &block.cycles, &extra) != 4) {
      throw Failure(label + ": the counting plugin's block profile has a bad line '" + line +
                    "' (plugin from another etns version?)");
    }
    blocks.push_back(block);
  }
  return blocks;
}

// The outputs the firmware wrote, and each instruction's dump when asked for.
void read_outputs(const std::string& output_dir, bool dump_instructions, QemuRun& run) {
  for (size_t i = 0;; ++i) {
    const std::string path = output_dir + "/output" + std::to_string(i) + ".bin";
    if (!std::filesystem::exists(path)) break;
    run.outputs.push_back(read_file(path));
  }
  if (dump_instructions) {
    for (const QemuInstruction& instruction : run.instructions) {
      run.dumps.push_back(read_file(output_dir + "/" + instruction.id + ".bin"));
    }
  }
}

}  // namespace

uint64_t ClassCounts::get(const std::vector<std::string>& classes, const std::string& name) const {
  // "a+b": the sum of two classes (a counter such as MVE_LDST_RETIRED).
  if (const size_t plus = name.find('+'); plus != std::string::npos) {
    return get(classes, name.substr(0, plus)) + get(classes, name.substr(plus + 1));
  }
  for (size_t i = 0; i < classes.size() && i < values.size(); ++i) {
    if (classes[i] == name) return values[i];
  }
  throw Failure("no instruction class '" + name + "' in the counts");
}

std::vector<std::string> qemu_argv(const QemuTools& tools, const QemuCommand& command) {
  std::vector<std::string> argv = {
      tools.qemu,
      "-machine", "mps3-an547",
      "-nodefaults", "-display", "none", "-monitor", "none", "-serial", "null",
      "-chardev", "file,id=etns_console,path=" + command.console_path,
      "-semihosting-config", "enable=on,target=native,chardev=etns_console",
      "-kernel", tools.firmware};
  argv.insert(argv.end(), command.extra.begin(), command.extra.end());
  argv.push_back("-plugin");
  argv.push_back(tools.plugin + ",markers=" + hex_address(command.marker_table) +
                 ",stride=" + std::to_string(protocol::kMarkerStride) + ",count=" + std::to_string(command.marker_count) +
                 ",out=" + command.counts_path + ",max_visits=" + std::to_string(command.max_visits) +
                 ",cycles=" + kCycleModelCpu + (command.memory_path.empty() ? "" : ",memory=" + command.memory_path) +
                 (command.blocks_path.empty() ? "" : ",blocks=" + command.blocks_path));
  return argv;
}

std::string firmware_file_name(protocol::Provider provider) {
  return std::string("etns_m55_") + protocol::to_string(provider) + ".elf";
}

QemuTools resolve_qemu_tools(protocol::Provider provider, QemuTools given) {
  if (given.qemu.empty()) {
    const char* from_env = std::getenv("ETNS_QEMU");
    given.qemu = from_env != nullptr && *from_env != '\0' ? from_env : "qemu-system-arm";
  }
  const std::string qemu = find_executable(given.qemu);
  if (qemu.empty()) {
    throw Failure(given.qemu + ": QEMU not found (install Debian's qemu-system-arm, set ETNS_QEMU, or pass --qemu PATH)");
  }
  given.qemu = qemu;
  const std::string build = executable_dir() + "/..";
  if (given.firmware.empty()) given.firmware = build + "/firmware/" + firmware_file_name(provider);
  if (given.plugin.empty()) given.plugin = build + "/lib/libetns_qemu_counter.so";
  if (!std::filesystem::is_regular_file(given.firmware)) {
    throw Failure(given.firmware + ": firmware image not found (build it with cmake --build build, which needs "
                                   "arm-none-eabi-gcc, or pass --firmware FILE)");
  }
  if (!std::filesystem::is_regular_file(given.plugin)) {
    throw Failure(given.plugin + ": QEMU counting plugin not found (cmake --build build makes it)");
  }
  return given;
}

std::string qemu_version(const std::string& qemu) {
  TemporaryDirectory scratch("etns-qemu-version");
  const ProcessResult result = run_process({qemu, "--version"}, scratch.path(), 30);
  if (result.exit_status != 0) throw Failure(qemu + " --version failed: " + first_line(result.stderr_text));
  return first_line(result.stdout_text);
}

QemuRun run_on_qemu(const QemuTools& tools, const QemuJob& job, const std::string& label) {
  const ElfImage image = ElfImage::load(tools.firmware);
  const FirmwareLayout layout = read_layout(image);

  TemporaryDirectory scratch("etns-qemu");
  const JobFiles files = job_files(scratch.path());
  std::filesystem::create_directory(files.output_dir);
  const std::vector<uint8_t> blob = build_job(job, files.output_dir, layout, label);
  write_file_atomic(files.job, blob.data(), blob.size());

  QemuCommand command = job_command(files, layout, job);
  // The built-in profile is parsed once per process, not once per run.
  static const BoardProfile an547 = load_board_profile("an547");
  const BoardProfile& board = job.board != nullptr ? *job.board : an547;
  const std::string memory = board_memory_file(board, image);
  if (!memory.empty()) {
    command.memory_path = scratch.path() + "/memory.txt";
    write_file_atomic(command.memory_path, memory);
  }
  if (job.block_profile) command.blocks_path = scratch.path() + "/blocks.txt";
  const std::vector<std::string> argv = qemu_argv(tools, command);
  ConsoleFollower follower(files.console, job.on_line);
  const ProcessResult process =
      run_process(argv, scratch.path(), job.timeout_seconds, [&follower]() { follower.poll(); });

  QemuRun run;
  run.console = read_console(files.console);
  const std::vector<std::string> lines = firmware_lines(run.console);
  check_finished(process, lines, label, image, job.timeout_seconds);
  read_report(lines, label, run);
  read_counts(files.counts, label, run);
  run.cycle_model += "; " + board.describe();
  read_outputs(files.output_dir, job.dump_instructions, run);
  if (job.block_profile) run.blocks = read_blocks(command.blocks_path, label);
  return run;
}

}  // namespace etns::tools
