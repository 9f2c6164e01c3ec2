// The studio's log: messages from the UI and worker threads, kept for the log panel and
// optionally echoed to stderr as the command line prints them ("nudge: warning: ..."),
// which is what tests of the whole app read. Thread-safe; keeps the newest entries only.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nudge::studio {

enum class LogLevel { Info, Warning, Error };

struct LogEntry {
  double seconds = 0;  // since the log was created
  LogLevel level = LogLevel::Info;
  std::string message;
};

// "nudge: <message>", "nudge: warning: <message>" or "nudge: error: <message>", no newline.
std::string format_log_line(LogLevel level, std::string_view message);

class AppLog {
public:
  static constexpr std::size_t kDefaultCapacity = 1000;

  // `echo`, when set, receives every message as format_log_line plus a newline (std::cerr
  // in the app). It must outlive the log.
  explicit AppLog(std::size_t capacity = kDefaultCapacity, std::ostream* echo = nullptr);

  void add(LogLevel level, std::string message);
  void info(std::string message) { add(LogLevel::Info, std::move(message)); }
  void warning(std::string message) { add(LogLevel::Warning, std::move(message)); }
  void error(std::string message) { add(LogLevel::Error, std::move(message)); }

  // A copy of the kept entries, oldest first, for drawing without holding the lock.
  std::vector<LogEntry> entries() const;
  // Changes on every add and clear: the panel scrolls to the bottom when it does.
  std::uint64_t generation() const;
  // Errors added since creation or the last clear, dropped ones included.
  int error_count() const;
  std::size_t capacity() const { return capacity_; }

  void clear();
  void set_echo(std::ostream* echo);

private:
  const std::size_t capacity_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  std::deque<LogEntry> entries_;
  std::uint64_t generation_ = 0;
  int error_count_ = 0;
  std::ostream* echo_ = nullptr;
};

}  // namespace nudge::studio
