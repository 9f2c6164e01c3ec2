#include "cli/progress.h"

#include <cstdio>
#include <unistd.h>

namespace nudge {

ProgressLine::ProgressLine(int total)
    : total_(total), terminal_(::isatty(::fileno(stderr)) != 0), start_(std::chrono::steady_clock::now()) {}

std::string format_seconds(double seconds) {
  char text[64];
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  else
    std::snprintf(text, sizeof text, "%d min %02d s", int(seconds) / 60, int(seconds) % 60);
  return text;
}

void ProgressLine::update(int done, const std::string& message) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = done > 0 ? elapsed / done * (total_ - done) : 0.0;
  const std::string line = "[" + std::to_string(done) + "/" + std::to_string(total_) + "] " + message + "  " +
                           format_seconds(left) + " left";
  if (terminal_) {
    // Redraw at most 20 times a second; always draw the last update.
    if (done < total_ && now - last_draw_ < std::chrono::milliseconds(50)) return;
    last_draw_ = now;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  } else {
    // Ten lines over the whole run, plus the first and last.
    const int decile = total_ > 0 ? done * 10 / total_ : 10;
    if (done != 1 && done != total_ && decile == last_printed_) return;
    last_printed_ = decile;
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

void ProgressLine::finish() {
  if (terminal_) std::fprintf(stderr, "\n");
}

}  // namespace nudge
