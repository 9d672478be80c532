#include "tools/evidence/bundle/bundle.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "tools/evidence/bundle/test_bundles.h"
#include "tools/common/failure.h"
#include "tools/common/process.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::read_document;
using testing::rewrite_in_bundle;
using testing::write_synthetic_bundle;

std::string read_error(const std::string& bundle) {
  try {
    read_bundle(bundle);
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "(read without an error)";
}

TEST(Bundle, TheDocumentsReadBackAsWritten) {
  TemporaryDirectory dir("etns-bundle-test");
  const std::string out = write_synthetic_bundle(dir.path(), "run");
  const Bundle bundle = read_bundle(out);
  EXPECT_EQ(to_json(bundle.summary), read_document(out, "summary.json"));
  EXPECT_EQ(json(to_json(bundle.metadata)), read_document(out, "run_metadata.json"));
  EXPECT_EQ(to_json(bundle.results), read_document(out, "profile_results.json"));
  EXPECT_EQ(to_json(bundle.manifest), read_document(out, "manifest.json"));

  // The aggregates, once: medians 11 and 30, their sum, the shares, the clean pass.
  ASSERT_EQ(bundle.results.layers.size(), 2u);
  EXPECT_EQ(bundle.results.layers[0].value, 11);
  EXPECT_EQ(bundle.results.layers[1].primary.mad, 1.0);
  EXPECT_EQ(bundle.results.layers[1].pct, 73.2);
  EXPECT_EQ(bundle.summary.per_layer_sum, 41);
  ASSERT_TRUE(bundle.summary.clean_end_to_end.has_value());
  EXPECT_EQ(bundle.summary.clean_end_to_end->median, 45);
  EXPECT_EQ(bundle.summary.top_layers.front().id, "c0i1");
  EXPECT_EQ(bundle.results.output_crc32.front(), "deadbeef");
  // What compare shows as configuration: toolchain and arena placement are recorded.
  EXPECT_EQ(bundle.metadata.toolchain, "gcc");
  EXPECT_EQ(bundle.metadata.arena.size, 4096);
  EXPECT_EQ(bundle.metadata.arena.location, "sram");
  // Values a run may lack are written as null, never left out: readers require every key.
  EXPECT_TRUE(read_document(out, "run_metadata.json")["toolchain"]["target_compiler"].is_null());
  EXPECT_EQ(read_document(out, "summary.json")["per_layer_sum"].type(), json::value_t::number_unsigned)
      << "integral figures stay integers";
  EXPECT_EQ(read_file(out + "/profile_results.csv").size(), read_file(out + "/detailed/profile_cpu.csv").size());
  const std::vector<uint8_t> csv = read_file(out + "/profile_results.csv");
  EXPECT_EQ(std::string(csv.begin(), csv.end()),
            "id,op,operator,WALL_NS,pct\n0,OPERATOR_CALL:c0i0,cortex_m::quantized_add.out,11,26.8\n"
            "1,OPERATOR_CALL:c0i1,aten::sub.out,30,73.2\n");
}

// A QEMU run that asked for CPU_CYCLES: the estimate fills the board
// profiler's cycle keys (each row's cycles and share, the rows' sum, the clean
// execute()), labelled estimated, and the metadata names the model.
TEST(Bundle, AQemuRunCarriesTheEstimatedCyclesAndTheirModel) {
  TemporaryDirectory dir("etns-bundle-test");
  const ProfileConfig config = testing::synthetic_qemu_config(dir.path(), "qemu");
  write_bundle(config, testing::synthetic_qemu_result({{"c0i0", "cortex_m::quantized_add.out", 100, 150},
                                                       {"c0i1", "aten::sub.out", 300, 50}},
                                                      420, 230));
  const std::string out = config.output_dir;
  const Bundle bundle = read_bundle(out);
  EXPECT_EQ(to_json(bundle.summary), read_document(out, "summary.json"));
  EXPECT_EQ(json(to_json(bundle.metadata)), read_document(out, "run_metadata.json"));
  EXPECT_EQ(to_json(bundle.results), read_document(out, "profile_results.json"));

  // Rows: the estimate and its share, beside the instruction counts and theirs.
  ASSERT_EQ(bundle.results.layers.size(), 2u);
  EXPECT_EQ(bundle.results.layers[0].cycles, 150);
  EXPECT_EQ(bundle.results.layers[0].cycles_pct, 75.0);
  EXPECT_EQ(bundle.results.layers[0].pct, 25.0);
  EXPECT_EQ(bundle.results.layers[1].counters.at("CPU_CYCLES").value, 50);
  const json counter = read_document(out, "profile_results.json")["counters"][1];
  EXPECT_EQ(counter["name"], "CPU_CYCLES");
  EXPECT_EQ(counter["unit"], "estimated cycles");
  EXPECT_NE(counter["description"].get<std::string>().find("an estimate, not a measurement"), std::string::npos);

  // The board's total_cycles and clean-window average, from the estimate.
  ASSERT_TRUE(bundle.summary.cycles.has_value());
  EXPECT_EQ(bundle.summary.cycles->per_layer_sum, 200);
  ASSERT_TRUE(bundle.summary.cycles->clean_end_to_end.has_value());
  EXPECT_EQ(bundle.summary.cycles->clean_end_to_end->value, 230);
  EXPECT_EQ(bundle.summary.clean_end_to_end->value, 420) << "the headline stays the instruction count";
  const json summary = read_document(out, "summary.json");
  EXPECT_EQ(summary["cycles"]["estimated"], true);
  EXPECT_EQ(summary["cycles"]["unit"], "estimated cycles");

  // Provenance: estimated, and by which model.
  ASSERT_TRUE(bundle.metadata.cycles.has_value());
  EXPECT_EQ(bundle.metadata.cycles->counter, "CPU_CYCLES");
  EXPECT_EQ(bundle.metadata.cycles->model, testing::kSyntheticCycleModel);
  EXPECT_EQ(read_document(out, "run_metadata.json")["cycles"]["estimated"], true);
  EXPECT_EQ(bundle.manifest.counters, std::vector<std::string>({"INST_RETIRED", "CPU_CYCLES"}));

  // The CSV files carry the counter and the board's cycles columns.
  const std::string expected_csv =
      "id,op,operator,INST_RETIRED,CPU_CYCLES,pct,cycles,cycles_pct\n"
      "0,OPERATOR_CALL:c0i0,cortex_m::quantized_add.out,100,150,25.0,150,75.0\n"
      "1,OPERATOR_CALL:c0i1,aten::sub.out,300,50,75.0,50,25.0\n";
  const std::vector<uint8_t> csv = read_file(out + "/profile_results.csv");
  EXPECT_EQ(std::string(csv.begin(), csv.end()), expected_csv);
  const std::vector<uint8_t> cpu = read_file(out + "/detailed/profile_cpu.csv");
  EXPECT_EQ(std::string(cpu.begin(), cpu.end()), expected_csv);
  const std::vector<uint8_t> report = read_file(out + "/report.md");
  const std::string md(report.begin(), report.end());
  EXPECT_NE(md.find("| CPU_CYCLES (estimated cycles) |"), std::string::npos) << md;
  EXPECT_NE(md.find("Estimated Cortex-M55 cycles (CPU_CYCLES, `LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55; "
                    "board profile an547: no wait states`; an estimate, not a measurement): per-instruction sum 200; "
                    "clean end to end 230 for one execute()."),
            std::string::npos)
      << md;
}

// Without CPU_CYCLES (the host, or a config that leaves it out) every cycle
// key is null, and the documents must agree on whether there is an estimate.
TEST(Bundle, CycleKeysAreNullWithoutTheEstimate) {
  TemporaryDirectory dir("etns-bundle-test");
  const std::string host = write_synthetic_bundle(dir.path(), "host");
  EXPECT_TRUE(read_document(host, "summary.json")["cycles"].is_null());
  EXPECT_TRUE(read_document(host, "run_metadata.json")["cycles"].is_null());
  EXPECT_TRUE(read_document(host, "profile_results.json")["layers"][0]["cycles"].is_null());
  EXPECT_TRUE(read_document(host, "profile_results.json")["layers"][0]["cycles_pct"].is_null());
  const std::vector<uint8_t> csv = read_file(host + "/profile_results.csv");
  EXPECT_EQ(std::string(csv.begin(), csv.end()).rfind("id,op,operator,WALL_NS,pct\n", 0), 0u) << "no cycles columns";

  ProfileConfig counts_only = testing::synthetic_qemu_config(dir.path(), "counts_only");
  counts_only.counters.resize(1);  // INST_RETIRED alone
  ProfileResult result = testing::synthetic_qemu_result({{"c0i0", "aten::sub.out", 300, 50}}, 300, 50);
  result.counters.resize(1);
  for (LayerResult& layer : result.layers) layer.samples.resize(1);
  result.clean_counters.resize(1);
  write_bundle(counts_only, result);
  const Bundle bundle = read_bundle(counts_only.output_dir);
  EXPECT_FALSE(bundle.summary.cycles.has_value());
  EXPECT_FALSE(bundle.metadata.cycles.has_value());
  EXPECT_FALSE(bundle.results.layers[0].cycles.has_value());

  // A per_layer: false run has the clean estimate but no rows' sum.
  ProfileConfig clean_only = testing::synthetic_qemu_config(dir.path(), "clean_only");
  clean_only.per_layer = false;
  ProfileResult no_rows = testing::synthetic_qemu_result({}, 420, 230);
  write_bundle(clean_only, no_rows);
  const Bundle clean = read_bundle(clean_only.output_dir);
  ASSERT_TRUE(clean.summary.cycles.has_value());
  EXPECT_FALSE(clean.summary.cycles->per_layer_sum.has_value());
  EXPECT_EQ(clean.summary.cycles->clean_end_to_end->value, 230);

  // The figures without the note of what estimated them are refused.
  const std::string qemu = dir.path() + "/clean_only";
  json metadata = read_document(qemu, "run_metadata.json");
  metadata["cycles"] = nullptr;
  rewrite_in_bundle(qemu, "run_metadata.json", metadata);
  EXPECT_EQ(read_error(qemu),
            qemu + "/run_metadata.json: /cycles: null, but summary.json /cycles is an object");
}

// A bundle whose hashes match but whose content does not follow its schema
// fails with one line naming the file and the field: a wrong type, a value
// outside its set, and a missing key alike, whether or not it may be null.
TEST(Bundle, ASchemaErrorNamesTheFileAndTheField) {
  TemporaryDirectory dir("etns-bundle-test");
  const std::string out = write_synthetic_bundle(dir.path(), "run");
  const json summary = read_document(out, "summary.json");
  const json metadata = read_document(out, "run_metadata.json");
  const json results = read_document(out, "profile_results.json");
  struct Case {
    std::string file;
    json content;
    std::string error;
  };
  std::vector<Case> cases;
  json text_figure = summary;
  text_figure["clean_end_to_end"]["median"] = "fast";
  cases.push_back({"summary.json", text_figure, "/clean_end_to_end/median: expected a number, found string"});
  json null_figure = summary;
  null_figure["per_layer_sum"] = nullptr;
  cases.push_back({"summary.json", null_figure, "/per_layer_sum: expected a number, found null"});
  json missing = summary;
  missing.erase("load");
  cases.push_back({"summary.json", missing, "/load: missing (expected a non-negative integer)"});
  json negative = summary;
  negative["memory"]["scratch_used"] = -3;
  cases.push_back({"summary.json", negative, "/memory/scratch_used: expected a non-negative integer, found -3"});
  json not_array = results;
  not_array["layers"] = json::object();
  cases.push_back({"profile_results.json", not_array, "/layers: expected an array, found object"});
  json bad_row = results;
  bad_row["layers"][1]["counters"]["WALL_NS"]["value"] = json::array();
  cases.push_back({"profile_results.json", bad_row, "/layers/1/counters/WALL_NS/value: expected a number, found array"});
  json other_schema = results;
  other_schema["schema_version"] = 2;
  cases.push_back({"profile_results.json", other_schema, "/schema_version: expected 1, found 2"});
  json no_clean = results;
  no_clean.erase("clean_end_to_end");
  cases.push_back({"profile_results.json", no_clean, "/clean_end_to_end: missing (expected an object or null)"});
  json no_plan = summary;
  no_plan.erase("memory_plan");
  cases.push_back({"summary.json", no_plan, "/memory_plan: missing (expected an array)"});
  json no_mad = summary;
  no_mad["clean_end_to_end"].erase("mad");
  cases.push_back({"summary.json", no_mad, "/clean_end_to_end/mad: missing (expected a number)"});
  json no_compiler = metadata;
  no_compiler["toolchain"].erase("target_compiler");
  cases.push_back({"run_metadata.json", no_compiler, "/toolchain/target_compiler: missing (expected a string or null)"});
  json other_provider = summary;
  other_provider["provider"] = "cmsis";
  cases.push_back({"summary.json", other_provider, "/provider: expected one of arm, ns, found 'cmsis'"});
  json ns_ops = metadata;
  ns_ops["provider"]["ns_ops"] = true;
  cases.push_back({"run_metadata.json", ns_ops,
                   "/provider/ns_ops: true, but /provider/backend is arm (ns_ops follows the backend)"});
  json other_pass = results;
  other_pass["passes"] = {"clean", "fast"};
  cases.push_back({"profile_results.json", other_pass, "/passes/1: expected one of per_instruction, clean, found 'fast'"});
  json moved_row = results;
  moved_row["layers"][1]["index"] = 5;
  cases.push_back({"profile_results.json", moved_row, "/layers/1/index: expected 1 (the row's position), found 5"});
  json other_op = results;
  other_op["layers"][0]["op"] = "OPERATOR_CALL:c0i9";
  cases.push_back({"profile_results.json", other_op,
                   "/layers/0/op: expected \"OPERATOR_CALL:c0i0\", found \"OPERATOR_CALL:c0i9\""});
  json source = metadata;
  source["provider"]["portable_ops_source"] = "sidecar";
  cases.push_back({"run_metadata.json", source,
                   "/provider/portable_ops_source: expected one of program, config, found 'sidecar'"});
  json no_inputs = metadata;
  no_inputs.erase("inputs");
  cases.push_back({"run_metadata.json", no_inputs, "/inputs: missing (expected an array)"});
  json file_without_hash = metadata;
  file_without_hash["inputs"][0]["file"] = "/in.bin";
  cases.push_back({"run_metadata.json", file_without_hash,
                   "/inputs/0/sha256: expected 64 lowercase hex digits (the file's SHA-256), found 'zeros'"});
  json hash_without_file = metadata;
  hash_without_file["inputs"][0]["sha256"] = std::string(64, 'a');
  cases.push_back({"run_metadata.json", hash_without_file,
                   "/inputs/0/sha256: expected 'zeros' (/file is null), found '" + std::string(64, 'a') + "'"});
  json unmarked = summary;
  unmarked["cycles"] = {{"counter", "CPU_CYCLES"}, {"unit", "estimated cycles"}, {"estimated", false},
                        {"per_layer_sum", 1}, {"clean_end_to_end", nullptr}};
  cases.push_back({"summary.json", unmarked, "/cycles/estimated: expected true, found false"});
  json no_cycles = results;
  no_cycles["layers"][0].erase("cycles");
  cases.push_back({"profile_results.json", no_cycles, "/layers/0/cycles: missing (expected a number or null)"});
  json severity = summary;
  severity["issues"] = {{{"code", "x"}, {"severity", "fatal"}, {"message", "m"}, {"context", json::object()}}};
  cases.push_back({"summary.json", severity, "/issues/0/severity: expected one of error, warning, found 'fatal'"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.error);
    const std::string copy = dir.path() + "/copy";
    fs::remove_all(copy);
    fs::copy(out, copy, fs::copy_options::recursive);
    rewrite_in_bundle(copy, c.file, c.content);
    EXPECT_EQ(read_error(copy), copy + "/" + c.file + ": " + c.error);
  }

  // A truncated file (hashes re-made to match) is not JSON: the file is named.
  const std::string dump = summary.dump(2);
  rewrite_in_bundle(out, "summary.json", dump.substr(0, dump.size() / 2));
  const std::string truncated = read_error(out);
  EXPECT_EQ(truncated.rfind(out + "/summary.json: not valid JSON", 0), 0u) << truncated;
  EXPECT_EQ(truncated.find('\n'), std::string::npos) << truncated;
}

// Each document may be right on its own and still contradict the others: the
// one that disagrees with summary.json is named, with its field.
TEST(Bundle, DocumentsThatDisagreeAreNamed) {
  TemporaryDirectory dir("etns-bundle-test");
  const std::string out = write_synthetic_bundle(dir.path(), "run");
  const json summary = read_document(out, "summary.json");
  const json results = read_document(out, "profile_results.json");
  struct Case {
    std::string file;
    json content;
    std::string error;
  };
  std::vector<Case> cases;
  json ns = summary;
  ns["provider"] = "ns";
  cases.push_back({"summary.json", ns, "run_metadata.json: /provider/backend: arm, but summary.json /provider is ns"});
  json qemu = results;
  qemu["target"] = "qemu-m55";
  cases.push_back({"profile_results.json", qemu, "profile_results.json: /target: qemu-m55, but summary.json /target is host"});
  json one_row = results;
  one_row["layers"].erase(1);
  cases.push_back({"profile_results.json", one_row, "profile_results.json: /layers: 1 row, but summary.json /layers is 2 rows"});
  json no_clean = results;
  no_clean["clean_end_to_end"] = nullptr;
  cases.push_back({"profile_results.json", no_clean,
                   "profile_results.json: /clean_end_to_end: null, but summary.json /clean_end_to_end is an object"});
  json degraded = summary;
  degraded["validity"] = "degraded";
  cases.push_back({"summary.json", degraded, "manifest.json: /validity: valid, but summary.json /validity is degraded"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.error);
    const std::string copy = dir.path() + "/copy";
    fs::remove_all(copy);
    fs::copy(out, copy, fs::copy_options::recursive);
    rewrite_in_bundle(copy, c.file, c.content);
    EXPECT_EQ(read_error(copy), copy + "/" + c.error);
  }
}

// The provider is typed end to end: what the configuration chose is what
// every document records, with ns_ops following it.
TEST(Bundle, RecordsTheProviderThatRan) {
  TemporaryDirectory dir("etns-bundle-test");
  ProfileConfig config = testing::synthetic_config(dir.path(), "ns");
  config.backend = protocol::Provider::Ns;
  write_bundle(config, testing::synthetic_result());
  const Bundle bundle = read_bundle(config.output_dir);
  EXPECT_EQ(bundle.summary.provider, protocol::Provider::Ns);
  EXPECT_EQ(bundle.metadata.backend, protocol::Provider::Ns);
  EXPECT_EQ(bundle.manifest.provider, protocol::Provider::Ns);
  const json metadata = read_document(config.output_dir, "run_metadata.json");
  EXPECT_EQ(metadata["provider"]["backend"], "ns");
  EXPECT_EQ(metadata["provider"]["ns_ops"], true);
}

TEST(Bundle, AManifestThatBreaksItsSchemaIsNamed) {
  TemporaryDirectory dir("etns-bundle-test");
  const std::string out = write_synthetic_bundle(dir.path(), "run");
  json manifest = read_document(out, "manifest.json");
  manifest["artifacts"][0]["size_bytes"] = "12";
  write_file_atomic(out + "/manifest.json", manifest.dump(2));
  EXPECT_EQ(read_error(out), out + "/manifest.json: /artifacts/0/size_bytes: expected a non-negative integer, found string");
}

// A profile killed while writing leaves its staging folder; the next write
// of the same destination removes it, and never one whose process lives.
TEST(Bundle, StagingFoldersOfDeadProcessesAreRemovedOnTheNextWrite) {
  TemporaryDirectory dir("etns-bundle-test");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);  // reaped: the pid names no process now
  const std::string destination = dir.path() + "/run";
  const std::string dead = staging_dir_of(destination, child);
  const std::string alive = staging_dir_of(destination, getppid());
  const std::string other = staging_dir_of(dir.path() + "/other", child);
  for (const std::string& folder : {dead, alive, other}) {
    fs::create_directories(folder);
    write_file_atomic(folder + "/summary.json", std::string("{"));
  }
  write_synthetic_bundle(dir.path(), "run");
  EXPECT_FALSE(fs::exists(dead)) << "left by a dead process";
  EXPECT_TRUE(fs::exists(alive)) << "its process still runs";
  EXPECT_TRUE(fs::exists(other)) << "another destination's";
  EXPECT_FALSE(fs::exists(staging_dir_of(destination, getpid()))) << "this write's own staging was published";
  EXPECT_TRUE(fs::exists(destination + "/manifest.json"));
}

}  // namespace
}  // namespace etns::tools
