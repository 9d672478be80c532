#include "tools/common/files.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tools/common/failure.h"
#include "tools/common/process.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;

std::string failure_of(const std::string& path) {
  try {
    write_file_atomic(path, "new");
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "";
}

TEST(WriteFileAtomic, ReplacesARegularFileAndLeavesNoTemporary) {
  const TemporaryDirectory dir;
  const std::string path = dir.path() + "/out.bin";
  write_file_atomic(path, "old");
  ::chmod(path.c_str(), 0640);
  write_file_atomic(path, "new");
  EXPECT_EQ(read_file(path), (std::vector<uint8_t>{'n', 'e', 'w'}));
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all, fs::perms(0640)) << "keeps the file's mode";
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

// New files get 0666 less the umask, also when threads write at once (as
// `etns run --threads` does): nothing may change the process's umask meanwhile.
TEST(WriteFileAtomic, NewFilesGetTheUmasksModeOnEveryThread) {
  const TemporaryDirectory dir;
  const mode_t before = ::umask(027);
  const auto write_many = [&dir](char thread) {
    for (int i = 0; i < 100; ++i) write_file_atomic(dir.path() + "/" + thread + std::to_string(i), "new");
  };
  std::thread first(write_many, 'a');
  std::thread second(write_many, 'b');
  first.join();
  second.join();
  ::umask(before);
  size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(entry.status().permissions() & fs::perms::all, fs::perms(0640)) << entry.path();
  }
  EXPECT_EQ(files, 200u) << "no temporaries";
}

// The names a directory saw created or moved in while `write` ran.
template <typename Write>
std::vector<std::string> names_appearing(const std::string& dir, Write write) {
  const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (watch < 0) return {"inotify unavailable"};
  ::inotify_add_watch(watch, dir.c_str(), IN_CREATE | IN_MOVED_TO);
  write();
  std::vector<std::string> names;
  alignas(inotify_event) char events[4096];
  for (ssize_t got; (got = ::read(watch, events, sizeof(events))) > 0;) {
    for (ssize_t at = 0; at < got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(events + at);
      names.emplace_back(event->len > 0 ? event->name : "");
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
  ::close(watch);
  return names;
}

// A new file costs its folder one update (`etns run` writes thousands into
// one folder, where updates take turns): written unnamed, then linked. A
// replaced file still goes through a named temporary and a rename.
TEST(WriteFileAtomic, ANewFileAppearsOnlyUnderItsName) {
  const TemporaryDirectory dir;
  const int probe = ::open(dir.path().c_str(), O_WRONLY | O_TMPFILE, 0600);
  if (probe < 0) GTEST_SKIP() << "this file system has no O_TMPFILE: new files take the named temporary";
  ::close(probe);
  const std::string path = dir.path() + "/out.bin";
  EXPECT_EQ(names_appearing(dir.path(), [&] { write_file_atomic(path, "new"); }),
            std::vector<std::string>{"out.bin"});
  EXPECT_EQ(read_file(path), (std::vector<uint8_t>{'n', 'e', 'w'}));
  const std::vector<std::string> replacing = names_appearing(dir.path(), [&] { write_file_atomic(path, "two"); });
  ASSERT_EQ(replacing.size(), 2u);
  EXPECT_NE(replacing[0], "out.bin") << "the temporary";
  EXPECT_EQ(replacing[1], "out.bin") << "renamed over the file";
  EXPECT_EQ(read_file(path), (std::vector<uint8_t>{'t', 'w', 'o'}));
}

TEST(WriteFileAtomic, WritesThroughSymlinksAndKeepsThem) {
  const TemporaryDirectory dir;
  const std::string target = dir.path() + "/target.bin";
  write_file_atomic(target, "old");
  fs::create_symlink("target.bin", dir.path() + "/link.bin");
  write_file_atomic(dir.path() + "/link.bin", "new");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir.path() + "/link.bin")));
  EXPECT_EQ(read_file(target), (std::vector<uint8_t>{'n', 'e', 'w'}));
  // A dangling link is written through too: its target is created.
  fs::create_symlink("missing.bin", dir.path() + "/dangling.bin");
  write_file_atomic(dir.path() + "/dangling.bin", "new");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir.path() + "/dangling.bin")));
  EXPECT_EQ(read_file(dir.path() + "/missing.bin").size(), 3u);
}

