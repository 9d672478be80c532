#include "tools/evidence/runner/batch.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>

#include <dirent.h>
#include <sched.h>
#include <sys/stat.h>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/text.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") + 1 - first);
}

// The lines of a text file that carry something: trimmed, with their
// 1-based numbers; blank lines and '#' comments are skipped. The views point
// into `text`.
std::vector<std::pair<size_t, std::string_view>> content_lines(std::string_view text) {
  std::vector<std::pair<size_t, std::string_view>> lines;
  size_t number = 0;
  for (size_t begin = 0; begin < text.size();) {
    const size_t newline = text.find('\n', begin);
    const size_t end = newline == std::string_view::npos ? text.size() : newline;
    ++number;
    const std::string_view line = trimmed(text.substr(begin, end - begin));
    if (!line.empty() && line[0] != '#') lines.emplace_back(number, line);
    begin = end + 1;
  }
  return lines;
}

// A list or labels file; one that cannot be read is a usage error (exit 2), as
// any input named on the command line.
std::string text_of_file(const std::string& path) {
  try {
    const std::vector<uint8_t> bytes = read_file(path);
    return std::string(bytes.begin(), bytes.end());
  } catch (const ReadFailure& failure) {
    throw Failure(failure.what(), 2);
  }
}

// std::filesystem's filename() and stem(), on the string: a path object
// parses itself into components, which cost more than the rest of listing a
// folder of 1,000 inputs.
BatchInput input_at(std::string path) {
  const size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = name.rfind('.');
  const bool has_extension = name != ".." && dot != std::string::npos && dot != 0;
  std::string stem = has_extension ? name.substr(0, dot) : name;
  return BatchInput{std::move(path), std::move(name), std::move(stem)};
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string count_of(size_t count, const char* what) {
  return grouped(count) + " " + what + (count == 1 ? "" : "s");
}

// The first input of [begin, end) whose file does not have the method
// input's size: its index, the message and the exit code (2 for a file that
// cannot be read, a usage error as for any input; 1 for a wrong size);
// {end, "", 0} when all have it.
struct WrongSize {
  size_t at;
  std::string message;
  int exit_code;
};

WrongSize first_wrong_size(const std::vector<BatchInput>& inputs, size_t begin, size_t end,
                           const runtime::Tensor& input) {
  for (size_t i = begin; i < end; ++i) {
    const BatchInput& each = inputs[i];
    std::error_code error;
    const uintmax_t size = fs::file_size(each.path, error);
    if (error) return {i, "cannot read " + each.path + ": " + error.message() + " (--inputs)", 2};
    if (size != input.nbytes) {
      return {i,
              each.path + ": " + std::to_string(size) + " bytes given, expected " + std::to_string(input.nbytes) +
                  " (the method's input: " + runtime::to_string(input.dtype) + ", " + std::to_string(input.numel) +
                  " elements)",
              1};
    }
  }
  return {end, "", 0};
}

// What the worker threads share: the set-up's outcome, the next input to
// take, the first failure.
struct SharedProgress {
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::condition_variable changed;
  // Set-up, under `mutex`: whether the inputs are known and how many threads
  // run them (0: stopped), threads done with it, the set-up failure of the
  // lowest input (SIZE_MAX: a session that did not load), and whether to run.
  bool inputs_known = false;
  // Thread 1 loads thread 0's session first (the caller is busy listing):
  // whether it is done, and what it threw.
  bool first_session_loaded = false;
  std::exception_ptr first_session_failure;
  size_t active_threads = 0;
  size_t ready_threads = 0;
  size_t setup_failure_at = SIZE_MAX;
  bool setup_failed = false;
  bool go = false;
  size_t run_failure_at = SIZE_MAX;  // under `mutex`: the input whose failure is `failure`
  std::string failure;  // the first set-up failure, or the lowest input's, under `mutex`
  int failure_exit_code = 1;
};

int exit_code_of(const std::exception& error) {
  const auto* failure = dynamic_cast<const Failure*>(&error);
  return failure != nullptr ? failure->exit_code() : 1;
}

// With as many threads as CPUs the process may run on, each thread is kept
// on its own CPU for the run; the inputs are shared as they come, so a CPU
// busy with something else only takes fewer of them. Left free, the
// scheduler of a small virtual machine moved both threads of a run onto one
// CPU for milliseconds at a time (2 threads over 1,000 dscnn inputs: median
// 17.5 ms, 14.3 kept). With fewer threads than CPUs nothing is kept: the
// free CPUs are the scheduler's to use.
class CpuPlacement {
 public:
  explicit CpuPlacement(size_t threads) {
    CPU_ZERO(&allowed_);
    if (threads < 2 || ::sched_getaffinity(0, sizeof(allowed_), &allowed_) != 0) return;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &allowed_)) cpus_.push_back(cpu);
    }
    if (cpus_.size() != threads) {
      cpus_.clear();
      return;
    }
    // The calling thread stays where it runs: moving it costs a migration.
    const auto here = std::find(cpus_.begin(), cpus_.end(), ::sched_getcpu());
    if (here != cpus_.end()) std::rotate(cpus_.begin(), here, here + 1);
  }
  CpuPlacement(const CpuPlacement&) = delete;
  CpuPlacement& operator=(const CpuPlacement&) = delete;
  // The calling thread (thread 0) may run anywhere again.
  ~CpuPlacement() {
    if (!cpus_.empty()) ::sched_setaffinity(0, sizeof(allowed_), &allowed_);
  }

  // Keeps the calling thread on thread `thread`'s CPU, if any; a refusal
  // (the CPU set changed meanwhile) only leaves it free.
  void keep(size_t thread) const {
    if (thread >= cpus_.size()) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus_[thread], &one);
    ::sched_setaffinity(0, sizeof(one), &one);
  }

 private:
  cpu_set_t allowed_;
  std::vector<int> cpus_;
};

