#include "nudge/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <unistd.h>

namespace nudge {

Status write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  namespace fs = std::filesystem;
  const fs::path temp = path.string() + ".tmp-" + std::to_string(::getpid());
  const auto fail = [&](const std::string& what) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return Status(Error{path.string() + ": cannot write: " + what});
  };
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (!file) return fail(std::strerror(errno));
  const bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  const int write_errno = errno;
  // fsync so that a crash after the rename cannot leave an empty file behind.
  const bool flushed = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const bool closed = std::fclose(file) == 0;
  if (!written) return fail(std::strerror(write_errno));
  if (!flushed || !closed) return fail(std::strerror(errno));
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) return fail(ec.message());
  return Ok{};
}

}  // namespace nudge
