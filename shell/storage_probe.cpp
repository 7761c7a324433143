#include "storage_probe.h"

#include "base/i18n.h"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

namespace gpucost::cli {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kChunkBytes = 8u << 20;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// Closes a file descriptor and, for temporary files, removes the file - on every path out.
struct FileGuard {
  int fd = -1;
  std::string unlink_path;
  ~FileGuard() {
    if (fd >= 0) close(fd);
    if (!unlink_path.empty()) unlink(unlink_path.c_str());
  }
};

// Reads one file from the start until `budget` bytes; returns the bytes read, or -1 with *error.
double ReadFile(const std::string& path, double budget, std::vector<char>* buf, bool* cache_dropped,
                std::string* error) {
  FileGuard f;
  f.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) return *error = Errno(path), -1;
  if (posix_fadvise(f.fd, 0, 0, POSIX_FADV_DONTNEED) != 0) *cache_dropped = false;
  posix_fadvise(f.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  double done = 0;
  while (done < budget) {
    const std::size_t want = static_cast<std::size_t>(std::min<double>(buf->size(), budget - done));
    const ssize_t got = read(f.fd, buf->data(), want);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return *error = Errno(path), -1;
    if (got == 0) break;
    done += static_cast<double>(got);
  }
  return done;
}

}  // namespace

bool MeasureDatasetRead(const std::string& dir, double max_bytes, ProbeStorage* out, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return *error = TrFormat("cli.err.not_directory", {dir}), false;
  *out = ProbeStorage{};
  out->kind = "dataset_read";
  out->dir = dir;
  out->cache_dropped = true;
  std::vector<char> buf(kChunkBytes);
  const auto start = std::chrono::steady_clock::now();
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && out->bytes < max_bytes; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->file_size(ec) == 0) continue;
    const double got = ReadFile(it->path().string(), max_bytes - out->bytes, &buf, &out->cache_dropped, error);
    if (got < 0) return false;
    out->bytes += got;
    ++out->files;
  }
  out->seconds = SecondsSince(start);
  if (ec) return *error = dir + ": " + ec.message(), false;
  if (out->bytes <= 0) return *error = TrFormat("cli.err.probe_no_data", {dir}), false;
  out->gbps = out->bytes / out->seconds / 1e9;
  return true;
}

bool MeasureCheckpointWrite(const std::string& dir, double bytes, ProbeStorage* out, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return *error = TrFormat("cli.err.not_directory", {dir}), false;
  *out = ProbeStorage{};
  out->kind = "checkpoint_write";
  out->dir = dir;
  out->fsync = true;
  out->files = 1;
  std::vector<char> buf(kChunkBytes);
  std::mt19937_64 rng(12345);  // incompressible: compressing or deduplicating file systems cannot cheat
  for (std::size_t i = 0; i + 8 <= buf.size(); i += 8) {
    const std::uint64_t v = rng();
    std::memcpy(buf.data() + i, &v, 8);
  }
  std::string name = (fs::path(dir) / ".gpucost-probe-XXXXXX").string();
  const auto start = std::chrono::steady_clock::now();
  FileGuard f;
  f.fd = mkstemp(name.data());
  if (f.fd < 0) return *error = Errno(TrFormat("cli.err.probe_tempfile", {dir})), false;
  f.unlink_path = name;
  for (std::uint64_t chunk = 0; out->bytes < bytes; ++chunk) {
    std::memcpy(buf.data(), &chunk, sizeof chunk);  // no two chunks alike
    const std::size_t want = static_cast<std::size_t>(std::min<double>(buf.size(), bytes - out->bytes));
    const ssize_t put = write(f.fd, buf.data(), want);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return *error = Errno(name), false;
    out->bytes += static_cast<double>(put);
  }
  if (fsync(f.fd) != 0) return *error = Errno(name + ": fsync"), false;
  if (int d = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    fsync(d);  // the new directory entry (best effort: not every file system allows it)
    close(d);
  }
  out->seconds = SecondsSince(start);
  out->gbps = out->bytes / out->seconds / 1e9;
  return true;
}

ProbeHost ReadHostInventory() {
  ProbeHost h;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.compare(0, 10, "model name") == 0 && line.find(':') != std::string::npos) {
      h.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  h.logical_cpus = cpus > 0 ? cpus : 0;
  const long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_bytes > 0) h.ram_gb = static_cast<double>(pages) * static_cast<double>(page_bytes) / 1e9;
  struct utsname u;
  if (uname(&u) == 0) h.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
  return h;
}

}  // namespace gpucost::cli