// Records a set-up failure: the lowest input's wins; SIZE_MAX is a session
// that did not load.
void record_setup_failure(SharedProgress& shared, size_t at, const std::string& failure, int exit_code) {
  const std::lock_guard<std::mutex> lock(shared.mutex);
  if (!shared.setup_failed || at < shared.setup_failure_at) {
    shared.setup_failed = true;
    shared.setup_failure_at = at;
    shared.failure = failure;
    shared.failure_exit_code = exit_code;
  }
}

// One thread's share of the input size checks, once the inputs are known, in
// parallel with the others; then it counts itself ready.
void check_sizes(size_t thread, size_t threads, const HostSession& session, const BatchJob& job,
                 SharedProgress& shared) {
  const size_t count = job.inputs.size();
  const size_t begin = count * thread / threads;
  const size_t end = count * (thread + 1) / threads;
  try {
    const WrongSize wrong = first_wrong_size(job.inputs, begin, end, session.method().input(0));
    if (wrong.at != end) record_setup_failure(shared, wrong.at, wrong.message, wrong.exit_code);
  } catch (const std::exception& error) {
    record_setup_failure(shared, begin, error.what(), exit_code_of(error));
  }
  const std::lock_guard<std::mutex> lock(shared.mutex);
  ++shared.ready_threads;
  shared.changed.notify_all();
}

// Takes inputs until none is left or a thread failed. `tick`, if given, runs
// after each input (the calling thread's progress line).
void take_inputs(HostSession& session, const BatchJob& job, std::vector<size_t>& predicted, SharedProgress& shared,
                 const std::function<void()>* tick) {
  size_t current = SIZE_MAX;  // the input being run
  try {
    const size_t output_count = session.method().output_count();
    std::vector<uint8_t> bytes;  // one buffer for every input of this thread
    for (size_t i = shared.next++; i < job.inputs.size() && !shared.failed; i = shared.next++) {
      current = i;
      const BatchInput& input = job.inputs[i];
      try {
        read_file_into(input.path, bytes);
        session.set_input(0, bytes);
      } catch (const ReadFailure& failure) {
        throw Failure(std::string(failure.what()) + " (--inputs " + input.path + ")", 2);  // as first_wrong_size's
      } catch (const Failure& failure) {
        throw Failure(std::string(failure.what()) + " (--inputs " + input.path + ")", failure.exit_code());
      }
      session.execute();
      if (!job.output_dir.empty()) {
        const std::vector<std::string> paths = batch_output_paths(job.output_dir, input, output_count);
        for (size_t k = 0; k < output_count; ++k) {
          const runtime::Tensor& out = session.method().output(k);
          write_file_atomic(paths[k], out.data, out.nbytes);
        }
      }
      if (!job.labels.empty()) predicted[i] = top1_index(session.output_bytes(0), session.method().output(0).dtype);
      ++shared.done;
      if (tick != nullptr) (*tick)();
    }
  } catch (const std::exception& error) {
    // The lowest failing input's failure is the run's, as with one thread:
    // every input before it was taken earlier, and its thread finishes it.
    const std::lock_guard<std::mutex> lock(shared.mutex);
    if (!shared.failed || current < shared.run_failure_at) {
      shared.run_failure_at = current;
      shared.failure = error.what();
      shared.failure_exit_code = exit_code_of(error);
    }
    shared.failed = true;
  }
}

