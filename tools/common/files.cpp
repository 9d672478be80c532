#include "tools/common/files.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

// The reason in a read failure's message.
std::string read_reason(ReadFailure::Cause cause, int error_number, mode_t mode, uint64_t size_bytes) {
  switch (cause) {
    case ReadFailure::Cause::System:
      if (error_number == ENOENT || error_number == ENOTDIR) return "no such file";
      return std::strerror(error_number);
    case ReadFailure::Cause::NotRegular: return S_ISDIR(mode) ? "is a directory" : "not a regular file";
    case ReadFailure::Cause::TooLarge: return std::to_string(size_bytes) + " bytes, more than the limit";
    case ReadFailure::Cause::Shrank: return "it became shorter while being read";
  }
  return "unknown reason";
}

// A file opened for reading, closed when it goes.
class ReadableFile {
 public:
  // Opens `path` and learns its size. Only a regular file is read: O_NONBLOCK
  // keeps opening a FIFO from waiting for a writer, and fstat() then refuses it.
  explicit ReadableFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) fail(ReadFailure::Cause::System, errno);
    struct stat status {};
    if (::fstat(fd_, &status) != 0) fail(ReadFailure::Cause::System, errno);
    if (!S_ISREG(status.st_mode)) fail(ReadFailure::Cause::NotRegular, 0, status.st_mode);
    size_ = static_cast<size_t>(status.st_size);
  }
  ReadableFile(const ReadableFile&) = delete;
  ReadableFile& operator=(const ReadableFile&) = delete;
  ~ReadableFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  size_t size() const { return size_; }

  // Refuses a file larger than `max_bytes`.
  void check_size(size_t max_bytes) {
    if (size_ > max_bytes) fail(ReadFailure::Cause::TooLarge, 0, 0, size_);
  }

  // Reads the file's `size()` bytes into `data`.
  void read_into(uint8_t* data) {
    size_t done = 0;
    while (done < size_) {
      const ssize_t got = ::read(fd_, data + done, size_ - done);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail(ReadFailure::Cause::System, errno);
      if (got == 0) fail(ReadFailure::Cause::Shrank);
      done += static_cast<size_t>(got);
    }
  }

 private:
  // Also from the constructor, whose throw runs no destructor: closes here.
  [[noreturn]] void fail(ReadFailure::Cause cause, int error_number = 0, mode_t mode = 0, uint64_t size_bytes = 0) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    throw ReadFailure(path_, cause, error_number, mode, size_bytes);
  }

  const std::string& path_;
  int fd_ = -1;
  size_t size_ = 0;
};

}  // namespace

ReadFailure::ReadFailure(const std::string& path, Cause cause, int error_number, mode_t mode, uint64_t size_bytes)
    : Failure("cannot read " + path + ": " + read_reason(cause, error_number, mode, size_bytes)),
      path_(path),
      cause_(cause),
      error_number_(error_number),
      mode_(mode),
      size_bytes_(size_bytes) {}

std::vector<uint8_t> read_file(const std::string& path) {
  std::vector<uint8_t> bytes;
  read_file_into(path, bytes);
  return bytes;
}

void read_file_into(const std::string& path, std::vector<uint8_t>& bytes) {
  ReadableFile file(path);
  bytes.resize(file.size());
  file.read_into(bytes.data());
}

AlignedBytes read_file_aligned(const std::string& path) {
  ReadableFile file(path);
  AlignedBytes bytes(file.size());
  file.read_into(bytes.data());
  return bytes;
}

void check_readable(const std::string& path) { ReadableFile file(path); }

std::string read_text_file(const std::string& path, size_t max_bytes) {
  ReadableFile file(path);
  file.check_size(max_bytes);
  std::string text(file.size(), '\0');
  file.read_into(reinterpret_cast<uint8_t*>(text.data()));
  return text;
}