TEST(WriteFileAtomic, RefusesSpecialFilesAndLeavesThemAlone) {
  const TemporaryDirectory dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(failure_of(fifo), "cannot write " + fifo + ": a FIFO; only regular files are replaced");
  EXPECT_TRUE(fs::is_fifo(fifo));
  // Through a link the same: the link's target is what would be replaced.
  fs::create_symlink("fifo", dir.path() + "/to_fifo");
  EXPECT_EQ(failure_of(dir.path() + "/to_fifo"),
            "cannot write " + dir.path() + "/to_fifo: a FIFO; only regular files are replaced");
  fs::create_symlink("/dev/null", dir.path() + "/to_null");
  EXPECT_EQ(failure_of(dir.path() + "/to_null"),
            "cannot write " + dir.path() + "/to_null: a character device; only regular files are replaced");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  fs::create_directory(dir.path() + "/folder");
  EXPECT_EQ(failure_of(dir.path() + "/folder"),
            "cannot write " + dir.path() + "/folder: a directory; only regular files are replaced");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 4) << "no temporaries";
}

std::string read_failure_of(const std::string& path) {
  try {
    read_file(path);
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "";
}

TEST(ReadFile, ReadsWholeFilesAndReusesTheCallersBuffer) {
  const TemporaryDirectory dir;
  write_file_atomic(dir.path() + "/long.bin", std::string(5000, 'x'));
  write_file_atomic(dir.path() + "/short.bin", "abc");
  write_file_atomic(dir.path() + "/empty.bin", "");
  EXPECT_EQ(read_file(dir.path() + "/long.bin"), std::vector<uint8_t>(5000, 'x'));
  std::vector<uint8_t> buffer;
  read_file_into(dir.path() + "/long.bin", buffer);
  const uint8_t* storage = buffer.data();
  read_file_into(dir.path() + "/short.bin", buffer);
  EXPECT_EQ(buffer, (std::vector<uint8_t>{'a', 'b', 'c'}));
  EXPECT_EQ(buffer.data(), storage) << "the grown buffer is reused";
  read_file_into(dir.path() + "/empty.bin", buffer);
  EXPECT_TRUE(buffer.empty());
}

// Each refusal names the path and why, and none waits: a FIFO with no
// writer is refused, not opened for a read that would block.
TEST(ReadFile, RefusesWhatIsNotARegularFileByName) {
  const TemporaryDirectory dir;
  EXPECT_EQ(read_failure_of(dir.path() + "/missing.bin"), "cannot read " + dir.path() + "/missing.bin: no such file");
  write_file_atomic(dir.path() + "/file.bin", "abc");
  EXPECT_EQ(read_failure_of(dir.path() + "/file.bin/x"), "cannot read " + dir.path() + "/file.bin/x: no such file");
  EXPECT_EQ(read_failure_of(dir.path()), "cannot read " + dir.path() + ": is a directory");
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_failure_of(fifo), "cannot read " + fifo + ": not a regular file");
  EXPECT_EQ(read_failure_of("/dev/zero"), "cannot read /dev/zero: not a regular file");
  if (::geteuid() != 0) {  // root reads anything
    ::chmod((dir.path() + "/file.bin").c_str(), 0);
    EXPECT_EQ(read_failure_of(dir.path() + "/file.bin"), "cannot read " + dir.path() + "/file.bin: Permission denied");
  }
}

}  // namespace
}  // namespace etns::tools