// A thread other than the caller's: it loads its own session (nothing of a
// Method is shared) while the caller lists the inputs and reads the labels,
// thread 1 the caller's session first; then, if the run needs it, checks its
// share of the input sizes and, once every thread is set up and nothing
// failed, takes inputs when told to go.
void work(size_t thread, std::vector<std::unique_ptr<HostSession>>& sessions, const BatchJob& job,
          std::vector<size_t>& predicted, SharedProgress& shared, const CpuPlacement& placement) {
  placement.keep(thread);
  if (thread == 1) {
    std::exception_ptr failure;
    try {
      sessions[0] = std::make_unique<HostSession>(job.program, job.registry);
    } catch (...) {
      failure = std::current_exception();
    }
    {
      const std::lock_guard<std::mutex> lock(shared.mutex);
      shared.first_session_loaded = true;
      shared.first_session_failure = failure;
    }
    shared.changed.notify_all();
  }
  std::string load_failure;
  int load_exit_code = 1;
  try {
    sessions[thread] = std::make_unique<HostSession>(job.program, job.registry);
  } catch (const std::exception& error) {
    load_failure = error.what();
    load_exit_code = exit_code_of(error);
  }
  size_t threads = 0;
  {
    std::unique_lock<std::mutex> lock(shared.mutex);
    shared.changed.wait(lock, [&shared]() { return shared.inputs_known; });
    threads = shared.active_threads;  // 0: the caller's own set-up failed
  }
  if (thread >= threads) return;  // fewer inputs than threads, or stopped
  if (!load_failure.empty()) {
    record_setup_failure(shared, SIZE_MAX, load_failure, load_exit_code);
    const std::lock_guard<std::mutex> lock(shared.mutex);
    ++shared.ready_threads;
    shared.changed.notify_all();
  } else {
    check_sizes(thread, threads, *sessions[thread], job, shared);
  }
  {
    std::unique_lock<std::mutex> lock(shared.mutex);
    shared.changed.wait(lock, [&shared]() { return shared.go; });
    if (shared.failed) return;  // a set-up failed: nothing runs
  }
  take_inputs(*sessions[thread], job, predicted, shared, nullptr);
}

// The method checks that need no input file: one input; for top-1, one int8
// or float32 output and every label one of its indices.
void check_method(const runtime::Method& method, const BatchJob& job) {
  if (method.input_count() != 1) {
    throw Failure(job.program + ": the method has " + count_of(method.input_count(), "input") +
                      "; --inputs runs a method of one input (use --input once per method input)",
                  2);
  }
  if (job.labels.empty()) return;
  if (method.output_count() != 1) {
    throw Failure(job.program + ": the method has " + count_of(method.output_count(), "output") +
                      "; --labels needs one (the classifier's scores)",
                  2);
  }
  const runtime::Tensor& out = method.output(0);
  if (out.dtype != runtime::ScalarType::Char && out.dtype != runtime::ScalarType::Float) {
    throw Failure(job.program + ": the output is " + runtime::to_string(out.dtype) +
                      "; --labels needs int8 or float32 scores",
                  2);
  }
  for (size_t i = 0; i < job.labels.size(); ++i) {
    if (job.labels[i] >= out.numel) {
      const std::string classes = grouped(out.numel) + (out.numel == 1 ? " class" : " classes");
      throw Failure("--labels: " + job.inputs.at(i).name + " is labelled " + std::to_string(job.labels[i]) +
                    ", but the output has " + classes + " (0 to " + std::to_string(out.numel - 1) + ")");
    }
  }
}

}  // namespace

