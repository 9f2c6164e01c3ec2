// A progress line for long commands: rewritten in place on a terminal, printed as
// occasional plain lines when output goes to a file or a pipe.
#pragma once

#include <chrono>
#include <string>

namespace nudge {

class ProgressLine {
public:
  explicit ProgressLine(int total);
  // Reports that `done` of `total` units are finished, with a message.
  void update(int done, const std::string& message);
  void finish();  // ends the line on a terminal

private:
  int total_;
  bool terminal_;
  int last_printed_ = -1;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
};

std::string format_seconds(double seconds);  // "1.2 s", "3 min 4 s"

}  // namespace nudge
