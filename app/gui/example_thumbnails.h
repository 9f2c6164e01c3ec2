// Pictures of the shipped examples for the welcome panel: a worker thread with its own
// offscreen Vulkan device draws each example's first frame (its initial positions, no
// simulation) small, one after another; the UI takes each as it is ready.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "nudge/render/image.h"
#include "studio/background_job.h"

namespace nudge::gui {

class ExampleThumbnails {
public:
  static constexpr int kWidth = 192, kHeight = 108;

  // Starts at once. A scene that does not load or draw gets no picture (nullopt).
  explicit ExampleThumbnails(std::vector<std::filesystem::path> scenes);

  // The pictures drawn since the last call, by their index in `scenes`.
  std::vector<std::pair<int, render::Image>> take_ready();

private:
  std::vector<std::filesystem::path> scenes_;
  std::mutex mutex_;
  std::vector<std::pair<int, render::Image>> ready_;
  std::unique_ptr<studio::BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::gui