std::vector<BatchInput> list_batch_inputs(const std::string& dir_or_list) {
  std::error_code error;
  std::vector<BatchInput> inputs;
  if (fs::is_directory(dir_or_list, error)) {
    // readdir() rather than a directory_iterator, whose entries are path
    // objects: this takes about half the time for 1,000 inputs.
    DIR* const folder = ::opendir(dir_or_list.c_str());
    if (folder == nullptr) {
      throw Failure("cannot read the folder " + dir_or_list + ": " + std::strerror(errno) + " (--inputs)", 2);
    }
    const std::string prefix = dir_or_list.back() == '/' ? dir_or_list : dir_or_list + "/";
    std::vector<std::string> names;  // sorted before any path is made
    for (errno = 0; const dirent* entry = ::readdir(folder); errno = 0) {
      // A link or a file system that does not give the type is asked (stat
      // follows links, as the folder's files are read through them).
      struct stat status {};
      const bool regular = entry->d_type == DT_REG ||
                           ((entry->d_type == DT_LNK || entry->d_type == DT_UNKNOWN) &&
                            ::stat((prefix + entry->d_name).c_str(), &status) == 0 && S_ISREG(status.st_mode));
      if (regular) names.emplace_back(entry->d_name);
    }
    const int read_error = errno;
    ::closedir(folder);
    if (read_error != 0) {
      throw Failure("cannot read the folder " + dir_or_list + ": " + std::strerror(read_error) + " (--inputs)", 2);
    }
    std::sort(names.begin(), names.end());
    inputs.reserve(names.size());
    for (const std::string& name : names) inputs.push_back(input_at(prefix + name));
  } else if (fs::is_regular_file(dir_or_list, error)) {
    const fs::path folder = fs::path(dir_or_list).parent_path();
    const std::string text = text_of_file(dir_or_list);
    for (const auto& numbered : content_lines(text)) {
      const fs::path listed(numbered.second);
      inputs.push_back(input_at((listed.is_absolute() ? listed : folder / listed).native()));
    }
  } else {
    throw Failure(dir_or_list + ": no such folder or list file (--inputs)", 2);
  }
  if (inputs.empty()) throw Failure(dir_or_list + ": no input in it (--inputs)", 2);
  // Outputs are named by stem, labels by file name: each must be unique. The
  // first input whose stem an earlier one has names the clash.
  std::unordered_map<std::string_view, size_t> by_stem;  // views into `inputs`
  by_stem.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto [at, added] = by_stem.emplace(inputs[i].stem, i);
    if (!added) {
      throw Failure(dir_or_list + ": " + inputs[at->second].path + " and " + inputs[i].path + " would both write " +
                        inputs[i].stem + ".out.bin (--inputs)",
                    2);
    }
  }
  return inputs;
}

std::vector<size_t> read_labels(const std::string& path, const std::vector<BatchInput>& inputs) {
  // Names by view into `inputs`, sorted: a lookup is a binary search and no
  // name is copied.
  std::vector<std::pair<std::string_view, size_t>> index_of;
  index_of.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) index_of.emplace_back(inputs[i].name, i);
  // A folder's inputs come sorted by name already.
  if (!std::is_sorted(index_of.begin(), index_of.end())) std::sort(index_of.begin(), index_of.end());
  std::vector<size_t> labels(inputs.size());
  std::vector<size_t> line_of(inputs.size(), 0);
  const std::string text = text_of_file(path);
  for (const auto& [number, line] : content_lines(text)) {
    const auto where = [&path, number = number]() { return path + ":" + std::to_string(number) + ": "; };
    const size_t space = line.find_last_of(" \t");
    if (space == std::string_view::npos) throw Failure(where() + "expected '<input file name> <class index>'");
    const std::string_view name = trimmed(line.substr(0, space));
    const std::string_view index = line.substr(space + 1);
    if (index.size() > 9 || index.find_first_not_of("0123456789") != std::string_view::npos) {
      throw Failure(where() + "'" + printable(std::string(index)) + "' is not a class index (0, 1, ...)");
    }
    const auto found = std::lower_bound(index_of.begin(), index_of.end(), std::make_pair(name, size_t{0}));
    if (found == index_of.end() || found->first != name) {
      throw Failure(where() + printable(std::string(name)) + " is not one of the inputs (--inputs)");
    }
    const size_t input = found->second;
    if (line_of[input] != 0) {
      throw Failure(where() + printable(std::string(name)) + " is labelled twice (first on line " +
                    std::to_string(line_of[input]) + ")");
    }
    line_of[input] = number;
    size_t value = 0;  // at most 9 digits: no overflow
    for (const char digit : index) value = value * 10 + static_cast<size_t>(digit - '0');
    labels[input] = value;
  }
  const size_t missing = static_cast<size_t>(std::count(line_of.begin(), line_of.end(), 0));
  if (missing > 0) {
    const size_t first = static_cast<size_t>(std::find(line_of.begin(), line_of.end(), 0) - line_of.begin());
    throw Failure(path + ": no label for " + inputs[first].path +
                  (missing > 1 ? " (and " + count_of(missing - 1, "other input") + ")" : std::string()));
  }
  return labels;
}

