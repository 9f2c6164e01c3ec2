#include "studio/app_log.h"

#include <algorithm>

namespace nudge::studio {

std::string format_log_line(LogLevel level, std::string_view message) {
  std::string line = "nudge: ";
  if (level == LogLevel::Warning) line += "warning: ";
  if (level == LogLevel::Error) line += "error: ";
  line += message;
  return line;
}

AppLog::AppLog(std::size_t capacity, std::ostream* echo) : capacity_(std::max<std::size_t>(capacity, 1)), echo_(echo) {}

void AppLog::add(LogLevel level, std::string message) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::lock_guard lock(mutex_);
  // Echoed under the lock so that lines from different threads never interleave.
  if (echo_) *echo_ << format_log_line(level, message) << '\n' << std::flush;
  if (entries_.size() == capacity_) entries_.pop_front();
  entries_.push_back({seconds, level, std::move(message)});
  ++generation_;
  if (level == LogLevel::Error) ++error_count_;
}

std::vector<LogEntry> AppLog::entries() const {
  std::lock_guard lock(mutex_);
  return {entries_.begin(), entries_.end()};
}

std::uint64_t AppLog::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

int AppLog::error_count() const {
  std::lock_guard lock(mutex_);
  return error_count_;
}

void AppLog::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
  error_count_ = 0;
  ++generation_;
}

void AppLog::set_echo(std::ostream* echo) {
  std::lock_guard lock(mutex_);
  echo_ = echo;
}

}  // namespace nudge::studio
