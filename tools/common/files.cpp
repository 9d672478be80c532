#include "tools/common/files.h"

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "tools/common/failure.h"

namespace etns::tools {
namespace {

std::string reason(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return "no such file";
  if (std::filesystem::is_directory(path, error)) return "is a directory";
  if (!std::filesystem::is_regular_file(path, error)) return "not a regular file";
  return std::strerror(errno);
}

std::ifstream open_for_read(const std::string& path, size_t* size) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw Failure("cannot read " + path + ": " + reason(path));
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Failure("cannot read " + path + ": " + reason(path));
  *size = static_cast<size_t>(in.tellg());
  in.seekg(0);
  return in;
}

}  // namespace

std::vector<uint8_t> read_file(const std::string& path) {
  size_t size = 0;
  std::ifstream in = open_for_read(path, &size);
  std::vector<uint8_t> bytes(size);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    throw Failure("cannot read " + path + ": read failed");
  }
  return bytes;
}

AlignedBytes read_file_aligned(const std::string& path) {
  size_t size = 0;
  std::ifstream in = open_for_read(path, &size);
  AlignedBytes bytes(size);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    throw Failure("cannot read " + path + ": read failed");
  }
  return bytes;
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

// Where writing `path` lands: through any symlinks, to the file they name.
std::filesystem::path write_destination(const std::string& path) {
  std::error_code error;
  std::filesystem::path link = path;
  // Follow links by hand: weakly_canonical leaves a dangling one unresolved.
  for (int hops = 0; std::filesystem::is_symlink(std::filesystem::symlink_status(link, error)); ++hops) {
    if (hops == 40) throw Failure("cannot write " + path + ": too many levels of symbolic links");
    const std::filesystem::path next = std::filesystem::read_symlink(link, error);
    if (error) throw Failure("cannot write " + path + ": " + error.message());
    link = next.is_absolute() ? next : link.parent_path() / next;
  }
  const std::filesystem::path target = std::filesystem::weakly_canonical(link, error);
  if (error) throw Failure("cannot write " + path + ": " + error.message());
  const std::filesystem::file_status status = std::filesystem::status(target, error);
  if (status.type() != std::filesystem::file_type::not_found &&
      status.type() != std::filesystem::file_type::regular) {
    throw Failure("cannot write " + path + ": " + special_file_kind(status) +
                  "; only regular files are replaced");
  }
  return target;
}

// The mode a new file gets: the replaced file's, else 0666 less the umask.
mode_t new_file_mode(const std::filesystem::path& target) {
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void write_file_atomic(const std::string& path, const void* bytes, size_t size) {
  // A symlink is written through, a regular file replaced by rename; FIFOs,
  // devices and other special files are never replaced.
  const std::filesystem::path target = write_destination(path);
  // A fresh temporary (O_EXCL): a planted file or link there is never followed.
  std::string temporary = target.string() + ".XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) throw Failure("cannot write " + path + ": " + std::strerror(errno));
  const auto* cursor = static_cast<const uint8_t*>(bytes);
  size_t left = size;
  bool ok = ::fchmod(fd, new_file_mode(target)) == 0;
  while (ok && left > 0) {
    const ssize_t written = ::write(fd, cursor, left);
    if (written < 0 && errno == EINTR) continue;
    ok = written > 0;
    if (ok) {
      cursor += written;
      left -= static_cast<size_t>(written);
    }
  }
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