size_t top1_index(const std::vector<uint8_t>& bytes, runtime::ScalarType dtype) {
  size_t best = 0;
  if (dtype == runtime::ScalarType::Char) {
    for (size_t i = 1; i < bytes.size(); ++i) {
      if (static_cast<int8_t>(bytes[i]) > static_cast<int8_t>(bytes[best])) best = i;
    }
    return best;
  }
  if (dtype == runtime::ScalarType::Float) {
    bool found = false;
    float best_value = 0;
    for (size_t i = 0; i + sizeof(float) <= bytes.size(); i += sizeof(float)) {
      float value;
      std::memcpy(&value, bytes.data() + i, sizeof(float));
      if (std::isnan(value)) continue;
      if (!found || value > best_value) {
        found = true;
        best_value = value;
        best = i / sizeof(float);
      }
    }
    return best;
  }
  throw Failure(std::string("top-1 needs an int8 or float32 output, not ") + runtime::to_string(dtype), 2);
}

std::string render_predictions(const std::vector<BatchInput>& inputs, const std::vector<size_t>& labels,
                               const std::vector<size_t>& predicted) {
  std::string text = "input,label,predicted\n";
  for (size_t i = 0; i < inputs.size(); ++i) {
    text += csv_field(inputs[i].name) + "," + std::to_string(labels.at(i)) + "," + std::to_string(predicted.at(i)) +
            "\n";
  }
  return text;
}

std::vector<std::string> batch_output_paths(const std::string& output_dir, const BatchInput& input,
                                            size_t output_count) {
  std::vector<std::string> paths;
  for (size_t k = 0; k < output_count; ++k) {
    paths.push_back(output_dir + "/" + input.stem + (output_count == 1 ? ".out" : ".out" + std::to_string(k)) +
                    ".bin");
  }
  return paths;
}

namespace {

// The threads of a batch beyond the calling one (thread 0), started before
// the inputs are known and then released: to work on `threads` inputs at once,
// or to stop.
class Workers {
 public:
  explicit Workers(SharedProgress& shared) : shared_(shared) {}
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // Threads 1 .. wanted - 1, each loading its session and waiting for release().
  void start(size_t wanted, std::vector<std::unique_ptr<HostSession>>& sessions, const BatchJob& job,
             std::vector<size_t>& predicted, const CpuPlacement& placement) {
    try {
      for (size_t t = 1; t < wanted; ++t) {
        threads_.emplace_back(work, t, std::ref(sessions), std::cref(job), std::ref(predicted), std::ref(shared_),
                              std::cref(placement));
      }
    } catch (const std::system_error& error) {
      stop_and_join();
      throw Failure(std::string("cannot start a thread: ") + error.what());
    }
  }
  bool none() const { return threads_.empty(); }
  // Wakes every waiting thread; `go` false stops them.
  void release(size_t threads, bool go) {
    {
      const std::lock_guard<std::mutex> lock(shared_.mutex);
      shared_.inputs_known = true;
      shared_.active_threads = threads;
      if (!go) {
        shared_.failed = true;
        shared_.go = true;
      }
    }
    shared_.changed.notify_all();
  }
  void stop_and_join() {
    release(0, false);
    join();
  }
  void join() {
    for (std::thread& thread : threads_) thread.join();
  }

