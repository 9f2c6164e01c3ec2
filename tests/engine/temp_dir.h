// A fresh folder under the system's temporary folder for one test, removed with
// everything in it; write() puts a file there (making its folders).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#ifdef _WIN32
#include <process.h>
#define NUDGE_TEST_PID _getpid()
#else
#include <unistd.h>
#define NUDGE_TEST_PID getpid()
#endif

namespace nudge::test {

class TempDir {
public:
  std::filesystem::path path;

  // prefix names the test in the folder's name: "nudge-<prefix>-<pid>-<n>".
  explicit TempDir(std::string_view prefix) {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("nudge-" + std::string(prefix) + "-" + std::to_string(NUDGE_TEST_PID) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::filesystem::path write(const std::filesystem::path& name, std::string_view text) const {
    const std::filesystem::path file = path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    return file;
  }

  // The names of what is in the folder.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path))
      names.push_back(entry.path().filename().string());
    return names;
  }
};

}  // namespace nudge::test
