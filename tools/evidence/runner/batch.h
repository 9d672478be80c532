#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/core/scalar_type.h"
#include "runtime/exec/kernel.h"

// `etns run --inputs`: one single-input method run once per input file, on
// one or more threads, each thread with its own HostSession (its own arenas).
// The kernels are deterministic and share nothing mutable, so every output
// file holds the same bytes for any thread count (docs/running.md).
namespace etns::tools {

// One input of a batch: the file, its name (what --labels names it by) and
// the stem its outputs are named after (DIR/<stem>.out.bin).
struct BatchInput {
  std::string path;
  std::string name;
  std::string stem;
};

// The inputs `dir_or_list` names: every regular file of a folder, sorted by
// name; or, for a text file, one path per line, relative to the list's
// folder, with blank lines and lines starting with '#' skipped. Throws
// Failure (exit 2) for a missing folder or list, an empty one, or two inputs
// whose outputs would share a name.
std::vector<BatchInput> list_batch_inputs(const std::string& dir_or_list);

// The class index of each input, in the order of `inputs`, from a labels
// file: one line per input, "<input file name> <class index>" (the last word
// is the index, everything before it the name), blank lines and '#' lines
// skipped. Throws Failure naming the line for a bad index, a name labelled
// twice or naming no input, and for an input without a label.
std::vector<size_t> read_labels(const std::string& path, const std::vector<BatchInput>& inputs);

// Top-1: the index of the largest element of an int8 or float32 tensor's
// bytes; a tie goes to the lowest index and NaN never wins (all NaN gives 0).
// Throws Failure for any other dtype.
size_t top1_index(const std::vector<uint8_t>& bytes, runtime::ScalarType dtype);

// "name,label,predicted" lines (with a header) for --predictions; a name
// holding a comma, quote or line break is quoted as CSV quotes it.
std::string render_predictions(const std::vector<BatchInput>& inputs, const std::vector<size_t>& labels,
                               const std::vector<size_t>& predicted);

struct BatchJob {
  std::string program;
  const runtime::KernelRegistry* registry = nullptr;
  // The inputs, or where run_batch lists them (list_batch_inputs), while the
  // threads load the program.
  std::vector<BatchInput> inputs;
  std::string inputs_from;
  std::string output_dir;  // empty: no output files (labelled runs may skip them)
  size_t threads = 1;      // capped at the number of inputs
  // With --labels: each input's class, or the file run_batch reads them from
  // (read_labels) once the inputs are listed. Turns on top-1
  // (BatchResult::predicted).
  std::vector<size_t> labels;
  std::string labels_from;
  // Called on the calling thread (which runs inputs too), between its
  // inputs, at most every 100 ms: (inputs done, milliseconds since the start).
  std::function<void(size_t, double)> progress;
};

struct BatchResult {
  size_t threads = 0;            // the threads that ran
  double wall_ms = 0;            // host wall time: loads, reads, runs, writes
  std::vector<size_t> predicted;  // per input, when BatchJob::labels is given
};

// Lists the inputs and reads the labels if the job names where from (into
// `job`), then checks everything before anything runs: the program loads, its
// method has one input, every input file has that input's size, top-1 has one
// int8 or float32 output and every label is one of its indices. Then runs
// every input and writes its outputs atomically to output_dir (created if
// missing) as <stem>.out.bin, or <stem>.out<k>.bin for a method with several
// outputs. Throws Failure: a listing, labels or program failure (in that
// order) is the run's; a wrong-size file names the file, its bytes and the
// bytes expected (the first such input); nothing is written.
BatchResult run_batch(BatchJob& job);

// The output files of one input.
std::vector<std::string> batch_output_paths(const std::string& output_dir, const BatchInput& input,
                                            size_t output_count);

}  // namespace etns::tools