 private:
  SharedProgress& shared_;
  std::vector<std::thread> threads_;
};

// Lists the inputs, reads the labels and loads (or waits for) the first
// session, which checks the program: its failure is the run's. Returns how
// many threads will work.
size_t prepare_first_session(BatchJob& job, size_t wanted, std::vector<std::unique_ptr<HostSession>>& sessions,
                             const Workers& workers, SharedProgress& shared) {
  if (!job.inputs_from.empty()) job.inputs = list_batch_inputs(job.inputs_from);
  if (!job.labels_from.empty()) job.labels = read_labels(job.labels_from, job.inputs);
  if (workers.none()) {
    sessions[0] = std::make_unique<HostSession>(job.program, job.registry);
  } else {
    std::unique_lock<std::mutex> lock(shared.mutex);
    shared.changed.wait(lock, [&shared]() { return shared.first_session_loaded; });
    if (shared.first_session_failure) std::rethrow_exception(shared.first_session_failure);
  }
  check_method(sessions[0]->method(), job);
  return std::max<size_t>(1, std::min(wanted, job.inputs.size()));
}

// Waits until every working thread has checked its session, then makes the
// output folder. The first failure of either, with its exit code; "" when none.
std::string setup_failure(const BatchJob& job, size_t threads, SharedProgress& shared, int* exit_code) {
  *exit_code = 1;
  {
    std::unique_lock<std::mutex> lock(shared.mutex);
    shared.changed.wait(lock, [&]() { return shared.ready_threads == threads; });
    if (shared.setup_failed) {
      *exit_code = shared.failure_exit_code;
      return shared.failure;
    }
  }
  if (!job.output_dir.empty()) {
    std::error_code error;
    fs::create_directories(job.output_dir, error);
    if (error) return "cannot create --outputs " + job.output_dir + ": " + error.message();
  }
  return "";
}

}  // namespace

BatchResult run_batch(BatchJob& job) {
  const auto started = std::chrono::steady_clock::now();
  // Threads start first: each loads its session, and thread 1 this thread's,
  // while this one lists the inputs and reads the labels. Until the inputs
  // are known there is one thread per --threads; those beyond the inputs
  // then stop.
  const size_t wanted = std::max<size_t>(
      1, job.inputs_from.empty() ? std::min(job.threads, job.inputs.size()) : job.threads);
  std::vector<std::unique_ptr<HostSession>> sessions(wanted);
  BatchResult result;
  SharedProgress shared;
  const CpuPlacement placement(wanted);
  // The calling thread is thread 0: a run on one thread starts no other, and
  // no hand-over between threads waits on the machine's wake-up latency.
  Workers workers(shared);
  workers.start(wanted, sessions, job, result.predicted, placement);
  placement.keep(0);
  size_t threads = 0;
  try {
    threads = prepare_first_session(job, wanted, sessions, workers, shared);
    result.threads = threads;
    result.predicted.assign(job.labels.empty() ? 0 : job.inputs.size(), 0);
  } catch (...) {
    workers.stop_and_join();
    throw;
  }
  workers.release(threads, true);
  check_sizes(0, threads, *sessions[0], job, shared);
  int exit_code = 1;
  const std::string failure = setup_failure(job, threads, shared, &exit_code);
  if (!failure.empty()) {
    workers.stop_and_join();
    throw Failure(failure, exit_code);
  }
  {
    const std::lock_guard<std::mutex> lock(shared.mutex);
    shared.go = true;
  }
  shared.changed.notify_all();
  const auto elapsed_ms = [&started]() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  };
  // The progress line, at most every 100 ms, from between thread 0's inputs.
  auto shown = std::chrono::steady_clock::now();
  const std::function<void()> tick = [&]() {
    const auto now = std::chrono::steady_clock::now();
    if (now - shown < std::chrono::milliseconds(100)) return;
    shown = now;
    job.progress(shared.done, elapsed_ms());
  };
  take_inputs(*sessions[0], job, result.predicted, shared, job.progress ? &tick : nullptr);
  workers.join();
  if (shared.failed) throw Failure(shared.failure, shared.failure_exit_code);
  result.wall_ms = elapsed_ms();
  return result;
}

}  // namespace etns::tools
