// A motion drawn to a folder of numbered PNG frames (frame_00000.png, ...) with the
// offscreen renderer: `nudge render --frames` and the studio's frame export.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "nudge/render/gpu_context.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/element_colors.h"
#include "view/gradient_overlay.h"
#include "view/scene_draw.h"

namespace nudge::view {

// The steps a sequence shows: 0, k, 2k, ... and the last, k steps being one video frame
// at `fps` frames per simulated second.
std::vector<int> sequence_steps(int steps, double dt, double fps);

struct FrameSequence {
  const Scene* scene = nullptr;
  const Trajectory* trajectory = nullptr;
  std::filesystem::path folder;  // made if missing
  int width = 1280, height = 720;
  double fps = 30;
  SceneDrawOptions options;                         // camera and layers
  GradientOverlay overlay = GradientOverlay::None;  // drawn over each frame, as in the viewport
  ElementColoring element_colors;                   // cloth and tets coloured per element (gradients: the scene's)
};

// Called before the first frame and after each with (frames written, frames in all);
// returning false stops the export (an Error; the frames written so far stay).
using FrameProgress = std::function<bool(int done, int total)>;

// Writes the frames; returns how many. Each PNG is written whole or not at all.
Result<int> write_frame_sequence(render::GpuContext& gpu, const FrameSequence& sequence,
                                 const FrameProgress& progress = {});

}  // namespace nudge::view