namespace {

std::string special_file_kind(const std::filesystem::file_status& status) {
  switch (status.type()) {
    case std::filesystem::file_type::directory: return "a directory";
    case std::filesystem::file_type::fifo: return "a FIFO";
    case std::filesystem::file_type::socket: return "a socket";
    case std::filesystem::file_type::block: return "a block device";
    case std::filesystem::file_type::character: return "a character device";
    default: return "not a regular file";
  }
}

// Where writing `path` lands: the path itself, or through any symlinks the
// file they name (followed by hand: a dangling link's target is created).
// `status` is that file's, not following links; only a regular file or none
// may be there.
std::filesystem::path write_destination(const std::string& path, std::filesystem::file_status& status) {
  std::error_code error;
  std::filesystem::path link = path;
  for (int hops = 0;; ++hops) {
    status = std::filesystem::symlink_status(link, error);
    if (status.type() == std::filesystem::file_type::none) {
      throw Failure("cannot write " + path + ": " + error.message());
    }
    if (!std::filesystem::is_symlink(status)) break;
    if (hops == 40) throw Failure("cannot write " + path + ": too many levels of symbolic links");
    const std::filesystem::path next = std::filesystem::read_symlink(link, error);
    if (error) throw Failure("cannot write " + path + ": " + error.message());
    link = next.is_absolute() ? next : link.parent_path() / next;
  }
  if (status.type() != std::filesystem::file_type::not_found &&
      status.type() != std::filesystem::file_type::regular) {
    throw Failure("cannot write " + path + ": " + special_file_kind(status) +
                  "; only regular files are replaced");
  }
  return link;
}

// A temporary's name: the process id, a number drawn at random once and a
// counter (threads write files at the same time; O_EXCL settles the rest).
std::string temporary_suffix() {
  static const long pid = static_cast<long>(::getpid());
  static const uint64_t salt = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  static std::atomic<uint64_t> counter{0};
  char text[64];
  std::snprintf(text, sizeof(text), ".%ld-%016llx.tmp", pid, static_cast<unsigned long long>(salt + counter++));
  return text;
}

// Writes all `size` bytes to fd (retrying short writes and interruptions);
// false with errno set on an error.
bool write_all(int fd, const void* bytes, size_t size) {
  const auto* cursor = static_cast<const uint8_t*>(bytes);
  size_t left = size;
  while (left > 0) {
    const ssize_t written = ::write(fd, cursor, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    cursor += written;
    left -= static_cast<size_t>(written);
  }
  return true;
}

// A new file written as an unnamed inode in its directory (O_TMPFILE), then
// given its name by one link: one directory update instead of a create and a
// rename, which is what limits many threads writing outputs into one folder.
// The link never replaces anything (it fails if the name appeared meanwhile).
// False, with nothing left behind, where the filesystem or kernel has no
// O_TMPFILE or /proc is absent: the caller then takes the named temporary.
bool write_new_by_link(const std::filesystem::path& target, const void* bytes, size_t size) {
#ifdef O_TMPFILE
  const std::filesystem::path parent = target.has_parent_path() ? target.parent_path() : ".";
  const int fd = ::open(parent.c_str(), O_WRONLY | O_TMPFILE | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  bool ok = write_all(fd, bytes, size);
  if (ok) {
    char self[48];
    std::snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
    ok = ::linkat(AT_FDCWD, self, AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0;
  }
  // Unnamed until the link, so a failure before it leaves nothing; a close
  // that reports a lost write takes the name back.
  if (::close(fd) != 0 && ok) {
    ::unlink(target.c_str());
    ok = false;
  }
  return ok;
#else
  (void)target;
  (void)bytes;
  (void)size;
  return false;
#endif
}

}  // namespace

void write_file_atomic(const std::string& path, const void* bytes, size_t size) {
  // A symlink is written through, a regular file replaced by rename; FIFOs,
  // devices and other special files are never replaced.
  std::filesystem::file_status status;
  const std::filesystem::path target = write_destination(path, status);
  const bool replacing = status.type() == std::filesystem::file_type::regular;
  if (!replacing && write_new_by_link(target, bytes, size)) return;
  // A fresh temporary beside the target (O_EXCL: a file or link planted there
  // is never followed). A new file is created 0666 less the umask by the
  // kernel, which no thread's umask call can race with; a replaced file
  // keeps its mode.
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temporary = target.string() + temporary_suffix();
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, replacing ? 0600 : 0666);
    if (fd < 0 && (errno != EEXIST || attempt == 99)) {
      throw Failure("cannot write " + path + ": " + std::strerror(errno));
    }
  }
  const bool ok_mode =
      !replacing || ::fchmod(fd, static_cast<mode_t>(status.permissions() & std::filesystem::perms::mask)) == 0;
  bool ok = ok_mode && write_all(fd, bytes, size);
  const std::string write_error = ok ? "" : std::strerror(errno);
  if (::close(fd) != 0 && ok) ok = false;
  if (!ok) {
    std::remove(temporary.c_str());
    throw Failure("cannot write " + path + ": " + (write_error.empty() ? "write failed" : write_error));
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::remove(temporary.c_str());
    throw Failure("cannot write " + path + ": " + error.message());
  }
}

nlohmann::json read_json_file(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    return nlohmann::json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::exception& error) {
    throw Failure(path + ": not valid JSON (" + error.what() + ")");
  }
}

}  // namespace etns::tools
